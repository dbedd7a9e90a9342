import type { Transformation, ValidationIssue } from '../types/execution';
import type { ObjectSchema } from '../types/schema';

/** How many of the keys sent the issue names (the rest are counted). */
const MAX_NAMED_KEYS = 5;

/**
 * A call whose every key was dropped as unknown (`{"query": "cats"}` to a tool whose parameters
 * are `q` and `limit`; a `{"tool_uses": [...]}` wrapper) is refused with the tool's parameter names, never run with
 * nothing. `kept` is what normalizing (step 4) kept, `transformations` what it recorded. A tool without parameters the
 * model sets keeps running with `{}`: there was nothing the model could have meant.
 */
export function onlyUnknownKeysIssue(
  kept: Record<string, unknown>,
  transformations: readonly Transformation[],
  parameters: ObjectSchema,
): ValidationIssue | undefined {
  for (const key in kept) if (Object.prototype.hasOwnProperty.call(kept, key)) return undefined;
  const names = parameters.properties.filter((property) => !property.context).map((property) => property.name);
  if (names.length === 0) return undefined;
  // Nothing was kept, so no property was read: every unknown key dropped is one of the top level's.
  const dropped: string[] = [];
  let more = 0;
  for (const transformation of transformations) {
    if (transformation.rule === 'dropped-unknown-key') dropped.push(transformation.path);
    else if (transformation.rule === 'dropped-unknown-keys') more++;
  }
  if (dropped.length === 0 && more === 0) return undefined;
  const sent = dropped.slice(0, MAX_NAMED_KEYS).map((key) => JSON.stringify(key));
  const listed = `${sent.join(', ')}${dropped.length > MAX_NAMED_KEYS || more > 0 ? ', ...' : ''}`;
  const wanted = names.map((name) => `"${name}"`).join(', ');
  return {
    path: '',
    rule: 'unknown-keys-only',
    expected: `at least one of the keys ${names.join(', ')}`,
    received: `only unknown keys (${listed})`,
    message: `None of the keys sent (${listed}) is a parameter of this tool, so the call would run without any of its values; send the arguments under the tool's parameter names: ${wanted}.`,
  };
}
