import { isUnsafeIntegerLiteral } from './unsafe-integer';
import { CHANGED, KEEP, REFUSED, UNICODE_EDGES, type LabelledValue, type RuleOutcome } from './outcome';
import type { LengthCount } from '../types/schema';

/**
 * The string kind: its canonical test, its repairs (a number or boolean given for a string), and its lengths. A
 * length has one definition per source's meaning, chosen by the node's `lengthCount`: JSON Schema's `minLength` and
 * `maxLength` count code points (2020-12, 6.3.1: "characters", as ajv counts; a JSON-Schema or compact tool), a
 * decorated class's `@Length`, `@MinLength`, `@MaxLength` and `@ToolParam({ minLength })` count as validator.js's
 * `isLength` does (code points, less the variation selectors U+FE0E and U+FE0F). A JSON-Schema tool never gets
 * class-validator's count, nor the reverse.
 */

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** The repairs: a finite number (`number-to-string`), an integer beyond 2^53 as its digits, a boolean. */
export function toStringValue(value: unknown, coerce: boolean): RuleOutcome {
  if (typeof value === 'string') return KEEP(value);
  if (!coerce) return REFUSED;
  // An integer literal beyond 2^53 for a string parameter: its digits as sent (a 64-bit id), never a rounded number.
  if (isUnsafeIntegerLiteral(value)) return CHANGED(value.text, 'number-to-string');
  if (typeof value === 'number' && Number.isFinite(value)) return CHANGED(String(value), 'number-to-string');
  if (typeof value === 'boolean') return CHANGED(String(value), 'boolean-to-string');
  return REFUSED;
}

/** A string's length in code points (JSON Schema's count): a surrogate pair is one, a lone surrogate one. */
export function codePointLength(value: string): number {
  let length = value.length;
  for (let index = 0; index < value.length - 1; index++) {
    const unit = value.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}

/**
 * A string's length as validator.js's `isLength` counts it (class-validator's `@Length`): `.length`, less one per
 * presentation sequence (a code unit other than U+FE0E/U+FE0F followed by one of them, matched left to right without
 * overlap) and less one per surrogate pair (matched the same way, on their own).
 */
export function validatorLength(value: string): number {
  let sequences = 0;
  for (let index = 0; index + 1 < value.length; index++) {
    const next = value.charCodeAt(index + 1);
    const unit = value.charCodeAt(index);
    if ((next === 0xfe0e || next === 0xfe0f) && unit !== 0xfe0e && unit !== 0xfe0f) {
      sequences++;
      index++;
    }
  }
  // The surrogate pairs are matched on their own, over the whole text: exactly the code-point count's.
  return codePointLength(value) - sequences;
}

/** A string's length as `count` says. */
export function countedLength(value: string, count: LengthCount | undefined): number {
  return count === 'class-validator' ? validatorLength(value) : codePointLength(value);
}

/**
 * Whether a string's length (counted as `count` says: `undefined` is JSON Schema's code points) lies within the bounds:
 * the `minLength` and `maxLength` rules. Either count is at most `.length`, and at least the number of code units
 * below U+D800 (each of those is one character in both; only units from U+D800 up are merged or dropped). So a string
 * no longer than the maximum is within it, and one with `minimum` units below U+D800 (found from the start, stopping
 * there) reaches the minimum: long strings are not read to the end, and the common case allocates nothing.
 */
export function lengthWithin(
  value: string,
  minimum: number | undefined,
  maximum: number | undefined,
  count: LengthCount | undefined,
): boolean {
  if (maximum === undefined || value.length <= maximum) {
    if (minimum === undefined) return true;
    let plain = 0;
    for (let index = 0; index < value.length && plain < minimum; index++) if (value.charCodeAt(index) < 0xd800) plain++;
    if (plain >= minimum) return true;
  }
  const length = countedLength(value, count);
  return (minimum === undefined || length >= minimum) && (maximum === undefined || length <= maximum);
}

/** The lengths in words, for the model: ` of at least 3 characters`, ` of 1 to 20 characters`. */
export const LENGTH_NOUN = 'character';

/**
 * The kind's edge cases for a string parameter `{minLength: 3}` counted as `count` says: the Unicode edges (surrogate
 * pairs, variation selectors, combining marks, zero-width and control characters) and their lengths.
 */
export function stringLengthEdgeCases(minLength: number, count: LengthCount | undefined): LabelledValue[] {
  return UNICODE_EDGES.map((edge) => {
    const length = count === 'class-validator' ? edge.validator : edge.codePoints;
    return { value: edge.text, valid: length >= minLength, note: `${edge.note} (${length} counted)` };
  });
}

/** The kind's edge cases for a string parameter without bounds: every string is valid; other types are not. */
export function stringEdgeCases(): LabelledValue[] {
  return [
    ...UNICODE_EDGES.map((edge) => ({ value: edge.text, valid: true, note: edge.note })),
    { value: 12, valid: false, note: 'a number (safe repairs)' },
    { value: true, valid: false, note: 'a boolean (safe repairs)' },
    { value: null, valid: false, note: 'null' },
  ];
}
