import { maxLength as classValidatorMaxLength, minLength as classValidatorMinLength } from 'class-validator';
import { canonicalJson, compilePattern } from '../schema/value-checks';
import { jsonEquals } from '../schema/json-equals';
import { isMultipleOf } from '../schema/conformance';
import type { ParamSchema } from '../types/schema';

/**
 * Compiled constraint validation, the second half of step 4 on the compiled path (the normalizer is the first): every
 * IR constraint (lengths, bounds, patterns, item counts, uniqueness, enums of containers), checked on a normalized value.
 */

/**
 * What a compiled normalizer checks besides types: `'types'` (the reference path, where class-validator then checks
 * bounds, lengths, patterns and item counts) or `'all'` (the compiled path: every IR constraint, in the same pass).
 */
export type ConstraintMode = 'types' | 'all';

/**
 * One constraint of a schema node: the issue rule it reports and the check of a normalized value. Each rule is defined
 * here once: the normalizer's refusal and the canonical check's acceptance (`compile/canonical-check.ts` calls `check`)
 * both come from this record.
 */
export type ConstraintCheck = readonly [rule: string, check: (value: unknown) => boolean];

/** The comparison rules of numbers, bounds and item counts: the operator a value must satisfy against its limit. */
const COMPARISONS = {
  minimum: '>=',
  maximum: '<=',
  exclusiveMinimum: '>',
  exclusiveMaximum: '<',
} as const;

type Operator = (typeof COMPARISONS)[keyof typeof COMPARISONS];

/** `operator` as a function (the one place each operator is evaluated). */
function holds(operator: Operator, value: number, limit: number): boolean {
  switch (operator) {
    case '>=':
      return value >= limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '<':
      return value < limit;
  }
}

/** A comparison rule: `read(value) operator limit`. */
function comparison(
  rule: string,
  operator: Operator,
  limit: number,
  read: (value: unknown) => number,
): ConstraintCheck {
  return [rule, (value: unknown) => holds(operator, read(value), limit)];
}

const asNumber = (value: unknown) => value as number;
const itemCount = (value: unknown) => (value as unknown[]).length;

/**
 * Whether a string's length as class-validator counts it (validator.js `isLength`: code points, presentation selectors
 * not counted) lies within the bounds: the `minLength` and `maxLength` rules. That count is at most `.length`, and at
 * least the number of code units below U+D800 (each of those is one character; only units from U+D800 up are merged
 * or dropped). So a string no longer than the maximum is within it, and one with `minimum` units below U+D800 (found
 * from the start, stopping there) reaches the minimum: long strings are not read to the end. Anything else takes the
 * exact count.
 */
export function lengthWithin(value: string, minimum: number | undefined, maximum: number | undefined): boolean {
  if (maximum === undefined || value.length <= maximum) {
    if (minimum === undefined) return true;
    let plain = 0;
    for (let index = 0; index < value.length && plain < minimum; index++) if (value.charCodeAt(index) < 0xd800) plain++;
    if (plain >= minimum) return true;
  }
  return exactLengthWithin(value, minimum, maximum);
}

/** The exact count: `.length` when every code unit is below U+D800, else class-validator itself. */
function exactLengthWithin(value: string, minimum: number | undefined, maximum: number | undefined): boolean {
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) >= 0xd800) {
      return (
        (minimum === undefined || classValidatorMinLength(value, minimum)) &&
        (maximum === undefined || classValidatorMaxLength(value, maximum))
      );
    }
  }
  return (minimum === undefined || value.length >= minimum) && (maximum === undefined || value.length <= maximum);
}

/** The constraint checks of one schema node, the same rules class-validator applies on the reference path. */
export function constraintChecks(schema: ParamSchema): ConstraintCheck[] {
  const checks: ConstraintCheck[] = [];
  switch (schema.kind) {
    case 'string': {
      const { minLength: minimumLength, maxLength: maximumLength, pattern } = schema;
      if (minimumLength !== undefined)
        checks.push(['minLength', (value) => lengthWithin(value as string, minimumLength, undefined)]);
      if (maximumLength !== undefined)
        checks.push(['maxLength', (value) => lengthWithin(value as string, undefined, maximumLength)]);
      if (pattern !== undefined) {
        const expression = compilePattern(pattern);
        checks.push(['pattern', (value) => expression.test(value as string)]);
      }
      break;
    }
    case 'int':
    case 'float': {
      for (const rule of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
        const limit = schema[rule];
        if (limit !== undefined) checks.push(comparison(rule, COMPARISONS[rule], limit, asNumber));
      }
      const { multipleOf } = schema;
      if (multipleOf !== undefined) checks.push(['multipleOf', (value) => isMultipleOf(value as number, multipleOf)]);
      break;
    }
    case 'array': {
      const { minItems, maxItems, uniqueItems } = schema;
      if (minItems !== undefined) checks.push(comparison('minItems', '>=', minItems, itemCount));
      if (maxItems !== undefined) checks.push(comparison('maxItems', '<=', maxItems, itemCount));
      if (uniqueItems === true)
        checks.push([
          'uniqueItems',
          (value) => new Set((value as unknown[]).map(canonicalJson)).size === (value as unknown[]).length,
        ]);
      if (schema.enum !== undefined)
        checks.push(['enum', (value) => schema.enum!.some((allowed) => jsonEquals(allowed, value))]);
      break;
    }
    case 'object':
    case 'union':
    case 'any':
      if (schema.enum !== undefined)
        checks.push(['enum', (value) => schema.enum!.some((allowed) => jsonEquals(allowed, value))]);
      break;
    default:
      break;
  }
  return checks;
}
