import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import type { ParamSchema } from '../types/schema';
import { conformsTo, describeSchema, isMultipleOf } from '../schema/conformance';
import { compilePattern, isDateOnly, isOffsetDateTime } from '../schema/value-checks';

/**
 * Custom class-validator constraints for the rules class-validator has no decorator for. Their names are the
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
    (value, args) => typeof value === 'number' && value > (args.constraints[0] as number),
    (args) => `${args.property} must be greater than ${String(args.constraints[0])}`,
    options,
  );
}

export function ExclusiveMaximum(bound: number, options?: ValidationOptions): PropertyDecorator {
  return constraint(
    TOOLWRIGHT_CONSTRAINTS.exclusiveMaximum,
    [bound],
    (value, args) => typeof value === 'number' && value < (args.constraints[0] as number),
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
