import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import type { LengthCount, ParamSchema } from '../types/schema';
import { conformsTo, describeSchema } from '../schema/conformance';
import { compilePattern } from '../schema/value-checks';
import { isDateOnly } from '../rules/date';
import { isOffsetDateTime } from '../rules/date-time';
import { aboveExclusive, belowExclusive, isFiniteNumber, isMultipleOf, numberWithin } from '../rules/number';
import { isInteger } from '../rules/integer';
import { isMember } from '../rules/enum';
import { lengthWithin } from '../rules/string';
import { formatHolds, formatRule } from '../rules/format';

/**
 * Custom class-validator constraints for the reference path: each calls its kind's one definition in `rules/` (a
 * length by the node's count, bounds, dates, date-times, formats), so class-validator decides nothing of its own for a
 * rule the IR states. Their names are the
 * constraint keys a `ValidationError` carries. Validators and messages read the bound from `args.constraints`
 * (not from the decorator's arguments), so one constraint class serves every use (see `sharedRule`).
 */
export const TOOLWRIGHT_CONSTRAINTS = {
  dateOnly: 'isDateOnly',
  offsetDateTime: 'isOffsetDateTime',
  exclusiveMinimum: 'exclusiveMinimum',
  exclusiveMaximum: 'exclusiveMaximum',
  multipleOf: 'multipleOf',
  matchesSchema: 'matchesSchema',
  minLength: 'minLength',
  maxLength: 'maxLength',
  format: 'isFormat',
} as const;

function each(options: ValidationOptions | undefined): string {
  return options?.each === true ? 'each value in ' : '';
}

function constraint(
  name: string,
  constraints: readonly unknown[],
  validate: (value: unknown, args: ValidationArguments) => boolean,
  message: (args: ValidationArguments) => string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [...constraints],
      options: { ...options },
      validator: { validate, defaultMessage: (args) => `${each(options)}${message(args as ValidationArguments)}` },
    });
  };
}

/**
 * A calendar date `YYYY-MM-DD`. With `acceptDates`, a valid `Date` instance also passes (the property is typed `Date`
 * and a transform converted the validated string).
 */
export function IsDateOnlyString(acceptDates: boolean, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.dateOnly,
    [],
    (value) => isDateOnly(value) || (acceptDates && value instanceof Date && !Number.isNaN(value.getTime())),
    (args) => `${args.property} must be a date in the form YYYY-MM-DD, e.g. 2026-11-21`,
    options,
  );
}

/** An ISO-8601 date-time with a UTC offset (see `isOffsetDateTime`); `acceptDates` as for `IsDateOnlyString`. */
export function IsOffsetDateTimeString(acceptDates: boolean, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.offsetDateTime,
    [],
    (value) => isOffsetDateTime(value) || (acceptDates && value instanceof Date && !Number.isNaN(value.getTime())),
    (args) => `${args.property} must be an ISO-8601 date-time with a UTC offset, e.g. 2026-11-21T09:00:00+01:00`,
    options,
  );
}

export function ExclusiveMinimum(bound: number, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.exclusiveMinimum,
    [bound],
    (value, args) => typeof value === 'number' && aboveExclusive(value, args.constraints[0] as number),
    (args) => `${args.property} must be greater than ${String(args.constraints[0])}`,
    options,
  );
}

export function ExclusiveMaximum(bound: number, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.exclusiveMaximum,
    [bound],
    (value, args) => typeof value === 'number' && belowExclusive(value, args.constraints[0] as number),
    (args) => `${args.property} must be less than ${String(args.constraints[0])}`,
    options,
  );
}

export function MultipleOf(divisor: number, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.multipleOf,
    [divisor],
    (value, args) => typeof value === 'number' && isMultipleOf(value, args.constraints[0] as number),
    (args) => `${args.property} must be a multiple of ${String(args.constraints[0])}`,
    options,
  );
}

/**
 * A string's length against one bound (`minLength` or `maxLength`, the same constraint names as class-validator's),
 * counted as the node's source means it (`rules/string.ts`): `count` is fixed per decorator, the bound is the
 * constraint.
 */
export function LengthBound(
  which: 'minLength' | 'maxLength',
  count: LengthCount,
  options?: ValidationOptions,
): PropertyDecorator {
  return constraint(
    which,
    [0],
    (value, args) =>
      typeof value === 'string' &&
      (which === 'minLength'
        ? lengthWithin(value, args.constraints[0] as number, undefined, count)
        : lengthWithin(value, undefined, args.constraints[0] as number, count)),
    (args) =>
      `${args.property} must be ${which === 'minLength' ? 'longer than or equal to' : 'shorter than or equal to'} ${String(args.constraints[0])} characters`,
    options,
  );
}

/**
 * An inclusive numeric bound (`min` or `max`, class-validator's constraint names, so issues keep their rule): the
 * number kind's `numberWithin`.
 */
export function NumberBound(which: 'min' | 'max', options?: ValidationOptions): PropertyDecorator {
  return constraint(
    which,
    [0],
    (value, args) =>
      isFiniteNumber(value) &&
      (which === 'min'
        ? numberWithin(value, args.constraints[0] as number, undefined)
        : numberWithin(value, undefined, args.constraints[0] as number)),
    (args) =>
      `${args.property} must not be ${which === 'min' ? 'less' : 'greater'} than ${String(args.constraints[0])}`,
    options,
  );
}

/** An integer (`isInt`, class-validator's constraint name): the integer kind's `isInteger` (a safe integer). */
export function IsIntegerValue(options?: ValidationOptions): PropertyDecorator {
  return constraint(
    'isInt',
    [],
    (value) => isInteger(value),
    (args) => `${args.property} must be an integer number`,
    options,
  );
}

/** One of the allowed values (`isIn`, class-validator's constraint name): the enum rule's `isMember`. */
export function IsMemberOf(options?: ValidationOptions): PropertyDecorator {
  return constraint(
    'isIn',
    [[]],
    (value, args) => isMember(args.constraints[0] as readonly unknown[], value),
    (args) => `${args.property} must be one of the following values: ${(args.constraints[0] as unknown[]).join(', ')}`,
    options,
  );
}

/** A string in a format toolwright enforces (`rules/format/`), by the format's name (the constraint). */
export function HasFormat(options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.format,
    ['email'],
    (value, args) => typeof value === 'string' && formatHolds(args.constraints[0] as string, value),
    (args) =>
      `${args.property} must be ${formatRule(args.constraints[0] as string)?.description ?? `in ${String(args.constraints[0])} format`}`,
    options,
  );
}

/**
 * class-validator's `Matches` (same constraint name, `matches`, and the pattern source as its constraint), run on the
 * linear-time pattern engine: class-validator's own would turn any pattern object into a backtracking RegExp. The
 * matcher is the pattern engine's for the source in `args.constraints` (compiled once and cached there).
 */
export function MatchesPattern(pattern: string, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    'matches',
    [pattern],
    (value, args) => typeof value === 'string' && compilePattern(args.constraints[0] as string).test(value),
    (args) => `${args.property} must match /${String(args.constraints[0])}/`,
    options,
  );
}

/** The value must conform to an IR schema (unions, arrays of arrays, nullable elements, open objects). */
export function MatchesSchema(schema: ParamSchema, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.matchesSchema,
    [schema],
    (value, args) => conformsTo(value, args.constraints[0] as ParamSchema),
    (args) => `${args.property} must be ${describeSchema(args.constraints[0] as ParamSchema)}`,
    options,
  );
}
