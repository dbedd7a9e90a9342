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
  getMetadataStorage,
  type MetadataStorage,
  type ValidationOptions,
} from 'class-validator';
import { EMPTY_DTO_SENTINEL } from '../metadata/constants';
import { markSharedConstraintClass } from '../metadata/release-class-metadata';
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

type ClassValidatorRule = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** Holds one rule per template key: the rule `sharedRule` copies (never validated: nothing is an instance of it). */
class SharedRuleTemplates {}

const ruleTemplates = new Map<string, ClassValidatorRule>();

/**
 * A class-validator rule applied as `make()` would apply it, with one constraint class for every use of the same
 * key. class-validator's `ValidateBy` decorators (every built-in since 0.14, and toolwright's own constraints)
 * create a constraint class per use: 1,000 commands made about 9,000 classes (most of registration's time and a
 * third of its memory). The first use of a key applies `make()` to a private template class, which gives the
 * key's constraint class; every use then stores the rule `registerDecorator` would store (same type, name, options
 * and constraints) with that constraint class. Exact for a key whose validator reads only `args.constraints` and
 * the options the key names (`each`, which class-validator's messages read): true of every key used here.
 */
function sharedRule(
  key: string,
  constraints: readonly unknown[] | undefined,
  options: ValidationOptions | undefined,
  make: () => PropertyDecorator,
): PropertyDecorator {
  return (prototype: object, propertyName: string | symbol) => {
    const template = ruleTemplates.get(key) ?? templateOf(key, make);
    // What class-validator's `registerDecorator` stores, with the template's constraint class.
    const RuleClass = template.constructor as new (args: ValidationMetadataArgs) => ClassValidatorRule;
    getMetadataStorage().addValidationMetadata(
      new RuleClass({
        type: template.type,
        name: template.name,
        target: (prototype as { constructor: Function }).constructor,
        propertyName: propertyName as string,
        validationOptions: options,
        constraintCls: template.constraintCls,
        constraints: constraints === undefined ? template.constraints : [...constraints],
      }),
    );
  };
}

/** The arguments of class-validator's `ValidationMetadata` constructor that `registerDecorator` passes. */
interface ValidationMetadataArgs {
  readonly type: string;
  readonly name?: string;
  readonly target: Function;
  readonly propertyName: string;
  readonly validationOptions?: ValidationOptions;
  readonly constraintCls?: Function;
  readonly constraints?: unknown[];
}

function templateOf(key: string, make: () => PropertyDecorator): ClassValidatorRule {
  make()(SharedRuleTemplates.prototype, key);
  const template = getMetadataStorage()
    .getTargetValidationMetadatas(SharedRuleTemplates, '', true, false)
    .find((rule) => rule.propertyName === key);
  if (template === undefined) throw new TypeError(`class-validator stored no rule for the shared rule "${key}": this class-validator version is not supported.`);
  if (typeof template.constraintCls === 'function') markSharedConstraintClass(template.constraintCls);
  ruleTemplates.set(key, template);
  return template;
}

/** The template key of a rule kind with these options: `each` changes the message (class-validator's `buildMessage`). */
function ruleKey(name: string, options: ValidationOptions | undefined): string {
  return options?.each === true ? `${name}:each` : name;
}

