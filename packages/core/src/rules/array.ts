import { canonicalJson } from '../schema/value-checks';
import { numberWithin } from './number';
import { invalid, valid, type LabelledValue } from './outcome';

/**
 * The array kind's own rules: the item count against `minItems`/`maxItems` (the number kind's `numberWithin`) and
 * `uniqueItems` (JSON equality: `1` and `1.0` are one value, `{a, b}` and `{b, a}` one object). Its items are checked
 * by their own kind's rules. The repairs (a JSON string of an array, a single element) are the normalizer's
 * (`array-from-json-string`, `single-to-array`), recorded as transformations.
 */
export function isArrayValue(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

export function itemCountWithin(
  value: readonly unknown[],
  minimum: number | undefined,
  maximum: number | undefined,
): boolean {
  return numberWithin(value.length, minimum, maximum);
}

/** `uniqueItems`: no two items JSON-equal. */
export function hasUniqueItems(value: readonly unknown[]): boolean {
  return new Set(value.map(canonicalJson)).size === value.length;
}

/** Edge cases for `{type: array, items: {type: integer}, minItems: 1, maxItems: 3, uniqueItems: true}`. */
export function arrayEdgeCases(): LabelledValue[] {
  return [
    valid([1], 'one item'),
    valid([1, 2, 3], 'three items'),
    invalid([], 'no item'),
    invalid([1, 2, 3, 4], 'four items'),
    invalid([1, 1], 'a repeated item'),
    invalid([1, -0, 0], 'zero and negative zero (JSON-equal)'),
    invalid([1, 1.5], 'an item of the wrong kind'),
    invalid('[1, 2]', 'a JSON string of an array (safe repairs)'),
    invalid(1, 'a single item (safe repairs)'),
  ];
}
