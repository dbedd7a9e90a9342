import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { Transformation, ValidationIssue } from '../types/execution';

export const REDACTED = '[redacted]';

const sensitivePathsBySchema = new WeakMap<ObjectSchema, ReadonlySet<string>>();
const NO_SENSITIVE_PATHS: ReadonlySet<string> = new Set();

/** Paths (as `a.b[].c`, indices folded) of properties marked `sensitive`; computed once per schema. */
export function sensitivePaths(schema: ObjectSchema): ReadonlySet<string> {
  const cached = sensitivePathsBySchema.get(schema);
  if (cached) return cached;
  const paths = new Set<string>();
  const walk = (node: ParamSchema, prefix: string, depth: number) => {
    if (depth > 16) return;
    if (node.kind === 'array') walk(node.items, `${prefix}[]`, depth + 1);
    else if (node.kind === 'union') node.variants.forEach((variant) => walk(variant, prefix, depth + 1));
    else if (node.kind === 'object') {
      for (const property of node.properties) {
        const path = prefix === '' ? property.name : `${prefix}.${property.name}`;
        if (property.sensitive) paths.add(path);
        walk(property.schema, path, depth + 1);
      }
    }
  };
  walk(schema, '', 0);
  // Most schemas have no sensitive property: they share one empty set (a set and its table are about 100 bytes).
  const kept = paths.size === 0 ? NO_SENSITIVE_PATHS : paths;
  sensitivePathsBySchema.set(schema, kept);
  return kept;
}

function foldIndices(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

function isUnder(path: string, sensitive: ReadonlySet<string>): boolean {
  const folded = foldIndices(path);
  for (const candidate of sensitive)
    if (folded === candidate || folded.startsWith(`${candidate}.`) || folded.startsWith(`${candidate}[`)) return true;
  return false;
}

/**
 * Whether a value at `path` is, or may contain, a sensitive value: the path is a sensitive field or inside one, or a
 * sensitive field is inside it (a parent whose value arrived as a JSON string carries its children's values in clear).
 */
export function holdsSensitive(path: string, sensitive: ReadonlySet<string>): boolean {
  if (sensitive.size === 0) return false;
  if (path === '' || isUnder(path, sensitive)) return true;
  const folded = foldIndices(path);
  for (const candidate of sensitive)
    if (candidate.startsWith(`${folded}.`) || candidate.startsWith(`${folded}[`)) return true;
  return false;
}

/** Whether a transformation's `from` and `to` can hold an argument value (a tool-name repair holds only names). */
function carriesValue(transformation: Transformation): boolean {
  return !transformation.rule.startsWith('tool-name');
}

/**
 * Transformations safe to return and log: `from` and `to` replaced by `[redacted]` where the value is a sensitive
 * field, inside one, or holds one (a parent read from a JSON string); the argument-text rules (path '': a fenced block,
 * double-encoded JSON, an unwrapped call) when any field is sensitive. Every rule, its path and the tool-name repairs
 * stay as they were.
 */
export function redactTransformations(
  transformations: readonly Transformation[],
  sensitive: ReadonlySet<string>,
): Transformation[] {
  if (sensitive.size === 0) return transformations.slice();
  return transformations.map((transformation) =>
    carriesValue(transformation) && holdsSensitive(transformation.path, sensitive)
      ? { ...transformation, from: REDACTED, to: REDACTED }
      : transformation,
  );
}

/** The rendering of a received value that is never repeated to the model. */
export const REDACTED_RECEIVED = 'a value that is not repeated (the field is sensitive)';

/**
 * Issues safe for the model (and the logs): an issue on a value that is or holds a sensitive field names the field and
 * the rule, never the value (`received` and its rendering inside `message` replaced).
 */
export function redactIssues(issues: readonly ValidationIssue[], sensitive: ReadonlySet<string>): ValidationIssue[] {
  if (sensitive.size === 0) return issues.slice();
  return issues.map((issue) => {
    if (issue.received === undefined || !holdsSensitive(issue.path, sensitive)) return issue;
    return {
      ...issue,
      received: REDACTED_RECEIVED,
      message: issue.message.split(issue.received).join(REDACTED_RECEIVED),
    };
  });
}

/** A copy of arguments with sensitive values replaced (top-level and nested objects; arrays of objects). */
export function redactValue(value: unknown, sensitive: ReadonlySet<string>, prefix = '', depth = 0): unknown {
  if (sensitive.size === 0 || depth > 16 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, sensitive, `${prefix}[]`, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    copy[key] = sensitive.has(path) ? REDACTED : redactValue(item, sensitive, path, depth + 1);
  }
  return copy;
}
