import { isUnsafeIntegerLiteral } from './unsafe-integer';
import { BEYOND_2_53, INTEGER_FORM, readNumberText } from './number';
import { CHANGED, KEEP, REFUSED, invalid, refuse, valid, type LabelledValue, type RuleOutcome } from './outcome';

/**
 * The integer kind (JSON Schema `integer`): its canonical test, its repair from text, its edge cases. Its bounds are
 * the number kind's (`rules/number.ts`: one definition of `minimum` .. `multipleOf` for both).
 */

/**
 * The canonical test: a safe integer (-(2^53 - 1) to 2^53 - 1). An integral number beyond it is refused on every path:
 * no JavaScript number holds such an integer exactly, so it may not be the one the model sent.
 */
export const isInteger = Number.isSafeInteger as (value: unknown) => value is number;

/** The repair: integer text, `"10"` or `"10.0"` (`string-to-integer`); a fraction or garbage is refused. */
export function toInteger(value: unknown, coerce: boolean): RuleOutcome {
  if (isUnsafeIntegerLiteral(value)) return refuse(BEYOND_2_53);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return Number.isFinite(value) ? refuse('it has a fractional part') : REFUSED;
    if (!isInteger(value)) return refuse('it is larger than 2^53 - 1 and cannot be represented exactly');
    return KEEP(value);
  }
  if (coerce && typeof value === 'string') {
    const read = readNumberText(value);
    if (!('text' in read)) return read.reason ? refuse(read.reason) : REFUSED;
    const number = Number(read.text);
    if (INTEGER_FORM.test(read.text) && !isInteger(number)) return refuse(BEYOND_2_53);
    if (!Number.isInteger(number))
      return Number.isFinite(number) ? refuse('it has a fractional part') : refuse('it is out of range');
    if (!isInteger(number)) return refuse('it is larger than 2^53 - 1 and cannot be represented exactly');
    return CHANGED(number === 0 ? 0 : number, 'string-to-integer');
  }
  return REFUSED;
}

/** The kind's edge cases (for an integer parameter without bounds): -0, 2^53 +-1, exponents, fractions. */
export function integerEdgeCases(): LabelledValue[] {
  return [
    valid(0, 'zero'),
    valid(-0, 'negative zero'),
    valid(Number.MAX_SAFE_INTEGER, '2^53 - 1'),
    valid(-Number.MAX_SAFE_INTEGER, '-(2^53 - 1)'),
    invalid(2 ** 53, '2^53'),
    invalid(2 ** 53 + 2, '2^53 + 2'),
    invalid(-(2 ** 53), '-2^53'),
    valid(1e3, '1e3 (an exponent that is an integer)'),
    invalid(1.5, 'a fraction'),
    invalid(1e-7, 'a small exponent'),
    invalid(1e300, 'a large exponent beyond 2^53'),
    invalid(Number.NaN, 'NaN'),
    invalid('10', 'integer text (safe repairs)'),
    invalid('10.0', 'integer text with .0 (safe repairs)'),
    invalid('10x', 'garbage'),
    invalid(true, 'a boolean'),
  ];
}

/**
 * Edge cases of the bounds on an integer: each bound itself, one past it, the exclusive bounds and `multipleOf`, for
 * the parameter `{minimum: lower, maximum: upper}` (with `lower < upper`, both safe integers).
 */
export function integerBoundEdgeCases(lower: number, upper: number): LabelledValue[] {
  return [
    valid(lower, 'the minimum'),
    invalid(lower - 1, 'one below the minimum'),
    valid(upper, 'the maximum'),
    invalid(upper + 1, 'one above the maximum'),
    invalid(lower - 0.5, 'a fraction below the minimum'),
  ];
}
