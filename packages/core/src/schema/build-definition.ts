import { definitionMessages, type DefinitionSite } from '../decorators/messages';
import { isCrossFieldRule, withCrossFieldRules } from './cross-field-keywords';
import { deepFreeze } from './deep-freeze';
import { DefinitionError } from '../errors/definition-error';
import type { ClassThunk, CommandOptions } from '../decorators/param-options';
import { checkThunkResult, designTypeName, isDtoClass, isReservedPropertyName, resolveParamRecord } from '../decorators/resolve-param';
import { resolvedWhenDecorated } from '../decorators/record-param';
import { allowEmptyDto } from '../decorators/validation/validation-plan';
import { renderValue } from '../decorators/validation/value-checks';
import { collectValidatorFacts, mergeValueFacts, type ImpliedKind, type ValidatorFacts } from '../decorators/validation/validator-facts';
import { getCommandMetadata } from '../metadata/command-metadata';
import { getDesignParamTypes, getDesignType } from '../metadata/design-metadata';
import { classLineage, getOwnParamMetadata, getParamMetadata } from '../metadata/param-metadata';
import type { ParamMetadata, ValidatorMetadata } from '../metadata/types';
import { getOwnValidatorPropertyNames, getTransformerTypeFunction, getValidatorMetadata } from '../metadata/validator-metadata';
import type { CoercionPolicy, Constructor, ObjectSchema, ParamSchema, PropertyDefinition } from '../types/schema';
import type { CrossFieldRule } from '../types/cross-field';
import type { ToolDefinition, ToolOptions, ToolQueueOptions } from '../types/definition';

const objectSchemas = new WeakMap<Function, ObjectSchema>();
const commandDefinitions = new WeakMap<Function, ToolDefinition>();

/** The DTOs being built, outermost first, with the property that led to the next one (for cycle messages). */
const buildStack: Array<{ dto: Function; property?: string }> = [];

/**
 * The object schema of a DTO class: its decorated properties (own and inherited), nested DTOs, and the
 * class-validator rules JSON Schema can say. Built once per class, deep-frozen, `additionalProperties: false`.
 * A DTO that refers to itself is refused with a DefinitionError naming the cycle.
 */
export function buildObjectSchema(dtoClass: Constructor): ObjectSchema {
  const cached = objectSchemas.get(dtoClass);
  if (cached !== undefined) return cached;
  const cycleStart = buildStack.findIndex((frame) => frame.dto === dtoClass);
  if (cycleStart !== -1) {
    const path = buildStack.slice(cycleStart).map((frame) => `${frame.dto.name}.${frame.property ?? '?'}`);
    throw definitionMessages.cycle([...path, dtoClass.name]);
  }
  const frame: { dto: Function; property?: string } = { dto: dtoClass };
  buildStack.push(frame);
  try {
    const schema = deepFreeze(computeObjectSchema(dtoClass, frame));
    objectSchemas.set(dtoClass, schema);
    return schema;
  } finally {
    buildStack.pop();
  }
}

function resolveNested(site: DefinitionSite, frame: { property?: string }, thunk: ClassThunk | (() => unknown)): ObjectSchema {
  frame.property = site.property;
  const dto = checkThunkResult(site, thunk());
  return buildObjectSchema(dto);
}

/**
 * Property names in declaration order, base class first: each class contributes the properties its class-validator
 * rules and toolwright records name, in the order they were decorated; a property keeps its first place.
 */
function propertyOrder(dtoClass: Function): string[] {
  const order = new Set<string>();
  for (const cls of classLineage(dtoClass)) {
    for (const propertyName of getOwnValidatorPropertyNames(cls)) order.add(propertyName);
    for (const record of getOwnParamMetadata(cls)) order.add(record.propertyName);
  }
  return [...order];
}

