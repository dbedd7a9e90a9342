import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { EMPTY_DTO_SENTINEL } from '../metadata/constants';
import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { ClassThunk } from '../types/param-options';
import { ExclusiveMaximum, ExclusiveMinimum, IsDateOnlyString, IsOffsetDateTimeString, MatchesPattern, MatchesSchema, MultipleOf } from './constraints';
import { canonicalJson, compilePattern, isDateOnly, isOffsetDateTime } from '../schema/value-checks';

/** What a property's class-validator and class-transformer decorators are derived from. */
export interface ValidationPlan {
  readonly schema: ParamSchema;
  readonly required: boolean;
  /** The property is typed `Date`: a valid date / date-time string is turned into a `Date` before validation. */
  readonly convertToDate?: boolean;
  /** The class a nested object is validated as (`ValidateNested` + `Type`), or `undefined` to check it structurally. */
  readonly nestedClass: (schema: ObjectSchema) => ClassThunk | undefined;
}

const SCALAR_KINDS = new Set<ParamSchema['kind']>(['string', 'int', 'float', 'bool', 'date', 'datetime']);

/**
 * Lets a DTO without parameters pass class-validator's `forbidUnknownValues` (which refuses an instance of a class
 * that has no rule at all), so `{}` validates as it should. Idempotent.
 */
export function allowEmptyDto(dto: Function): void {
  if (markedEmpty.has(dto)) return;
  markedEmpty.add(dto);
  Allow()(dto.prototype as object, EMPTY_DTO_SENTINEL);
}

const markedEmpty = new WeakSet<Function>();

/** Applies decorators to one property, as Nest's `applyDecorators` does. */
export function applyPropertyDecorators(prototype: object, propertyName: string, decorators: readonly PropertyDecorator[]): void {
  for (const decorator of decorators) decorator(prototype, propertyName);
}

/**
 * The class-validator / class-transformer decorators that enforce a property's schema, so plain
 * `plainToInstance` + `validate` (with whitelist, forbidNonWhitelisted, forbidUnknownValues) accepts and rejects the
 * same values as the IR says.
 */
export function validationDecorators(plan: ValidationPlan): PropertyDecorator[] {
  const decorators: PropertyDecorator[] = [];
  const { schema } = plan;
  if (!plan.required) {
    // Absent and null both mean "not given" for an optional parameter.
    decorators.push(IsOptional());
  } else {
    // One conditional rule per property also shadows an ancestor's IsOptional / ValidateIf on an overridden property.
    decorators.push(schema.nullable === true ? ValidateIf((_object: unknown, value: unknown) => value !== null) : ValidateIf(() => true));
    decorators.push(IsDefined());
  }
  if (plan.convertToDate === true && (schema.kind === 'date' || schema.kind === 'datetime')) {
    const isValid = schema.kind === 'date' ? isDateOnly : isOffsetDateTime;
    decorators.push(Transform(({ value }) => (isValid(value) ? new Date(value) : value), { toClassOnly: true }));
  }
  decorators.push(...valueDecorators(schema, false, plan));
  return decorators;
}

function isSimpleElement(schema: ParamSchema, plan: ValidationPlan): boolean {
  if (schema.nullable === true) return false;
  if (SCALAR_KINDS.has(schema.kind)) return true;
  return schema.kind === 'object' && plan.nestedClass(schema) !== undefined && schema.enum === undefined;
}

function valueDecorators(schema: ParamSchema, each: boolean, plan: ValidationPlan): PropertyDecorator[] {
  const options: ValidationOptions | undefined = each ? { each: true } : undefined;
  const decorators: PropertyDecorator[] = [];
  const acceptDates = plan.convertToDate === true && !each;
  switch (schema.kind) {
    case 'string':
      decorators.push(IsString(options));
      if (schema.minLength !== undefined) decorators.push(MinLength(schema.minLength, options));
      if (schema.maxLength !== undefined) decorators.push(MaxLength(schema.maxLength, options));
      if (schema.pattern !== undefined) decorators.push(MatchesPattern(compilePattern(schema.pattern), options));
      break;
    case 'int':
    case 'float':
      decorators.push(schema.kind === 'int' ? IsInt(options) : IsNumber({ allowNaN: false, allowInfinity: false }, options));
      if (schema.minimum !== undefined) decorators.push(Min(schema.minimum, options));
      if (schema.maximum !== undefined) decorators.push(Max(schema.maximum, options));
      if (schema.exclusiveMinimum !== undefined) decorators.push(ExclusiveMinimum(schema.exclusiveMinimum, options));
      if (schema.exclusiveMaximum !== undefined) decorators.push(ExclusiveMaximum(schema.exclusiveMaximum, options));
      if (schema.multipleOf !== undefined) decorators.push(MultipleOf(schema.multipleOf, options));
      break;
    case 'bool':
      decorators.push(IsBoolean(options));
      break;
    case 'date':
      decorators.push(IsDateOnlyString(acceptDates, options));
      break;
    case 'datetime':
      decorators.push(IsOffsetDateTimeString(acceptDates, options));
      break;
    case 'object': {
      const nested = schema.enum === undefined ? plan.nestedClass(schema) : undefined;
      decorators.push(IsObject(options));
      if (nested !== undefined) {
        decorators.push(ValidateNested(options), Type(nested));
      } else if (schema.properties.length > 0 || schema.additionalProperties !== true || schema.enum !== undefined) {
        decorators.push(MatchesSchema(schema, options));
      }
      return decorators;
    }
    case 'array':
      decorators.push(IsArray(options));
      if (each) {
        decorators.push(MatchesSchema(schema, options));
        return decorators;
      }
      if (schema.minItems !== undefined) decorators.push(ArrayMinSize(schema.minItems));
      if (schema.maxItems !== undefined) decorators.push(ArrayMaxSize(schema.maxItems));
      if (schema.uniqueItems === true) decorators.push(ArrayUnique(canonicalJson));
      if (schema.enum !== undefined) decorators.push(MatchesSchema(schema));
      if (isSimpleElement(schema.items, plan)) decorators.push(...valueDecorators(schema.items, true, plan));
      else if (schema.items.kind !== 'any') decorators.push(MatchesSchema(schema.items, { each: true }));
      return decorators;
    case 'union':
      decorators.push(MatchesSchema(schema, options));
      return decorators;
    case 'any':
      return decorators;
  }
  // A property typed `Date` holds a Date by now, which an enum of strings cannot match: the enum stays in the IR only.
  if (schema.enum !== undefined && !acceptDates) decorators.push(IsIn([...schema.enum], options));
  return decorators;
}
