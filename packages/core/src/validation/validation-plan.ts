import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
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
  HasFormat,
  IsIntegerValue,
  IsMemberOf,
  LengthBound,
  NumberBound,
  IsDateOnlyString,
  IsOffsetDateTimeString,
  MatchesPattern,
  MatchesSchema,
  MultipleOf,
} from './constraints';
import { canonicalJson, compilePattern } from '../schema/value-checks';
import { isDateOnly } from '../rules/date';
import { isOffsetDateTime } from '../rules/date-time';

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

/**
 * One kind of class-validator rule toolwright applies (`isString`, `min`, ...): its key and how class-validator's own
 * decorator makes it (`make(options)`, options `{ each: true }` or none). Declared once per kind (the table below).
 */
interface RuleKind {
  readonly key: string;
  readonly make: (options: ValidationOptions | undefined) => PropertyDecorator;
  /**
   * The constraints every use of the kind has (`IsOptional`'s condition, `IsNumber`'s options), kept on the kind's
   * shared rule instead of on each rule; `undefined`: the template's, or each use gives its own.
   */
  readonly constraints: unknown[] | undefined;
  /** The kind's rule constructor without and with `each` (class-validator's messages read `each`), made on first use. */
  rule: SharedRuleConstructor | undefined;
  eachRule: SharedRuleConstructor | undefined;
}

/**
 * The rule of one kind for one property, as the kind's decorator would apply it, with one constraint class for every
 * use of the kind. class-validator's `ValidateBy` decorators (every built-in since 0.14, and toolwright's own
 * constraints) create a constraint class per use: 1,000 commands made about 9,000 classes (most of registration's time
 * and a third of its memory). The first use of a kind applies `make()` to a private template class, which gives the
 * kind's rule: every use then stores a rule whose prototype holds the template's fields (type, name, constraint
 * class, options, message, groups: what every use of the kind shares) and whose own fields are the target, the
 * property and the constraints. class-validator only reads a rule's fields, so it sees the rule `registerDecorator`
 * would store (still an instance of its `ValidationMetadata`), at about half the memory and without building its
 * options objects for each use. Exact for a kind whose validator reads only `args.constraints` and `each` from its
 * options: true of every kind used here. `constraints` replaces the template's (`undefined`: the template's, read
 * from the prototype, so such a rule's own fields are only the target and the property).
 */