function computeObjectSchema(dtoClass: Constructor, frame: { property?: string }): ObjectSchema {
  const records = getParamMetadata(dtoClass);
  const rules = getValidatorMetadata(dtoClass, { developerRulesOnly: true });
  const recordsByProperty = groupBy(records, (record) => record.propertyName);
  const rulesByProperty = groupBy(rules, (rule) => rule.propertyName);
  const properties: PropertyDefinition[] = [];
  // Every property is checked, so one build reports every problem of the class (and of its nested DTOs) at once.
  const problems: DefinitionError[] = [];
  for (const propertyName of propertyOrder(dtoClass)) {
    const site: DefinitionSite = { target: dtoClass.name, property: propertyName };
    try {
      if (isReservedPropertyName(propertyName)) throw definitionMessages.reservedPropertyName(dtoClass.name, propertyName);
      const propertyRecords = recordsByProperty.get(propertyName);
      const propertyRules = rulesByProperty.get(propertyName) ?? [];
      if (propertyRecords !== undefined) {
        properties.push(fromRecords(dtoClass, site, frame, propertyRecords, propertyRules));
      } else {
        properties.push(fromValidatorRules(dtoClass, site, frame, propertyRules, getDesignType(dtoClass.prototype, propertyName)));
      }
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length > 0) throw DefinitionError.all(problems);
  checkAliases(dtoClass.name, properties);
  if (properties.length === 0) allowEmptyDto(dtoClass);
  return { kind: 'object', name: dtoClass.name, properties, additionalProperties: false, dto: dtoClass };
}

function fromRecords(
  dtoClass: Function,
  site: DefinitionSite,
  frame: { property?: string },
  records: readonly ParamMetadata[],
  rules: readonly ValidatorMetadata[],
): PropertyDefinition {
  if (records.length > 1) throw definitionMessages.severalDecorators(site, records.map((record) => record.decorator));
  const record = records[0] as ParamMetadata;
  const { definition } =
    resolvedWhenDecorated(record) ??
    resolveParamRecord(record, {
      site,
      designType: getDesignType(dtoClass.prototype, record.propertyName),
      resolveClass: (thunk) => resolveNested(site, frame, thunk),
    });
  if (definition.context !== undefined) return definition;
  if (rules.length === 0) return definition;
  const facts = collectValidatorFacts(rules);
  const schema = definition.schema;
  const merged =
    schema.kind === 'array'
      ? withArrayFacts({ ...schema, items: mergeValueFacts(schema.items, facts.items) }, facts)
      : mergeValueFacts(schema, facts.value);
  return { ...definition, schema: merged, required: definition.required && !facts.optional };
}

function withArrayFacts(schema: ParamSchema & { kind: 'array' }, facts: ValidatorFacts): ParamSchema {
  const minItems = facts.minItems === undefined ? schema.minItems : Math.max(schema.minItems ?? 0, facts.minItems);
  const maxItems = facts.maxItems === undefined ? schema.maxItems : Math.min(schema.maxItems ?? Infinity, facts.maxItems);
  return {
    ...schema,
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {}),
    ...(schema.uniqueItems === true || facts.uniqueItems === true ? { uniqueItems: true } : {}),
  };
}

function impliedSchema(kind: ImpliedKind): ParamSchema {
  return kind === 'object' ? { kind: 'object', properties: [], additionalProperties: true } : { kind };
}

/** A property only class-validator knows: its type from the rules (or `String` / `Boolean` metadata), its constraints from the rules. */
function fromValidatorRules(
  dtoClass: Function,
  site: DefinitionSite,
  frame: { property?: string },
  rules: readonly ValidatorMetadata[],
  designType: unknown,
): PropertyDefinition {
  const facts = collectValidatorFacts(rules);
  const nestedThunk = getTransformerTypeFunction(dtoClass, site.property as string);
  const nestedClass = (): ObjectSchema | undefined => {
    if (nestedThunk !== undefined) return resolveNested(site, frame, nestedThunk);
    if (isDtoClass(designType)) return resolveNested(site, frame, () => designType);
    return undefined;
  };
  let schema: ParamSchema;
  if (facts.isArray || facts.nestedEach || facts.itemKind !== undefined || designType === Array) {
    let items: ParamSchema | undefined;
    if (facts.nestedEach || (facts.nested && nestedThunk !== undefined)) items = nestedThunk !== undefined ? resolveNested(site, frame, nestedThunk) : undefined;
    else if (facts.itemKind !== undefined) items = impliedSchema(facts.itemKind);
    if (items === undefined) throw definitionMessages.arrayNeedsElementType(site);
    schema = withArrayFacts({ kind: 'array', items: mergeValueFacts(items, facts.items) }, facts);
  } else if (facts.nested) {
    const nested = nestedClass();
    if (nested === undefined) throw definitionMessages.noValidatorType(site, designTypeName(designType));
    schema = nested;
  } else {
    const kind = facts.kind ?? (designType === String ? 'string' : designType === Boolean ? 'bool' : undefined);
    if (kind === undefined) throw definitionMessages.noValidatorType(site, designTypeName(designType));
    schema = mergeValueFacts(impliedSchema(kind), facts.value);
  }
  return { name: site.property as string, schema, required: !facts.optional, aliases: [] };
}

