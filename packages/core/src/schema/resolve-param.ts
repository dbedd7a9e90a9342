import { parseTypeExpression, SCALAR_KINDS } from './compact-grammar';
import { CONTEXT_KEY_PROPERTIES } from '../types/execution';
import type {
  ArraySchema,
  CoercionPolicy,
  Constructor,
  ContextKey,
  EnumValue,
  ExtractionSource,
  ObjectSchema,
  ParamSchema,
  PropertyDefinition,
  ScalarKind,
} from '../types/schema';
import type { ParamMetadata } from '../metadata/types';
import { definitionMessages, type DefinitionSite } from './definition-messages';
import type {
  ArrayConstraintOptions,
  ClassThunk,
  EnumOption,
  ParamBaseOptions,
  ParamTypeReference,
  ValueConstraintOptions,
} from '../types/param-options';
import { conformsTo, describeSchema } from './conformance';
import { renderValue } from './render-value';
import { compilePattern, copyJsonValue } from './value-checks';
import { ENFORCED_FORMAT_NAMES, formatRule } from '../rules/format';

/** What resolving a parameter record needs besides the record. */
export interface ResolveEnvironment {
  readonly site: DefinitionSite;
  /** `design:type` of the property, `undefined` when there is no metadata. */
  readonly designType: unknown;
  /** Turns a DTO thunk into its object schema (at build time: the built DTO; when decorating: a placeholder). */
  readonly resolveClass: (thunk: ClassThunk) => ObjectSchema;
}

/** A resolved property: its IR, and whether values become `Date`s (the property is typed `Date`). */
export interface PropertyResolution {
  readonly definition: PropertyDefinition;
  readonly convertToDate: boolean;
}

export { SCALAR_KINDS };
export const CONTEXT_KEYS = Object.keys(CONTEXT_KEY_PROPERTIES) as ContextKey[];
const COERCION_POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];
const EXTRACTION_SOURCES: readonly ExtractionSource[] = ['content', 'title'];

const FREE_FORM_OBJECT: ObjectSchema = Object.freeze({
  kind: 'object',
  properties: Object.freeze([]),
  additionalProperties: true,
});

/** The schema of each context key: ids and URLs are strings; handler_config and persona are free-form objects. */
const CONTEXT_SCHEMAS: Readonly<Record<ContextKey, ParamSchema>> = Object.freeze({
  session_id: Object.freeze({ kind: 'string' }),
  job_id: Object.freeze({ kind: 'string' }),
  flow_step_id: Object.freeze({ kind: 'string' }),
  source_url: Object.freeze({ kind: 'string' }),
  image_url: Object.freeze({ kind: 'string' }),
  handler_config: FREE_FORM_OBJECT,
  persona: FREE_FORM_OBJECT,
});

const BUILT_IN_CONSTRUCTORS = new Map<unknown, string>([
  [String, "'string'"],
  [Number, "'int' or type: 'float'"],
  [Boolean, "'bool'"],
  [Date, "'datetime' or type: 'date'"],
  [Array, "'array<string>' (with the element type)"],
  [Object, "'object'"],
]);

/**
 * `__proto__`, `constructor`, `toString`, ...: names every object inherits. class-transformer and class-validator
 * read them from the prototype when absent (class-validator's grouping even breaks on them), so they cannot be parameters.
 */
export function isReservedPropertyName(name: string): boolean {
  // `name in Object.prototype`, which has no prototype of its own: an own-key lookup is about twice as fast.
  return Object.hasOwn(Object.prototype, name);
}