function sharedRule(
  kind: RuleKind,
  each: boolean,
  target: Function,
  propertyName: string,
  constraints: unknown[] | undefined,
): ClassValidatorRule {
  const Rule = (each ? kind.eachRule : kind.rule) ?? ruleConstructorOf(kind, each);
  return new Rule(target, propertyName, constraints);
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

function ruleConstructorOf(kind: RuleKind, each: boolean): SharedRuleConstructor {
  const key = each ? `${kind.key}:each` : kind.key;
  kind.make(each ? { each: true } : undefined)(SharedRuleTemplates.prototype, key);
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
  shared.constraints = kind.constraints ?? template.constraints;
  // A rule without constraints of its own reads the template's from the prototype: 8 bytes less per rule, and most
  // rules (a type, presence, nesting) have none.
  function SharedRule(this: Record<string, unknown>, target: Function, propertyName: string, constraints: unknown) {
    this.target = target;
    this.propertyName = propertyName;
    if (constraints !== undefined) this.constraints = constraints;
  }
  SharedRule.prototype = shared;
  const Rule = SharedRule as unknown as SharedRuleConstructor;
  if (each) kind.eachRule = Rule;
  else kind.rule = Rule;
  return Rule;
}

/** IsOptional's condition: the value is given (class-validator passes `object[propertyName]` as the value). */
const valueIsGiven = (_object: unknown, value: unknown): boolean => value !== null && value !== undefined;
const valueIsNotNull = (_object: unknown, value: unknown): boolean => value !== null;
const always = (): boolean => true;
const VALUE_IS_GIVEN = Object.freeze([valueIsGiven]) as unknown as unknown[];

/** Every rule kind toolwright applies: one definition each (the key its shared rule constructor is kept under). */
const defineRuleKind = (key: string, make: RuleKind['make'], constraints?: unknown[]): RuleKind => ({
  key,
  make,
  constraints,
  rule: undefined,
  eachRule: undefined,
});
const IS_OPTIONAL = defineRuleKind('isOptional', () => IsOptional(), VALUE_IS_GIVEN);
const VALIDATE_IF_NOT_NULL = defineRuleKind('validateIf:notNull', () => ValidateIf(valueIsNotNull));
const VALIDATE_IF_ALWAYS = defineRuleKind('validateIf:always', () => ValidateIf(always));
const IS_DEFINED = defineRuleKind('isDefined', () => IsDefined());
const IS_STRING = defineRuleKind('isString', (options) => IsString(options));
const MIN_LENGTH = defineRuleKind('minLength', (options) => LengthBound('minLength', 'code-points', options));
const MAX_LENGTH = defineRuleKind('maxLength', (options) => LengthBound('maxLength', 'code-points', options));
const MIN_LENGTH_CLASS_VALIDATOR = defineRuleKind('minLength:class-validator', (options) =>
  LengthBound('minLength', 'class-validator', options),
);
const MAX_LENGTH_CLASS_VALIDATOR = defineRuleKind('maxLength:class-validator', (options) =>
  LengthBound('maxLength', 'class-validator', options),
);
const HAS_FORMAT = defineRuleKind('isFormat', (options) => HasFormat(options));
const MATCHES = defineRuleKind('matches', (options) => MatchesPattern('', options));
const IS_INT = defineRuleKind('isInt', (options) => IsIntegerValue(options));
const IS_NUMBER = defineRuleKind('isNumber', (options) => IsNumber({}, options), FINITE_NUMBER);
const MIN = defineRuleKind('min', (options) => NumberBound('min', options));
const MAX = defineRuleKind('max', (options) => NumberBound('max', options));
const EXCLUSIVE_MINIMUM = defineRuleKind('exclusiveMinimum', (options) => ExclusiveMinimum(0, options));
const EXCLUSIVE_MAXIMUM = defineRuleKind('exclusiveMaximum', (options) => ExclusiveMaximum(0, options));
const MULTIPLE_OF = defineRuleKind('multipleOf', (options) => MultipleOf(1, options));
const IS_BOOLEAN = defineRuleKind('isBoolean', (options) => IsBoolean(options));
const IS_DATE_ONLY = defineRuleKind('isDateOnly', (options) => IsDateOnlyString(false, options));
const IS_DATE_ONLY_OR_DATE = defineRuleKind('isDateOnly:dates', (options) => IsDateOnlyString(true, options));
const IS_OFFSET_DATE_TIME = defineRuleKind('isOffsetDateTime', (options) => IsOffsetDateTimeString(false, options));
const IS_OFFSET_DATE_TIME_OR_DATE = defineRuleKind('isOffsetDateTime:dates', (options) =>
  IsOffsetDateTimeString(true, options),
);
const IS_OBJECT = defineRuleKind('isObject', (options) => IsObject(options));
const VALIDATE_NESTED = defineRuleKind('validateNested', (options) => ValidateNested(options));
const MATCHES_SCHEMA = defineRuleKind('matchesSchema', (options) => MatchesSchema(FREE_FORM, options));
const IS_ARRAY = defineRuleKind('isArray', (options) => IsArray(options));
const ARRAY_MIN_SIZE = defineRuleKind('arrayMinSize', () => ArrayMinSize(0));
const ARRAY_MAX_SIZE = defineRuleKind('arrayMaxSize', () => ArrayMaxSize(0));
const ARRAY_UNIQUE = defineRuleKind('arrayUnique', () => ArrayUnique(canonicalJson));
const IS_IN = defineRuleKind('isIn', (options) => IsMemberOf(options));

/**
 * The options of every `Type` toolwright applies: none (class-transformer only reads them), one frozen object for all
 * instead of the empty object `Type` makes for each use.
 */
const NO_TYPE_OPTIONS = Object.freeze({});

/** MatchesSchema's template schema (every use gives its own schema as its constraint). */
const FREE_FORM: ParamSchema = Object.freeze({ kind: 'any' });

/** Where the rules derived for one property go: a list of decorators, or the property's class directly. */
interface RuleSink {
  /** A rule of a kind toolwright applies (`constraints` `undefined`: the kind's template's). */
  rule(kind: RuleKind, each: boolean, constraints?: unknown[]): void;
  /** A class-transformer decorator (`Type`, `Transform`). */
  decorator(decorator: PropertyDecorator): void;
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
  deriveRules(plan, {
    rule: (ruleKind, each, constraints) =>
      decorators.push((prototype: object, propertyName: string | symbol) =>
        getMetadataStorage().addValidationMetadata(
          sharedRule(
            ruleKind,
            each,
            (prototype as { constructor: Function }).constructor,
            propertyName as string,
            constraints,
          ),
        ),
      ),
    decorator: (decorator) => decorators.push(decorator),
  });
  return decorators;
}

/**
 * Applies what `validationDecorators(plan)` returns to the properties of one class, storing each rule directly as it
 * is derived (no decorator closures in between: registration applies about ten rules per command).
 */
export class PropertyRuleSink implements RuleSink {
  private readonly target: Function;
  private readonly storage = getMetadataStorage();
  private propertyName = '';

  constructor(private readonly prototype: object) {
    this.target = (prototype as { constructor: Function }).constructor;
  }

  /** Applies the rules of `plan` to `propertyName`. */
  apply(propertyName: string, plan: ValidationPlan): void {
    this.propertyName = propertyName;
    deriveRules(plan, this);
  }

  rule(ruleKind: RuleKind, each: boolean, constraints?: unknown[]): void {
    this.storage.addValidationMetadata(sharedRule(ruleKind, each, this.target, this.propertyName, constraints));
  }

  decorator(decorator: PropertyDecorator): void {
    decorator(this.prototype, this.propertyName);
  }
}

/** The rules that enforce a property's schema, in the order they are applied (the one definition of that order). */
function deriveRules(plan: ValidationPlan, sink: RuleSink): void {
  const { schema } = plan;
  if (!plan.required) {
    // Absent and null both mean "not given" for an optional parameter.
    sink.rule(IS_OPTIONAL, false);
  } else {
    // A conditional rule shadows an ancestor's IsOptional / ValidateIf on an overridden property (class-validator
    // keeps an ancestor's rule unless the class has one of the same type): one that always holds is needed only then.
    if (schema.nullable === true) sink.rule(VALIDATE_IF_NOT_NULL, false);
    else if (plan.inherits) sink.rule(VALIDATE_IF_ALWAYS, false);
    sink.rule(IS_DEFINED, false);
  }
  if (plan.convertToDate === true && (schema.kind === 'date' || schema.kind === 'datetime')) {
    const isValid = schema.kind === 'date' ? isDateOnly : isOffsetDateTime;
    sink.decorator(Transform(({ value }) => (isValid(value) ? new Date(value) : value), { toClassOnly: true }));
  }
  valueRules(schema, false, plan, sink);
}

function isSimpleElement(schema: ParamSchema, plan: ValidationPlan): boolean {
  if (schema.nullable === true) return false;
  if (SCALAR_KINDS.has(schema.kind)) return true;
  return schema.kind === 'object' && plan.nestedClass(schema) !== undefined && schema.enum === undefined;
}

function valueRules(schema: ParamSchema, each: boolean, plan: ValidationPlan, sink: RuleSink): void {
  const acceptDates = plan.convertToDate === true && !each;
  switch (schema.kind) {
    case 'string':
      sink.rule(IS_STRING, each);
      // Counted as the node's source means it (`rules/string.ts`).
      if (schema.minLength !== undefined)
        sink.rule(
          schema.lengthCount === 'class-validator' ? MIN_LENGTH_CLASS_VALIDATOR : MIN_LENGTH,
          each,
          boundOf(schema.minLength),
        );
      if (schema.maxLength !== undefined)
        sink.rule(
          schema.lengthCount === 'class-validator' ? MAX_LENGTH_CLASS_VALIDATOR : MAX_LENGTH,
          each,
          boundOf(schema.maxLength),
        );
      // Compiled now: a pattern the engine refuses fails here (checkDtoSynthesis relies on it), not on a call.
      if (schema.pattern !== undefined) sink.rule(MATCHES, each, [compilePattern(schema.pattern).source]);
      if (schema.format !== undefined) sink.rule(HAS_FORMAT, each, [schema.format]);
      break;
    case 'int':
    case 'float':
      if (schema.kind === 'int') sink.rule(IS_INT, each);
      else sink.rule(IS_NUMBER, each);
      if (schema.minimum !== undefined) sink.rule(MIN, each, boundOf(schema.minimum));
      if (schema.maximum !== undefined) sink.rule(MAX, each, boundOf(schema.maximum));
      if (schema.exclusiveMinimum !== undefined) sink.rule(EXCLUSIVE_MINIMUM, each, boundOf(schema.exclusiveMinimum));
      if (schema.exclusiveMaximum !== undefined) sink.rule(EXCLUSIVE_MAXIMUM, each, boundOf(schema.exclusiveMaximum));
      if (schema.multipleOf !== undefined) sink.rule(MULTIPLE_OF, each, boundOf(schema.multipleOf));
      break;
    case 'bool':
      sink.rule(IS_BOOLEAN, each);
      break;
    case 'date':
      sink.rule(acceptDates ? IS_DATE_ONLY_OR_DATE : IS_DATE_ONLY, each);
      break;
    case 'datetime':
      sink.rule(acceptDates ? IS_OFFSET_DATE_TIME_OR_DATE : IS_OFFSET_DATE_TIME, each);
      break;
    case 'object': {
      const nested = schema.enum === undefined ? plan.nestedClass(schema) : undefined;
      sink.rule(IS_OBJECT, each);
      if (nested !== undefined) {
        sink.rule(VALIDATE_NESTED, each);
        sink.decorator(Type(nested, NO_TYPE_OPTIONS));
      } else if (schema.properties.length > 0 || schema.additionalProperties !== true || schema.enum !== undefined) {
        sink.rule(MATCHES_SCHEMA, each, [schema]);
      }
      return;
    }
    case 'array':
      sink.rule(IS_ARRAY, each);
      if (each) {
        sink.rule(MATCHES_SCHEMA, each, [schema]);
        return;
      }
      if (schema.minItems !== undefined) sink.rule(ARRAY_MIN_SIZE, false, boundOf(schema.minItems));
      if (schema.maxItems !== undefined) sink.rule(ARRAY_MAX_SIZE, false, boundOf(schema.maxItems));
      if (schema.uniqueItems === true) sink.rule(ARRAY_UNIQUE, false);
      if (schema.enum !== undefined) sink.rule(MATCHES_SCHEMA, false, [schema]);
      if (isSimpleElement(schema.items, plan)) valueRules(schema.items, true, plan, sink);
      else if (schema.items.kind !== 'any') sink.rule(MATCHES_SCHEMA, true, [schema.items]);
      return;
    case 'union':
      sink.rule(MATCHES_SCHEMA, each, [schema]);
      return;
    case 'any':
      // A value of any type with an enum (`{enum: [...]}` of several types): its membership is `rules/enum.ts`'s.
      if (schema.enum !== undefined) sink.rule(MATCHES_SCHEMA, each, [schema]);
      return;
  }
  // A property typed `Date` holds a Date by now, which an enum of strings cannot match: the enum stays in the IR only.
  // The schema's own list (frozen with the definition; class-validator only reads it), not a copy per rule.
  if (schema.enum !== undefined && !acceptDates) sink.rule(IS_IN, each, [schema.enum]);
}