function checkAliases(target: string, properties: readonly PropertyDefinition[]): void {
  const owners = new Map<string, string>();
  for (const property of properties) owners.set(property.name, property.name);
  for (const property of properties) {
    for (const alias of property.aliases) {
      const owner = owners.get(alias);
      if (owner !== undefined && owner !== property.name) throw definitionMessages.aliasCollision({ target, property: property.name }, alias, owner);
      owners.set(alias, property.name);
    }
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

// ---- commands --------------------------------------------------------------------------------------------

const TOOL_OPTION_KEYS = ['title', 'aliases', 'timeoutMs', 'slowCallMs', 'tags', 'permissions', 'coercion', 'retries', 'annotations', 'queue', 'validate'] as const;
const ANNOTATION_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const COERCION_POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];

/** Checks the ToolOptions of a command and copies the ones given. */
function checkToolOptions(target: string, options: ToolOptions): ToolOptions {
  const invalid = (option: string, expected: string) =>
    definitionMessages.invalidCommandOption(target, option, `${renderValue((options as Record<string, unknown>)[option])} is not ${expected}`, `give \`${option}\` as ${expected}.`);
  const isStringList = (value: unknown) => Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry.length > 0);
  if (options.title !== undefined && typeof options.title !== 'string') throw invalid('title', 'a string');
  for (const key of ['aliases', 'tags', 'permissions'] as const) {
    if (options[key] !== undefined && !isStringList(options[key])) throw invalid(key, 'an array of non-empty strings');
  }
  for (const key of ['timeoutMs', 'slowCallMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) throw invalid(key, 'a positive number of milliseconds');
  }
  if (options.retries !== undefined && !(Number.isInteger(options.retries) && options.retries >= 0)) throw invalid('retries', 'a non-negative integer');
  if (options.coercion !== undefined && !COERCION_POLICIES.includes(options.coercion)) throw invalid('coercion', "'strict', 'safe' or 'lenient'");
  if (options.queue !== undefined) checkQueueOptions(options.queue, invalid);
  if (options.validate !== undefined && typeof options.validate !== 'function') throw invalid('validate', 'a function (params) => string | issues | undefined');
  if (options.annotations !== undefined) {
    const annotations = options.annotations as Record<string, unknown>;
    const valid =
      typeof annotations === 'object' &&
      annotations !== null &&
      Object.entries(annotations).every(([key, value]) => (ANNOTATION_KEYS as readonly string[]).includes(key) && typeof value === 'boolean');
    if (!valid) throw invalid('annotations', `an object of boolean hints (${ANNOTATION_KEYS.join(', ')})`);
  }
  const copy: Record<string, unknown> = {};
  for (const key of TOOL_OPTION_KEYS) {
    const value = options[key];
    if (value === undefined) continue;
    copy[key] = Array.isArray(value) ? [...value] : typeof value === 'object' ? { ...value } : value;
  }
  return copy as ToolOptions;
}

const QUEUE_OPTION_KEYS = ['attempts', 'backoff', 'priority'];

function checkQueueOptions(queue: ToolQueueOptions, invalid: (option: string, expected: string) => Error): void {
  const expected = 'an object { attempts?: integer >= 1, backoff?: { type: \'fixed\' | \'exponential\', delayMs: number >= 0 }, priority?: integer 1..2097152 }';
  if (typeof queue !== 'object' || queue === null || Array.isArray(queue)) throw invalid('queue', expected);
  const record = queue as unknown as Record<string, unknown>;
  const backoff = queue.backoff as unknown as Record<string, unknown> | undefined;
  const valid =
    Object.keys(record).every((key) => QUEUE_OPTION_KEYS.includes(key)) &&
    (queue.attempts === undefined || (Number.isInteger(queue.attempts) && queue.attempts >= 1)) &&
    (queue.priority === undefined || (Number.isInteger(queue.priority) && queue.priority >= 1 && queue.priority <= 2_097_152)) &&
    (backoff === undefined ||
      (typeof backoff === 'object' && backoff !== null && (backoff.type === 'fixed' || backoff.type === 'exponential') &&
        typeof backoff.delayMs === 'number' && Number.isFinite(backoff.delayMs) && backoff.delayMs >= 0));
  if (!valid) throw invalid('queue', expected);
}

/**
 * A command's own cross-field check is a static `validate(params)`: it runs before the per-call instance exists (the
 * handler's child container, invocation and signal belong to the run), so an instance method would never be called.
 */
function checkValidateMethod(commandClass: Function): void {
  const instanceMethod = (commandClass.prototype as { validate?: unknown }).validate;
  const staticMethod = (commandClass as unknown as { validate?: unknown }).validate;
  if (instanceMethod !== undefined && staticMethod === undefined) {
    throw definitionMessages.invalidCommandOption(
      commandClass.name,
      'validate',
      'the class has an instance method `validate`, which toolwright never calls (cross-field checks run before the command is resolved)',
      'make it `static validate(params)`, or pass it as @Command({ validate }).',
    );
  }
}

/** The DTO's schema with the command's declarative cross-field rules (checked: known kinds, declared names). */
function commandParameters(target: string, schema: ObjectSchema, rules: readonly CrossFieldRule[] | undefined): ObjectSchema {
  if (rules === undefined) return schema;
  if (!Array.isArray(rules) || !rules.every(isCrossFieldRule)) {
    throw definitionMessages.invalidCommandOption(
      target,
      'crossFieldRules',
      `${renderValue(rules)} is not an array of cross-field rules`,
      "build them with crossField.exactlyOne(...), atLeastOne(...), notTogether(...) or requires(...).",
    );
  }
  return withCrossFieldRules(schema, rules, target);
}

function suggestedDtoName(commandClass: Function): string {
  return `${commandClass.name.replace(/Command$/, '') || commandClass.name}Params`;
}

/** The parameter DTO of a command: `params`, else `execute`'s first parameter type from TypeScript metadata. */
function commandDto(commandClass: Function, options: CommandOptions): Constructor {
  const suggestion = suggestedDtoName(commandClass);
  if (options.params !== undefined) {
    if (!isDtoClass(options.params)) throw definitionMessages.paramsNotAClass(commandClass.name, renderValue(options.params), suggestion);
    return options.params;
  }
  const parameterTypes = getDesignParamTypes(commandClass.prototype, 'execute');
  const first = parameterTypes?.[0];
  if (first === undefined) throw definitionMessages.noParamsDto(commandClass.name, suggestion);
  if (!isDtoClass(first)) throw definitionMessages.paramsNotAClass(commandClass.name, designTypeName(first), suggestion);
  return first as Constructor;
}

/**
 * The tool definition of a `@Command` class: name, description, parameters (the DTO's object schema), options and
 * source. Built once per class and deep-frozen; every problem is a DefinitionError naming the class and the fix.
 */
export function buildCommandDefinition(commandClass: Constructor): ToolDefinition {
  if (typeof commandClass !== 'function') throw definitionMessages.notAClass(renderValue(commandClass));
  const cached = commandDefinitions.get(commandClass);
  if (cached !== undefined) return cached;
  const metadata = getCommandMetadata(commandClass);
  if (metadata === undefined) throw definitionMessages.notACommand(commandClass.name || '(anonymous class)');
  const target = commandClass.name;
  const { options } = metadata;
  if (typeof options.name !== 'string' || options.name.trim().length === 0) {
    throw definitionMessages.invalidCommandOption(target, 'name', `${renderValue(options.name)} is not a non-empty string`, "give the tool a name: @Command({ name: 'tool_name', ... }).");
  }
  if (typeof options.description !== 'string') {
    throw definitionMessages.invalidCommandOption(target, 'description', `${renderValue(options.description)} is not a string`, 'describe what the tool does for the model: @Command({ description: "...", ... }).');
  }
  if (typeof (commandClass.prototype as { execute?: unknown }).execute !== 'function') throw definitionMessages.noExecute(target);
  const toolOptions = checkToolOptions(target, options);
  checkValidateMethod(commandClass);
  const params = commandDto(commandClass, options);
  const definition: ToolDefinition = deepFreeze({
    name: options.name,
    description: options.description,
    parameters: commandParameters(target, buildObjectSchema(params), options.crossFieldRules),
    options: toolOptions,
    source: { kind: 'class', command: commandClass, params },
  });
  commandDefinitions.set(commandClass, definition);
  return definition;
}