/** A class (not an arrow function, not a plain function returning a class). */
export function isClass(value: unknown): value is Function {
  return (
    typeof value === 'function' &&
    value.prototype !== undefined &&
    /^class[\s{]/.test(Function.prototype.toString.call(value))
  );
}

const NOT_DTO_CLASSES = new Set<unknown>([
  Object,
  String,
  Number,
  Boolean,
  Array,
  Date,
  Function,
  Promise,
  Map,
  Set,
  Symbol,
  BigInt,
  RegExp,
  Error,
]);

/** A class that can be a DTO: a constructor that is not a built-in (also an ES5-compiled class). */
export function isDtoClass(value: unknown): value is Function {
  return typeof value === 'function' && value.prototype !== undefined && !NOT_DTO_CLASSES.has(value);
}

/** The name TypeScript metadata gives a type, for messages. */
export function designTypeName(designType: unknown): string {
  if (designType === undefined) return 'no metadata';
  if (typeof designType === 'function') return designType.name || '(anonymous class)';
  return renderValue(designType);
}

/** The IR for one raw parameter record. Throws a DefinitionError naming the class, the property and the fix. */
export function resolveParamRecord(record: ParamMetadata, environment: ResolveEnvironment): PropertyResolution {
  const { site } = environment;
  switch (record.decorator) {
    case 'FromContext': {
      if (!(CONTEXT_KEYS as readonly string[]).includes(record.key))
        throw definitionMessages.unknownContextKey(site, record.key, CONTEXT_KEYS);
      const key = record.key as ContextKey;
      const description = record.options.description;
      if (description !== undefined && typeof description !== 'string')
        throw invalidOption(site, 'description', description, 'a string');
      checkBoolean(site, 'required', record.options.required);
      const schema: ParamSchema =
        description !== undefined ? { ...CONTEXT_SCHEMAS[key], description } : CONTEXT_SCHEMAS[key];
      return {
        definition: {
          name: record.propertyName,
          schema,
          required: record.options.required ?? false,
          aliases: [],
          context: key,
        },
        convertToDate: false,
      };
    }
    case 'DateTime':
    case 'DateOnly': {
      const base: ParamSchema = { kind: record.decorator === 'DateTime' ? 'datetime' : 'date' };
      checkDesignType(environment, base, `@${record.decorator}`);
      return finish(record.propertyName, base, record.options, environment);
    }
    case 'ArrayOf': {
      if (record.items === undefined || record.items === null) throw definitionMessages.missingArrayElementType(site);
      const base: ArraySchema = { kind: 'array', items: resolveTypeReference(record.items, environment) };
      checkDesignType(environment, base, '@ArrayOf');
      return finish(record.propertyName, base, record.options, environment);
    }
    case 'ToolParam': {
      const explicit = record.options.type;
      const base =
        explicit !== undefined ? resolveTypeReference(explicit, environment) : inferFromDesignType(environment);
      if (explicit !== undefined) checkDesignType(environment, base, '@ToolParam');
      return finish(record.propertyName, base, record.options, environment);
    }
  }
}

/** Grammar expressions already parsed (the grammar returns frozen schemas, so they are shared); failures are not kept. */
const parsedExpressions = new Map<string, ParamSchema>();

/** Resolves `type` (or `@ArrayOf`'s element type) to a schema without options. */
export function resolveTypeReference(reference: ParamTypeReference, environment: ResolveEnvironment): ParamSchema {
  const { site } = environment;
  if (typeof reference === 'string') {
    if ((SCALAR_KINDS as readonly string[]).includes(reference)) return { kind: reference as ScalarKind };
    if (reference === 'object') return FREE_FORM_OBJECT;
    if (reference === 'any') return { kind: 'any' };
    let parsed = parsedExpressions.get(reference);
    if (parsed === undefined) {
      parsed = parseTypeExpression(reference, {
        target: site.target,
        ...(site.property !== undefined ? { property: site.property } : {}),
      });
      parsedExpressions.set(reference, parsed);
    }
    return parsed;
  }
  if (typeof reference === 'function') {
    const suggestion = BUILT_IN_CONSTRUCTORS.get(reference);
    if (suggestion !== undefined) throw definitionMessages.constructorAsType(site, reference.name, suggestion);
    if (isClass(reference)) return environment.resolveClass(() => reference as unknown as Constructor);
    return environment.resolveClass(reference);
  }
  throw definitionMessages.invalidTypeReference(site, renderValue(reference));
}

/** What a thunk returned, checked: a DTO class, or a DefinitionError with the fix. */
export function checkThunkResult(site: DefinitionSite, returned: unknown): new () => unknown {
  const suggestion = BUILT_IN_CONSTRUCTORS.get(returned);
  if (suggestion !== undefined)
    throw definitionMessages.constructorAsType(site, (returned as Function).name, suggestion);
  if (typeof returned !== 'function' || returned.prototype === undefined)
    throw definitionMessages.thunkNotClass(site, renderValue(returned));
  return returned as new () => unknown;
}

/** Type inference: only `String` and `Boolean` are unambiguous. */
export function inferFromDesignType(environment: ResolveEnvironment): ParamSchema {
  const { site, designType } = environment;
  if (designType === undefined) throw definitionMessages.noTypeMetadata(site);
  if (designType === String) return { kind: 'string' };
  if (designType === Boolean) return { kind: 'bool' };
  if (designType === Number) throw definitionMessages.numberNeedsKind(site);
  if (designType === Array) throw definitionMessages.arrayNeedsElementType(site);
  if (designType === Date) throw definitionMessages.dateNeedsDecorator(site);
  if (isClass(designType)) throw definitionMessages.classNeedsThunk(site, designType.name);
  throw definitionMessages.typeNotInferable(site, designTypeName(designType));
}

const DESIGN_KINDS = new Map<unknown, readonly ParamSchema['kind'][]>([
  [String, ['string', 'date', 'datetime']],
  [Number, ['int', 'float']],
  [Boolean, ['bool']],
  [Array, ['array']],
  [Date, ['date', 'datetime']],
]);

/** A `type` that contradicts the property's TypeScript type (`count: string` with `type: 'int'`) is refused. */
function checkDesignType(environment: ResolveEnvironment, schema: ParamSchema, decorator: string): void {
  const allowed = DESIGN_KINDS.get(environment.designType);
  if (allowed === undefined || schema.kind === 'any' || schema.kind === 'union' || allowed.includes(schema.kind))
    return;
  throw definitionMessages.designTypeConflict(
    environment.site,
    designTypeName(environment.designType),
    describeSchema(schema),
    decorator,
  );
}

type AllOptions = ParamBaseOptions & ValueConstraintOptions & ArrayConstraintOptions;

function finish(
  propertyName: string,
  base: ParamSchema,
  options: AllOptions,
  environment: ResolveEnvironment,
): PropertyResolution {
  const { site } = environment;
  const schema = applyOptions(base, options, site);
  checkBoolean(site, 'required', options.required);
  checkBoolean(site, 'sensitive', options.sensitive);
  if (options.extract !== undefined && !EXTRACTION_SOURCES.includes(options.extract)) {
    throw invalidOption(site, 'extract', options.extract, "'content' or 'title'");
  }
  const aliases = checkAliases(site, propertyName, options.aliases);
  const required = options.required ?? (options.default === undefined && options.extract === undefined);
  const definition: { -readonly [K in keyof PropertyDefinition]: PropertyDefinition[K] } = {
    name: propertyName,
    schema,
    required,
    aliases,
  };
  if (options.extract !== undefined) definition.extract = options.extract;
  if (options.sensitive === true) definition.sensitive = true;
  const convertToDate = environment.designType === Date && (schema.kind === 'date' || schema.kind === 'datetime');
  return { definition, convertToDate };
}

function invalidOption(site: DefinitionSite, option: string, value: unknown, expected: string) {
  return definitionMessages.invalidOption(
    site,
    option,
    `${renderValue(value)} is not ${expected}`,
    `give \`${option}\` as ${expected}.`,
  );
}

function checkPolicy(site: DefinitionSite, option: string, value: CoercionPolicy | undefined): void {
  if (value !== undefined && !COERCION_POLICIES.includes(value))
    throw invalidOption(site, option, value, "'strict', 'safe' or 'lenient'");
}

function checkBoolean(site: DefinitionSite, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') throw invalidOption(site, option, value, 'true or false');
}

/** The aliases of a parameter without any: one frozen array for all (definitions are frozen anyway). */
const NO_ALIASES: readonly string[] = Object.freeze([]);

function checkAliases(site: DefinitionSite, propertyName: string, aliases: unknown): readonly string[] {
  if (aliases === undefined) return NO_ALIASES;
  if (!Array.isArray(aliases)) throw invalidOption(site, 'aliases', aliases, 'an array of strings');
  for (const alias of aliases) {
    if (typeof alias !== 'string' || alias.length === 0)
      throw invalidOption(site, 'aliases', alias, 'a non-empty string');
    if (alias === propertyName) throw definitionMessages.aliasCollision(site, alias, propertyName);
  }
  return [...new Set(aliases as string[])];
}

/** An enum option as a list: a TypeScript enum object gives its values (not the reverse mappings of numeric enums). */
export function enumValues(option: EnumOption): EnumValue[] {
  if (Array.isArray(option)) return [...(option as readonly EnumValue[])];
  return Object.entries(option)
    .filter(([key]) => Number.isNaN(Number(key)))
    .map(([, value]) => value);
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

const ARRAY_OPTIONS: ReadonlySet<string> = new Set(['minItems', 'maxItems', 'uniqueItems']);

/** The value options, the kinds each applies to, and how messages say it. */
const VALUE_OPTION_KINDS: ReadonlyMap<string, readonly [readonly ParamSchema['kind'][], string]> = new Map<
  string,
  readonly [readonly ParamSchema['kind'][], string]
>([
  ['enum', [SCALAR_KINDS, 'string, integer, number, boolean, date and date-time values']],
  ['min', [['int', 'float'], 'int and float values']],
  ['max', [['int', 'float'], 'int and float values']],
  ['exclusiveMin', [['int', 'float'], 'int and float values']],
  ['exclusiveMax', [['int', 'float'], 'int and float values']],
  ['multipleOf', [['int', 'float'], 'int and float values']],
  ['minLength', [['string'], 'string values']],
  ['maxLength', [['string'], 'string values']],
  ['pattern', [['string'], 'string values']],
  ['format', [['string'], 'string values']],
]);

/** The schema value constraints apply to: the schema itself, or for arrays the innermost element. */
function valueTarget(schema: ParamSchema): ParamSchema {
  return schema.kind === 'array' ? valueTarget(schema.items) : schema;
}

function replaceValueTarget(schema: ParamSchema, target: ParamSchema): ParamSchema {
  return schema.kind === 'array' ? { ...schema, items: replaceValueTarget(schema.items, target) } : target;
}

function containsObject(schema: ParamSchema): boolean {
  if (schema.kind === 'object') return true;
  if (schema.kind === 'array') return containsObject(schema.items);
  if (schema.kind === 'union') return schema.variants.some(containsObject);
  return false;
}

function checkNumber(site: DefinitionSite, option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidOption(site, option, value, 'a finite number');
  return value;
}

function checkCount(site: DefinitionSite, option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!isNonNegativeInteger(value)) throw invalidOption(site, option, value, 'a non-negative integer');
  return value;
}

function checkOrder(
  site: DefinitionSite,
  lowName: string,
  low: number | undefined,
  highName: string,
  high: number | undefined,
): void {
  if (low !== undefined && high !== undefined && low > high) {
    throw definitionMessages.invalidOption(
      site,
      lowName,
      `${lowName} ${low} is greater than ${highName} ${high}`,
      `make \`${lowName}\` at most \`${highName}\`.`,
    );
  }
}

function patternSource(site: DefinitionSite, pattern: unknown): string {
  let source: string;
  if (pattern instanceof RegExp) {
    const flags = pattern.flags.replace('u', '');
    if (flags.length > 0) throw definitionMessages.patternFlags(site, pattern.source, pattern.flags);
    source = pattern.source;
  } else if (typeof pattern === 'string') {
    source = pattern;
  } else {
    throw invalidOption(site, 'pattern', pattern, 'a string or a RegExp');
  }
  try {
    compilePattern(source);
  } catch (error) {
    throw definitionMessages.invalidPattern(site, source, error instanceof Error ? error.message : String(error));
  }
  return source;
}

/**
 * Whether the own enumerable string keys of `schema` are exactly `first` (and `second`), in that order: what
 * `Object.keys` would say, without an array per call (symbols are not looked at by the copy either way).
 */
function hasExactKeys(schema: ParamSchema, first: string, second?: string): boolean {
  let index = 0;
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    if (key !== (index === 0 ? first : second)) return false;
    index++;
  }
  return index === (second === undefined ? 1 : 2);
}