function matchesSchema(schema: ParamSchema, options: ValidationOptions | undefined): PropertyDecorator {
  return sharedRule(ruleKey('matchesSchema', options), [schema], options, () => MatchesSchema(schema, options));
}

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
    decorators.push(sharedRule('isDefined', undefined, undefined, () => IsDefined()));
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
      decorators.push(sharedRule(ruleKey('isString', options), undefined, options, () => IsString(options)));
      if (schema.minLength !== undefined) decorators.push(sharedRule(ruleKey('minLength', options), [schema.minLength], options, () => MinLength(0, options)));
      if (schema.maxLength !== undefined) decorators.push(sharedRule(ruleKey('maxLength', options), [schema.maxLength], options, () => MaxLength(0, options)));
      if (schema.pattern !== undefined) decorators.push(MatchesPattern(compilePattern(schema.pattern), options));
      break;
    case 'int':
    case 'float':
      decorators.push(
        schema.kind === 'int'
          ? sharedRule(ruleKey('isInt', options), undefined, options, () => IsInt(options))
          : sharedRule(ruleKey('isNumber', options), [{ allowNaN: false, allowInfinity: false }], options, () => IsNumber({}, options)),
      );
      if (schema.minimum !== undefined) decorators.push(sharedRule(ruleKey('min', options), [schema.minimum], options, () => Min(0, options)));
      if (schema.maximum !== undefined) decorators.push(sharedRule(ruleKey('max', options), [schema.maximum], options, () => Max(0, options)));
      if (schema.exclusiveMinimum !== undefined) decorators.push(sharedRule(ruleKey('exclusiveMinimum', options), [schema.exclusiveMinimum], options, () => ExclusiveMinimum(0, options)));
      if (schema.exclusiveMaximum !== undefined) decorators.push(sharedRule(ruleKey('exclusiveMaximum', options), [schema.exclusiveMaximum], options, () => ExclusiveMaximum(0, options)));
      if (schema.multipleOf !== undefined) decorators.push(sharedRule(ruleKey('multipleOf', options), [schema.multipleOf], options, () => MultipleOf(1, options)));
      break;
    case 'bool':
      decorators.push(sharedRule(ruleKey('isBoolean', options), undefined, options, () => IsBoolean(options)));
      break;
    case 'date':
      decorators.push(sharedRule(ruleKey(acceptDates ? 'isDateOnly:dates' : 'isDateOnly', options), undefined, options, () => IsDateOnlyString(acceptDates, options)));
      break;
    case 'datetime':
      decorators.push(sharedRule(ruleKey(acceptDates ? 'isOffsetDateTime:dates' : 'isOffsetDateTime', options), undefined, options, () => IsOffsetDateTimeString(acceptDates, options)));
      break;
    case 'object': {
      const nested = schema.enum === undefined ? plan.nestedClass(schema) : undefined;
      decorators.push(sharedRule(ruleKey('isObject', options), undefined, options, () => IsObject(options)));
      if (nested !== undefined) {
        decorators.push(ValidateNested(options), Type(nested));
      } else if (schema.properties.length > 0 || schema.additionalProperties !== true || schema.enum !== undefined) {
        decorators.push(matchesSchema(schema, options));
      }
      return decorators;
    }
    case 'array':
      decorators.push(sharedRule(ruleKey('isArray', options), undefined, options, () => IsArray(options)));
      if (each) {
        decorators.push(matchesSchema(schema, options));
        return decorators;
      }
      if (schema.minItems !== undefined) decorators.push(sharedRule('arrayMinSize', [schema.minItems], undefined, () => ArrayMinSize(0)));
      if (schema.maxItems !== undefined) decorators.push(sharedRule('arrayMaxSize', [schema.maxItems], undefined, () => ArrayMaxSize(0)));
      if (schema.uniqueItems === true) decorators.push(sharedRule('arrayUnique', undefined, undefined, () => ArrayUnique(canonicalJson)));
      if (schema.enum !== undefined) decorators.push(matchesSchema(schema, undefined));
      if (isSimpleElement(schema.items, plan)) decorators.push(...valueDecorators(schema.items, true, plan));
      else if (schema.items.kind !== 'any') decorators.push(matchesSchema(schema.items, { each: true }));
      return decorators;
    case 'union':
      decorators.push(matchesSchema(schema, options));
      return decorators;
    case 'any':
      return decorators;
  }
  // A property typed `Date` holds a Date by now, which an enum of strings cannot match: the enum stays in the IR only.
  if (schema.enum !== undefined && !acceptDates) decorators.push(sharedRule(ruleKey('isIn', options), [[...schema.enum]], options, () => IsIn([], options)));
  return decorators;
}
