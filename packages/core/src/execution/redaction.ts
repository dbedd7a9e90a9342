import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { Transformation } from '../types/execution';

export const REDACTED = '[redacted]';

const sensitivePathsBySchema = new WeakMap<ObjectSchema, ReadonlySet<string>>();

/** Paths (as `a.b[].c`, indices folded) of properties marked `sensitive`; computed once per schema. */
export function sensitivePaths(schema: ObjectSchema): ReadonlySet<string> {
  const cached = sensitivePathsBySchema.get(schema);
  if (cached) return cached;
  const paths = new Set<string>();
  sensitivePathsBySchema.set(schema, paths);
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
  return paths;
}

function foldIndices(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

function isUnder(path: string, sensitive: ReadonlySet<string>): boolean {
  const folded = foldIndices(path);
  for (const candidate of sensitive) if (folded === candidate || folded.startsWith(`${candidate}.`) || folded.startsWith(`${candidate}[`)) return true;
  return false;
}

/** Transformations safe to log: values of sensitive fields replaced; argument-text rules (path '') elided when any field is sensitive. */
export function redactTransformations(transformations: readonly Transformation[], sensitive: ReadonlySet<string>): Transformation[] {
  if (sensitive.size === 0) return transformations.slice();
  return transformations.map((transformation) =>
    transformation.path === '' || isUnder(transformation.path, sensitive)
      ? { ...transformation, from: REDACTED, to: REDACTED }
      : transformation,
  );
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
