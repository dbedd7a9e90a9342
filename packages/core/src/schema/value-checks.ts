/** Pure value checks shared by the IR build, the schema conformance check and the custom class-validator constraints. */
import { isCalendarDate } from '../time/calendar';
import { compilePatternMatcher, type PatternMatcher } from './pattern-engine';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const OFFSET_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/** A calendar date `YYYY-MM-DD` that exists (`2026-02-30` does not). */
export function isDateOnly(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_ONLY.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * An ISO-8601 / RFC 3339 date-time with a UTC offset: `2026-11-21T09:00:00+01:00`, `2026-11-21T08:00:00Z`,
 * `2026-11-21T09:00+0100`. Seconds and fractions are optional; the offset is not.
 */
export function isOffsetDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = OFFSET_DATE_TIME.exec(value);
  if (match === null) return false;
  const [, year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || (second !== undefined && Number(second) > 60)) return false;
  return offsetHours === undefined || (Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59);
}

/**
 * Compiles a JSON Schema `pattern` (ECMAScript, unanchored): on the linear-time engine whenever it can express it
 * (see `compilePatternMatcher`). Throws on an invalid pattern.
 */
export function compilePattern(pattern: string): PatternMatcher {
  return compilePatternMatcher(pattern);
}

/** A string's length in code points, as JSON Schema and class-validator's MinLength/MaxLength count it. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

/** A key for `uniqueItems`: equal JSON values get equal keys (object keys sorted). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** A copy of the plain objects and arrays in a value a developer gave (default, examples), so freezing the IR never freezes theirs. */
export function copyJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJsonValue);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) copy[key] = copyJsonValue((value as Record<string, unknown>)[key]);
    return copy;
  }
  return value;
}
