import { DefinitionError, type ToolDefinition } from '@toolwright/core';

/** The function-name rule the OpenAI-compatible APIs these frameworks speak enforce: `^[a-zA-Z0-9_-]{1,64}$`. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAXIMUM_LENGTH = 64;

/**
 * One framework-safe name per tool: the registry name when it fits `^[a-zA-Z0-9_-]{1,64}$`, else every other
 * character replaced by `_` (`decision/propose` -> `decision_propose`) and cut at 64. Two tools that would get the
 * same name are a DefinitionError: the executor is always called with the registry name, so no guess is ever made.
 */
export function frameworkToolNames(
  definitions: readonly ToolDefinition[],
  target: string,
): Map<string, ToolDefinition> {
  const byName = new Map<string, ToolDefinition>();
  for (const definition of definitions) {
    const name = FUNCTION_NAME.test(definition.name)
      ? definition.name
      : definition.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAXIMUM_LENGTH);
    const previous = byName.get(name);
    if (previous !== undefined) {
      throw new DefinitionError(`tools "${previous.name}" and "${definition.name}" both become "${name}"`, {
        target,
        fix: 'rename one of them, or pass `include` to expose only some tools',
      });
    }
    byName.set(name, definition);
  }
  return byName;
}

/** The definitions an adapter exposes: all of the executor's tools, or the `include` list (by registry name). */
export function selectDefinitions(
  all: readonly ToolDefinition[],
  include: readonly string[] | undefined,
  target: string,
): ToolDefinition[] {
  if (include === undefined) return [...all];
  const byName = new Map(all.map((definition) => [definition.name, definition]));
  return include.map((name) => {
    const definition = byName.get(name);
    if (definition === undefined) {
      throw new DefinitionError(`"${name}" is not a registered tool`, {
        target,
        fix: `include only registered tools: ${[...byName.keys()].join(', ')}`,
      });
    }
    return definition;
  });
}
