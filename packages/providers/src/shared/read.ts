/**
 * Defensive readers for provider payloads. Responses and stream events are unions of many shapes (and grow with
 * every SDK release), so parsers accept `object` and read the fields they need by name.
 */

export type Loose = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): Loose | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
}

export function recordAt(value: unknown, ...path: string[]): Loose | undefined {
  let node: unknown = value;
  for (const key of path) node = asRecord(node)?.[key];
  return asRecord(node);
}

export function valueAt(value: unknown, ...path: string[]): unknown {
  let node: unknown = value;
  for (const key of path) node = asRecord(node)?.[key];
  return node;
}

export function stringAt(value: unknown, ...path: string[]): string | undefined {
  const node = valueAt(value, ...path);
  return typeof node === 'string' ? node : undefined;
}

export function numberAt(value: unknown, ...path: string[]): number | undefined {
  const node = valueAt(value, ...path);
  return typeof node === 'number' ? node : undefined;
}

export function arrayAt(value: unknown, ...path: string[]): readonly unknown[] {
  const node = valueAt(value, ...path);
  return Array.isArray(node) ? node : [];
}

/** The first of several spellings (`toolCalls` from an SDK, `tool_calls` on the wire). */
export function firstDefined(value: unknown, ...keys: string[]): unknown {
  const record = asRecord(value);
  if (!record) return undefined;
  for (const key of keys) if (record[key] !== undefined && record[key] !== null) return record[key];
  return undefined;
}