/** `{ kind }` exactly. */
function isKindOnly(schema: ParamSchema): boolean {
  return schema.kind !== undefined && hasExactKeys(schema, 'kind');
}

/** `{ kind, items }` exactly, in that order (an array schema as a type reference gives it). */
function isKindAndItems(schema: ParamSchema): boolean {
  return (
    schema.kind !== undefined &&
    (schema as { items?: unknown }).items !== undefined &&
    hasExactKeys(schema, 'kind', 'items')
  );
}

/** `schema` with each defined value constraint stored, in the order `applyOptions` lists them. */
function withDefinedValueKeys(
  schema: Record<string, unknown>,
  enumList: unknown,
  minimum: unknown,
  maximum: unknown,
  exclusiveMinimum: unknown,
  exclusiveMaximum: unknown,
  multipleOf: unknown,
  minLength: unknown,
  maxLength: unknown,
  pattern: unknown,
  format: unknown,
): ParamSchema {
  // A decorated class's lengths count as class-validator's do (`rules/string.ts`).
  if (enumList !== undefined) schema.enum = enumList;
  if (minimum !== undefined) schema.minimum = minimum;
  if (maximum !== undefined) schema.maximum = maximum;
  if (exclusiveMinimum !== undefined) schema.exclusiveMinimum = exclusiveMinimum;
  if (exclusiveMaximum !== undefined) schema.exclusiveMaximum = exclusiveMaximum;
  if (multipleOf !== undefined) schema.multipleOf = multipleOf;
  if (minLength !== undefined) schema.minLength = minLength;
  if (maxLength !== undefined) schema.maxLength = maxLength;
  if (minLength !== undefined || maxLength !== undefined) schema.lengthCount = 'class-validator';
  if (pattern !== undefined) schema.pattern = pattern;
  if (format !== undefined) schema.format = format;
  return schema as unknown as ParamSchema;
}

