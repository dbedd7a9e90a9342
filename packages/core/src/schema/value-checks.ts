/** Pattern compilation and JSON value helpers shared by the IR build and the rules (each kind's rule is in `rules/`). */
import { compilePatternMatcher, type PatternMatcher } from './pattern-engine';

/**
 * Compiles a JSON Schema `pattern` (ECMAScript, unanchored): on the linear-time engine whenever it can express it
 * (see `compilePatternMatcher`). Throws on an invalid pattern.
 */
export function compilePattern(pattern: string): PatternMatcher {
  return compilePatternMatcher(pattern);
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
