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
import { ownRules } from '../metadata/validator-metadata';
import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { ClassThunk } from '../types/param-options';
import {
  ExclusiveMaximum,
  ExclusiveMinimum,
  IsDateOnlyString,
  IsOffsetDateTimeString,
  MatchesPattern,
  MatchesSchema,
  MultipleOf,
} from './constraints';
import { canonicalJson, compilePattern, isDateOnly, isOffsetDateTime } from '../schema/value-checks';

/** What a property's class-validator and class-transformer decorators are derived from. */
export interface ValidationPlan {
  readonly schema: ParamSchema;
  readonly required: boolean;
  /** The property is typed `Date`: a valid date / date-time string is turned into a `Date` before validation. */
  readonly convertToDate?: boolean;
  /**
   * The class has ancestors whose class-validator rules it inherits (a decorated DTO that extends another class): a
   * required property then gets a conditional rule that shadows an ancestor's `IsOptional` / `ValidateIf`.
   */
  readonly inherits: boolean;
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

/** Makes the rule of one kind for one property: its own fields are only the target, the property and the constraints. */
type SharedRuleConstructor = new (target: Function, propertyName: string, constraints: unknown) => ClassValidatorRule;

/** The rule constructor of each rule kind, without and with `each` (class-validator's messages read `each`). */
const ruleConstructors = new Map<string, SharedRuleConstructor>();
const eachRuleConstructors = new Map<string, SharedRuleConstructor>();

/**
 * A class-validator rule applied as `make()` would apply it, with one constraint class for every use of the same
 * kind. class-validator's `ValidateBy` decorators (every built-in since 0.14, and toolwright's own constraints)
 * create a constraint class per use: 1,000 commands made about 9,000 classes (most of registration's time and a
 * third of its memory). The first use of a kind applies `make()` to a private template class, which gives the
 * kind's rule: every use then stores a rule whose prototype holds the template's fields (type, name, constraint
 * class, options, message, groups: what every use of the kind shares) and whose own fields are the target, the
 * property and the constraints. class-validator only reads a rule's fields, so it sees the rule `registerDecorator`
 * would store (still an instance of its `ValidationMetadata`), at about half the memory and without building its
 * options objects for each use. Exact for a kind whose validator reads only `args.constraints` and `each` from its
 * options: true of every kind used here. `constraints` replaces the template's (`undefined`: the template's).
 */
function sharedRule(
  kind: string,
  each: boolean,
  constraints: unknown[] | undefined,
  make: () => PropertyDecorator,
): PropertyDecorator {
  return (prototype: object, propertyName: string | symbol) => {
    const constructors = each ? eachRuleConstructors : ruleConstructors;
    const Rule = constructors.get(kind) ?? ruleConstructorOf(constructors, kind, each, make);
    const target = (prototype as { constructor: Function }).constructor;
    getMetadataStorage().addValidationMetadata(
      new Rule(target, propertyName as string, constraints ?? Rule.prototype.constraints),
    );
  };
}

/**
 * What the rules toolwright applies share instead of a new array each (class-validator reads a rule's `groups` and
 * `constraints` and never changes them): frozen, so no one can change them for every rule at once.
 */
const NO_GROUPS = Object.freeze([]) as unknown as string[];

/** The `[bound]` constraints of a numeric rule, one frozen array per bound (at most 4,096 bounds kept). */
const boundConstraints = new Map<number, unknown[]>();

function boundOf(bound: number): unknown[] {
  // -0 and 0 are one Map key: -0 keeps an array of its own.
  if (Object.is(bound, -0)) return [bound];
  let constraints = boundConstraints.get(bound);
  if (constraints === undefined) {
    constraints = Object.freeze([bound]) as unknown as unknown[];
    if (boundConstraints.size < 4_096) boundConstraints.set(bound, constraints);
  }
  return constraints;
}

/** IsNumber's options as toolwright applies them (class-validator's isNumber only reads them). */
const FINITE_NUMBER = Object.freeze([Object.freeze({ allowNaN: false, allowInfinity: false })]) as unknown as unknown[];

/** The fields of a rule that are its own: everything else a use of a kind shares with the kind's template. */
const PER_USE_FIELDS = new Set(['target', 'propertyName', 'constraints']);

function ruleConstructorOf(
  constructors: Map<string, SharedRuleConstructor>,
  kind: string,
  each: boolean,
  make: () => PropertyDecorator,
): SharedRuleConstructor {
  const key = each ? `${kind}:each` : kind;
  make()(SharedRuleTemplates.prototype, key);
  const template = ownRules(getMetadataStorage(), SharedRuleTemplates).find((rule) => rule.propertyName === key);
  if (template === undefined)
    throw new TypeError(
      `class-validator stored no rule for the shared rule "${key}": this class-validator version is not supported.`,
    );
  if (typeof template.constraintCls === 'function') markSharedConstraintClass(template.constraintCls);
  // The shared fields, on a prototype that inherits class-validator's own (`instanceof ValidationMetadata` holds).
  const shared = Object.create(Object.getPrototypeOf(template) as object) as Record<string, unknown>;
  for (const [field, value] of Object.entries(template)) if (!PER_USE_FIELDS.has(field)) shared[field] = value;
  // Without options class-validator gives every rule a new empty `groups` array; it never changes one.
  if (Array.isArray(shared.groups) && shared.groups.length === 0) shared.groups = NO_GROUPS;
  shared.constraints = template.constraints;
  function SharedRule(this: Record<string, unknown>, target: Function, propertyName: string, constraints: unknown) {
    this.target = target;
    this.propertyName = propertyName;
    this.constraints = constraints;
  }
  SharedRule.prototype = shared;
  const Rule = SharedRule as unknown as SharedRuleConstructor;
  constructors.set(kind, Rule);
  return Rule;
}

/** IsOptional's condition: the value is given (class-validator passes `object[propertyName]` as the value). */
const valueIsGiven = (_object: unknown, value: unknown): boolean => value !== null && value !== undefined;
const valueIsNotNull = (_object: unknown, value: unknown): boolean => value !== null;
const always = (): boolean => true;
const VALUE_IS_GIVEN = Object.freeze([valueIsGiven]) as unknown as unknown[];

function matchesSchema(schema: ParamSchema, each: boolean): PropertyDecorator {
  return sharedRule('matchesSchema', each, [schema], () => MatchesSchema(schema, each ? { each: true } : undefined));
}

/** Applies decorators to one property, as Nest's `applyDecorators` does. */
export function applyPropertyDecorators(
  prototype: object,
  propertyName: string,
  decorators: readonly PropertyDecorator[],
): void {
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
    decorators.push(sharedRule('isOptional', false, VALUE_IS_GIVEN, () => IsOptional()));
  } else {
    // A conditional rule shadows an ancestor's IsOptional / ValidateIf on an overridden property (class-validator
    // keeps an ancestor's rule unless the class has one of the same type): one that always holds is needed only then.
    if (schema.nullable === true)
      decorators.push(sharedRule('validateIf:notNull', false, undefined, () => ValidateIf(valueIsNotNull)));
    else if (plan.inherits)
      decorators.push(sharedRule('validateIf:always', false, undefined, () => ValidateIf(always)));
    decorators.push(sharedRule('isDefined', false, undefined, () => IsDefined()));
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
      decorators.push(sharedRule('isString', each, undefined, () => IsString(options)));
      if (schema.minLength !== undefined)
        decorators.push(sharedRule('minLength', each, boundOf(schema.minLength), () => MinLength(0, options)));
      if (schema.maxLength !== undefined)
        decorators.push(sharedRule('maxLength', each, boundOf(schema.maxLength), () => MaxLength(0, options)));
      if (schema.pattern !== undefined) {
        // Compiled now: a pattern the engine refuses fails here (checkDtoSynthesis relies on it), not on a call.
        const pattern = compilePattern(schema.pattern).source;
        decorators.push(sharedRule('matches', each, [pattern], () => MatchesPattern('', options)));
      }
      break;
    case 'int':
    case 'float':
      decorators.push(
        schema.kind === 'int'
          ? sharedRule('isInt', each, undefined, () => IsInt(options))
          : sharedRule('isNumber', each, FINITE_NUMBER, () => IsNumber({}, options)),
      );
      if (schema.minimum !== undefined)
        decorators.push(sharedRule('min', each, boundOf(schema.minimum), () => Min(0, options)));
      if (schema.maximum !== undefined)
        decorators.push(sharedRule('max', each, boundOf(schema.maximum), () => Max(0, options)));
      if (schema.exclusiveMinimum !== undefined)
        decorators.push(
          sharedRule('exclusiveMinimum', each, boundOf(schema.exclusiveMinimum), () => ExclusiveMinimum(0, options)),
        );
      if (schema.exclusiveMaximum !== undefined)
        decorators.push(
          sharedRule('exclusiveMaximum', each, boundOf(schema.exclusiveMaximum), () => ExclusiveMaximum(0, options)),
        );
      if (schema.multipleOf !== undefined)
        decorators.push(sharedRule('multipleOf', each, boundOf(schema.multipleOf), () => MultipleOf(1, options)));
      break;
    case 'bool':
      decorators.push(sharedRule('isBoolean', each, undefined, () => IsBoolean(options)));
      break;
    case 'date':
      decorators.push(
        sharedRule(acceptDates ? 'isDateOnly:dates' : 'isDateOnly', each, undefined, () =>
          IsDateOnlyString(acceptDates, options),
        ),
      );
      break;
    case 'datetime':
      decorators.push(
        sharedRule(acceptDates ? 'isOffsetDateTime:dates' : 'isOffsetDateTime', each, undefined, () =>
          IsOffsetDateTimeString(acceptDates, options),
        ),
      );
      break;
    case 'object': {
      const nested = schema.enum === undefined ? plan.nestedClass(schema) : undefined;
      decorators.push(sharedRule('isObject', each, undefined, () => IsObject(options)));
      if (nested !== undefined) {
        decorators.push(
          sharedRule('validateNested', each, undefined, () => ValidateNested(options)),
          Type(nested),
        );
      } else if (schema.properties.length > 0 || schema.additionalProperties !== true || schema.enum !== undefined) {
        decorators.push(matchesSchema(schema, each));
      }
      return decorators;
    }
    case 'array':
      decorators.push(sharedRule('isArray', each, undefined, () => IsArray(options)));
      if (each) {
        decorators.push(matchesSchema(schema, each));
        return decorators;
      }
      if (schema.minItems !== undefined)
        decorators.push(sharedRule('arrayMinSize', false, boundOf(schema.minItems), () => ArrayMinSize(0)));
      if (schema.maxItems !== undefined)
        decorators.push(sharedRule('arrayMaxSize', false, boundOf(schema.maxItems), () => ArrayMaxSize(0)));
      if (schema.uniqueItems === true)
        decorators.push(sharedRule('arrayUnique', false, undefined, () => ArrayUnique(canonicalJson)));
      if (schema.enum !== undefined) decorators.push(matchesSchema(schema, false));
      if (isSimpleElement(schema.items, plan)) decorators.push(...valueDecorators(schema.items, true, plan));
      else if (schema.items.kind !== 'any') decorators.push(matchesSchema(schema.items, true));
      return decorators;
    case 'union':
      decorators.push(matchesSchema(schema, each));
      return decorators;
    case 'any':
      return decorators;
  }
  // A property typed `Date` holds a Date by now, which an enum of strings cannot match: the enum stays in the IR only.
  if (schema.enum !== undefined && !acceptDates)
    decorators.push(sharedRule('isIn', each, [[...schema.enum]], () => IsIn([], options)));
  return decorators;
}