/** `schema` with each defined annotation stored, in the order `applyOptions` lists them (arrays: then the item counts). */
function withDefinedSchemaKeys(
  schema: Record<string, unknown>,
  description: unknown,
  title: unknown,
  nullable: unknown,
  defaultValue: unknown,
  examples: unknown,
  policy: unknown,
  array: boolean,
  minItems: unknown,
  maxItems: unknown,
  uniqueItems: unknown,
): ParamSchema {
  if (description !== undefined) schema.description = description;
  if (title !== undefined) schema.title = title;
  if (nullable !== undefined) schema.nullable = nullable;
  if (defaultValue !== undefined) schema.default = defaultValue;
  if (examples !== undefined) schema.examples = examples;
  if (policy !== undefined) schema.policy = policy;
  if (array) {
    if (minItems !== undefined) schema.minItems = minItems;
    if (maxItems !== undefined) schema.maxItems = maxItems;
    if (uniqueItems !== undefined) schema.uniqueItems = uniqueItems;
  }
  return schema as unknown as ParamSchema;
}

/**
 * A schema object of `kind` (with its `items`, for an array) that keeps its annotations and constraints in the object
 * itself: an object literal has room only for the keys it is written with, so each key stored later would go to a
 * separate property array (about 40 bytes per schema); an empty literal has room for four.
 */
