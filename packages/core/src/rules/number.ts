import { isUnsafeIntegerLiteral } from './unsafe-integer';
import { CHANGED, KEEP, REFUSED, invalid, refuse, valid, type LabelledValue, type RuleOutcome } from './outcome';
import type { NumericBounds } from '../types/schema';

/**
 * The number kind (JSON Schema `number`) and the numeric bounds the integer kind shares: the number text grammar, the
 * repair from text, the one definition of `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and
 * `multipleOf` (and of an array's item count and a string's length against their bounds), the words for the model and
 * the edge cases.
 */

export const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const INTEGER_FORM = /^-?\d+$/;
export const BEYOND_2_53 =
  'it is beyond 2^53 - 1 and no JavaScript number holds it exactly; send it as a string if the tool takes text, or a smaller number';

/**
 * Number text in JSON's grammar after the lossless clean-ups (surrounding white space, one leading plus), or the
 * reason it is refused: every other form needs a guess.
 */
export function readNumberText(value: string): { readonly text: string } | { readonly reason?: string } {
  let text = value.trim();
  if (text.startsWith('+') && !text.startsWith('+-') && !text.startsWith('++')) text = text.slice(1);
  if (JSON_NUMBER.test(text)) return { text };
  if (/^[+-]?(nan|inf|infinity)$/i.test(text))
    return { reason: 'NaN and Infinity are not numbers a tool can use; send a finite number' };
  if (/^[+-]?0[xob][0-9a-f_]+$/i.test(text))
    return { reason: 'it has a radix prefix (0x, 0o, 0b); send the number in decimal digits' };
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text))
    return {
      reason:
        'it has a thousands separator, which could also be a decimal comma; send digits only, with a dot for decimals',
    };
  if (/^[+-]?\d+,\d+$/.test(text))
    return {
      reason:
        'it has a decimal comma, which could also be a thousands separator; send digits only, with a dot for decimals',
    };
  // A currency sign ($, € \u20ac, £ \u00a3, ¥ \u00a5: escapes, so core's bundle stays ASCII) or code.
  if (
    /^[+-]?[$\u20ac\u00a3\u00a5]\s*[\d.,]+$|^[+-]?[\d.,]+\s*[$\u20ac\u00a3\u00a5%]$|^[+-]?[\d.,]+\s*[A-Z]{3}$/.test(
      text,
    )
  )
    return { reason: 'it has a currency or percent sign; send the bare number in the unit the parameter describes' };
  return {};
}

/** The canonical test of a number: finite (JSON has no NaN or Infinity). */
export const isFiniteNumber = Number.isFinite as (value: unknown) => value is number;

/** The repair: number text in JSON's grammar (`string-to-number`). */
export function toFloat(value: unknown, coerce: boolean): RuleOutcome {
  if (isUnsafeIntegerLiteral(value)) return refuse(BEYOND_2_53);
  if (typeof value === 'number') return Number.isFinite(value) ? KEEP(value) : REFUSED;
  if (coerce && typeof value === 'string') {
    const read = readNumberText(value);
    if (!('text' in read)) return read.reason ? refuse(read.reason) : REFUSED;
    const number = Number(read.text);
    if (INTEGER_FORM.test(read.text) && !Number.isSafeInteger(number)) return refuse(BEYOND_2_53);
    return Number.isFinite(number) ? CHANGED(number, 'string-to-number') : refuse('it is out of range');
  }
  return REFUSED;
}

/**
 * Whether a number (a value, an array's item count, a string's counted length) lies within inclusive bounds
 * (`undefined`: none): the `minimum`, `maximum`, `minItems`, `maxItems` rules (`NaN` lies within a stated bound never).
 */
export function numberWithin(value: number, minimum: number | undefined, maximum: number | undefined): boolean {
  return (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum);
}

/** `exclusiveMinimum`. */
export function aboveExclusive(value: number, bound: number): boolean {
  return value > bound;
}

/** `exclusiveMaximum`. */
export function belowExclusive(value: number, bound: number): boolean {
  return value < bound;
}

/** `multipleOf`: an integral multiple of `divisor`, tolerant of binary floating point (0.3 is a multiple of 0.1). */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (divisor <= 0 || !Number.isFinite(value)) return false;
  const quotient = value / divisor;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9 * Math.max(1, Math.abs(quotient));
}

/** Every numeric bound of a node at once (conformance, the reference path's decorators read the same functions). */
export function withinBounds(value: number, bounds: NumericBounds): boolean {
  return (
    numberWithin(value, bounds.minimum, bounds.maximum) &&
    (bounds.exclusiveMinimum === undefined || aboveExclusive(value, bounds.exclusiveMinimum)) &&
    (bounds.exclusiveMaximum === undefined || belowExclusive(value, bounds.exclusiveMaximum)) &&
    (bounds.multipleOf === undefined || isMultipleOf(value, bounds.multipleOf))
  );
}

/** The kind's edge cases (for a number parameter without bounds): -0, 2^53 +-1, exponents, and what JSON lacks. */
export function numberEdgeCases(): LabelledValue[] {
  return [
    valid(0, 'zero'),
    valid(-0, 'negative zero'),
    valid(1.5, 'a fraction'),
    valid(1e300, 'a large exponent'),
    valid(5e-324, 'the smallest subnormal'),
    valid(Number.MAX_SAFE_INTEGER, '2^53 - 1'),
    valid(-Number.MAX_SAFE_INTEGER, '-(2^53 - 1)'),
    valid(2 ** 53, '2^53 as a number value'),
    invalid(Number.NaN, 'NaN'),
    invalid(Number.POSITIVE_INFINITY, 'Infinity'),
    invalid('1.5', 'number text (safe repairs)'),
    invalid('1e3', 'an exponent as text (safe repairs)'),
    invalid('0x10', 'a radix prefix'),
    invalid('1,000', 'a thousands separator'),
    invalid(true, 'a boolean'),
    invalid(null, 'null'),
  ];
}
