import type { Transformation, ValidationIssue } from '../types/execution';
import type { ObjectSchema } from '../types/schema';

/** Unknown keys of one object recorded one by one (a transformation, or under `strict` an issue); the rest are counted. */
export const MAX_LISTED_UNKNOWN_KEYS = 20;

/** One transformation (or issue) for the unknown keys of an object past `MAX_LISTED_UNKNOWN_KEYS`. */
export function summarizeUnknownKeys(
  state: { readonly transformations: Transformation[]; readonly issues: ValidationIssue[] },
  path: string,
  more: number,
  coerce: boolean,
  schema: ObjectSchema,
): void {
  const where = path === '' ? 'the arguments' : `"${path}"`;
  if (coerce) {
    state.transformations.push({
      path,
      rule: 'dropped-unknown-keys',
      from: `${more} more unknown keys`,
      to: undefined,
    });
    return;
  }
  const known = schema.properties.filter((property) => !property.context).map((property) => `"${property.name}"`);
  const message = `${more} more keys of ${where} are not parameters of this tool; use only ${known.length > 0 ? known.slice(0, 20).join(', ') : 'no parameters'}.`;
  state.issues.push({
    path,
    rule: 'unknown-key',
    expected: known.length > 0 ? `only the keys ${known.join(', ')}` : 'no keys',
    received: `${more} more unknown keys`,
    message,
  });
}
