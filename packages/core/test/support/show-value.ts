import { UnsafeIntegerLiteral } from '@toolwright/core/rules/unsafe-integer';

/**
 * A description of a parsed value that tells apart everything a caller could (-0, prototype keys, key order, a
 * prototype other than Object.prototype, kept integer digits): what the parse-step differential tests compare.
 */
export function showValue(value: unknown): string {
  if (value instanceof UnsafeIntegerLiteral) return `U(${value.text})`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(showValue).join(',')}]`;
  const prototype = Object.getPrototypeOf(value) === Object.prototype ? '' : 'proto!';
  return `${prototype}{${Object.keys(value)
    .map((key) => `${JSON.stringify(key)}:${showValue((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}
