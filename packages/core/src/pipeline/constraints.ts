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

/** One constraint of a schema node: the issue rule it reports, and the check of a normalized value. */
export type ConstraintCheck = readonly [rule: string, check: (value: unknown) => boolean];

/** The constraint checks of one schema node, the same rules class-validator applies on the reference path. */
export function constraintChecks(schema: ParamSchema): ConstraintCheck[] {
  const checks: ConstraintCheck[] = [];
  switch (schema.kind) {
    case 'string': {
      const { minLength: minimumLength, maxLength: maximumLength, pattern } = schema;
      if (minimumLength !== undefined)
        checks.push(['minLength', (value) => classValidatorMinLength(value, minimumLength)]);
      if (maximumLength !== undefined)
        checks.push(['maxLength', (value) => classValidatorMaxLength(value, maximumLength)]);
      if (pattern !== undefined) {
        const expression = compilePattern(pattern);
        checks.push(['pattern', (value) => expression.test(value as string)]);
      }
      break;
    }
    case 'int':
    case 'float': {
      const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
      if (minimum !== undefined) checks.push(['minimum', (value) => (value as number) >= minimum]);
      if (maximum !== undefined) checks.push(['maximum', (value) => (value as number) <= maximum]);
      if (exclusiveMinimum !== undefined)
        checks.push(['exclusiveMinimum', (value) => (value as number) > exclusiveMinimum]);
      if (exclusiveMaximum !== undefined)
        checks.push(['exclusiveMaximum', (value) => (value as number) < exclusiveMaximum]);
      if (multipleOf !== undefined) checks.push(['multipleOf', (value) => isMultipleOf(value as number, multipleOf)]);
      break;
    }
    case 'array': {
      const { minItems, maxItems, uniqueItems } = schema;
      if (minItems !== undefined) checks.push(['minItems', (value) => (value as unknown[]).length >= minItems]);
      if (maxItems !== undefined) checks.push(['maxItems', (value) => (value as unknown[]).length <= maxItems]);
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
