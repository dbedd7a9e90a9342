import type { ToolResult } from '@toolwright/core';

/** Helpers of the differential property tests: the edits a model makes to a call's value, and an exact serialization to compare results byte for byte. */
type Json = unknown;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function renameKeys(value: Json, rename: (key: string) => string): Json {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [rename(key), inner]));
}

export function addKey(value: Json, key: string, added: Json): Json {
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  Object.defineProperty(copy, key, { value: added, enumerable: true, writable: true, configurable: true });
  return copy;
}

export function deepAddKey(value: Json, key: string, added: Json): Json {
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      name,
      isRecord(inner)
        ? addKey(inner, key, added)
        : Array.isArray(inner) && isRecord(inner[0])
          ? [addKey(inner[0], key, added), ...inner.slice(1)]
          : inner,
    ]),
  );
}

export function mapLeaves(value: Json, map: (leaf: Json) => Json): Json {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, map));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mapLeaves(inner, map)]));
  return map(value);
}

/** Applies `map` to one top-level entry (the first one the seed picks). */
export function mapTop(value: Json, map: (entry: Json) => Json): Json {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 0) return value;
  const chosen = keys[keys.length - 1]!;
  const mapped = map(value[chosen]);
  const copy: Record<string, unknown> = {};
  for (const key of keys) if (key !== chosen || mapped !== undefined) copy[key] = key === chosen ? mapped : value[key];
  return copy;
}

/** A serialization that tells -0, undefined, NaN, key order and classes apart (the comparison is byte for byte). */
export function exact(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === undefined) return '<undefined>';
    if (typeof inner === 'number' && (Object.is(inner, -0) || !Number.isFinite(inner)))
      return `<number ${Object.is(inner, -0) ? '-0' : String(inner)}>`;
    if (inner instanceof Date) return `<date ${inner.toISOString()}>`;
    if (
      typeof inner === 'object' &&
      inner !== null &&
      !Array.isArray(inner) &&
      Object.getPrototypeOf(inner) !== Object.prototype &&
      Object.getPrototypeOf(inner) !== null
    ) {
      return { '<class>': inner.constructor?.name, ...(inner as Record<string, unknown>) };
    }
    return inner;
  });
}

export function withoutDuration(result: ToolResult): unknown {
  const { durationMs: _durationMs, ...rest } = result;
  return rest;
}

/** Key malformations (docs/normalization.md): case and separators, an unknown key, a near miss, a context field, a look-alike of one, prototype keys, a context field one level down. */
export const KEY_EDITS: ReadonlyArray<(value: Json) => Json> = [
  (value) => renameKeys(value, (key) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)),
  (value) => renameKeys(value, (key) => key.toUpperCase()),
  (value) => addKey(value, 'unknownKey', 1),
  (value) => addKey(value, 'titel', 'x'),
  (value) => addKey(value, 'session_id', 'forged'),
  (value) => addKey(value, 'ｓｅｓｓｉｏｎ＿ｉｄ', 'forged'),
  (value) => addKey(value, '__proto__', { polluted: true }),
  (value) => addKey(value, 'constructor', 'x'),
  (value) => deepAddKey(value, 'job_id', 'nested'),
];

/** Container malformations: an array sent as JSON text, one item for an array, an object as JSON text, too many items, an item given twice. */
export const CONTAINER_EDITS: ReadonlyArray<(value: Json) => Json> = [
  (value) => mapTop(value, (entry) => (Array.isArray(entry) ? JSON.stringify(entry) : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) && entry.length > 0 ? entry[0] : entry)),
  (value) => mapTop(value, (entry) => (isRecord(entry) ? JSON.stringify(entry) : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) ? [...entry, ...entry, ...entry, ...entry] : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) && entry.length > 0 ? [...entry, entry[0]] : entry)),
];