function schemaObject(kind: ParamSchema['kind'], items: ParamSchema | undefined): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  schema.kind = kind;
  if (items !== undefined) schema.items = items;
  return schema;
}

function withoutUndefined<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) result[key] = value[key];
  return result as T;
}

/** Applies a decorator's options to a base schema, checking that each applies to the type and is well-formed. */
export function applyOptions(base: ParamSchema, options: AllOptions, site: DefinitionSite): ParamSchema {
  const target = valueTarget(base);
  for (const option in options) {
    if (options[option as keyof AllOptions] === undefined) continue;
    if (ARRAY_OPTIONS.has(option) && base.kind !== 'array')
      throw definitionMessages.optionNotApplicable(site, option, base.kind, 'arrays');
    const applicability = VALUE_OPTION_KINDS.get(option);
    if (applicability !== undefined && !applicability[0].includes(target.kind)) {
      throw definitionMessages.optionNotApplicable(site, option, target.kind, applicability[1]);
    }
  }
  if (options.description !== undefined && typeof options.description !== 'string')
    throw invalidOption(site, 'description', options.description, 'a string');
  if (options.title !== undefined && typeof options.title !== 'string')
    throw invalidOption(site, 'title', options.title, 'a string');
  if (options.format !== undefined && typeof options.format !== 'string')
    throw invalidOption(site, 'format', options.format, 'a string');
  // Every format a model is shown is enforced (`rules/format/`): one toolwright does not enforce is refused here.
  if (options.format !== undefined && formatRule(options.format) === undefined)
    throw definitionMessages.invalidOption(
      site,
      'format',
      `${renderValue(options.format)} is not a format toolwright checks (${ENFORCED_FORMAT_NAMES.join(', ')})`,
      'use one of those, or state the rule as a `pattern`, or say it in the `description`.',
    );
  if (options.examples !== undefined && !Array.isArray(options.examples))
    throw invalidOption(site, 'examples', options.examples, 'an array of example values');
  // Named reads (not `options[name]` over a list of names): keyed reads of absent keys are slow in cold code.
  checkPolicy(site, 'coercion', options.coercion);
  checkPolicy(site, 'policy', options.policy);
  checkBoolean(site, 'nullable', options.nullable);
  checkBoolean(site, 'uniqueItems', options.uniqueItems);

  const minimum = checkNumber(site, 'min', options.min);
  const maximum = checkNumber(site, 'max', options.max);
  const exclusiveMinimum = checkNumber(site, 'exclusiveMin', options.exclusiveMin);
  const exclusiveMaximum = checkNumber(site, 'exclusiveMax', options.exclusiveMax);
  const multipleOf = checkNumber(site, 'multipleOf', options.multipleOf);
  if (multipleOf !== undefined && multipleOf <= 0)
    throw invalidOption(site, 'multipleOf', multipleOf, 'a number greater than 0');
  const minLength = checkCount(site, 'minLength', options.minLength);
  const maxLength = checkCount(site, 'maxLength', options.maxLength);
  const minItems = checkCount(site, 'minItems', options.minItems);
  const maxItems = checkCount(site, 'maxItems', options.maxItems);
  checkOrder(site, 'min', minimum, 'max', maximum);
  checkOrder(site, 'minLength', minLength, 'maxLength', maxLength);
  checkOrder(site, 'minItems', minItems, 'maxItems', maxItems);
  const pattern = options.pattern !== undefined ? patternSource(site, options.pattern) : undefined;

  let enumList: EnumValue[] | undefined;
  if (options.enum !== undefined) {
    if (typeof options.enum !== 'object' || options.enum === null)
      throw invalidOption(site, 'enum', options.enum, 'an array of values or a TypeScript enum');
    enumList = enumValues(options.enum);
    if (enumList.length === 0)
      throw definitionMessages.invalidOption(site, 'enum', 'it lists no value', 'list at least one allowed value.');
    const elementNullable = target === base && options.nullable === true;
    // One bare schema of the element kind for every value (each value is checked against the kind alone).
    const kindOnly = { kind: target.kind } as ParamSchema;
    for (const value of enumList) {
      if (value === null ? !elementNullable : !conformsTo(value, kindOnly)) {
        throw definitionMessages.enumValueMismatch(site, renderValue(value), describeSchema(kindOnly));
      }
    }
  }

  const nullable = options.nullable === true ? true : undefined;
  const defaultValue = copyJsonValue(options.default);
  const examples = options.examples !== undefined ? (copyJsonValue(options.examples) as unknown[]) : undefined;
  const policy = options.coercion ?? options.policy;
  const uniqueItems = options.uniqueItems === true ? true : undefined;
  let schema: ParamSchema;
  if (isKindOnly(target) && (base.kind !== 'array' || isKindAndItems(base))) {
    // The usual case (`{ kind }`, or an array of it): the object the construction below makes, built from named
    // keys and named stores instead of spreads and keyed stores (much cheaper in a registry of 1,000 commands).
    const constrainedTarget = withDefinedValueKeys(
      schemaObject(target.kind, undefined),
      enumList,
      minimum,
      maximum,
      exclusiveMinimum,
      exclusiveMaximum,
      multipleOf,
      minLength,
      maxLength,
      pattern,
      options.format,
    );
    schema = withDefinedSchemaKeys(
      base.kind === 'array'
        ? schemaObject(base.kind, replaceValueTarget(base.items, constrainedTarget))
        : (constrainedTarget as unknown as Record<string, unknown>),
      options.description,
      options.title,
      nullable,
      defaultValue,
      examples,
      policy,
      base.kind === 'array',
      minItems,
      maxItems,
      uniqueItems,
    );
  } else {
    const constrainedTarget = withoutUndefined({
      ...target,
      enum: enumList,
      minimum,
      maximum,
      exclusiveMinimum,
      exclusiveMaximum,
      multipleOf,
      minLength,
      maxLength,
      lengthCount: minLength !== undefined || maxLength !== undefined ? 'class-validator' : undefined,
      pattern,
      format: options.format,
    }) as ParamSchema;
    const withTarget = replaceValueTarget(base, constrainedTarget);
    schema = withoutUndefined({
      ...withTarget,
      description: options.description,
      title: options.title,
      nullable,
      default: defaultValue,
      examples,
      policy,
      ...(withTarget.kind === 'array' ? { minItems, maxItems, uniqueItems } : {}),
    });
  }

  if (options.default !== undefined && !containsObject(schema) && !conformsTo(options.default, schema)) {
    throw definitionMessages.defaultMismatch(site, renderValue(options.default), describeSchema(schema));
  }
  return schema;
}
