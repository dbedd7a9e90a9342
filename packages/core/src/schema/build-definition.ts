import { definitionMessages, type DefinitionSite } from './definition-messages';
import { isCrossFieldRule, withCrossFieldRules } from './cross-field-keywords';
import { deepFreeze } from './deep-freeze';
import { DefinitionError } from '../errors/definition-error';
import type { ClassThunk, CommandOptions } from '../types/param-options';
import {
  checkThunkResult,
  designTypeName,
  isDtoClass,
  isReservedPropertyName,
  resolveParamRecord,
  type PropertyResolution,
  type ResolveEnvironment,
} from './resolve-param';
import { renderValue } from './render-value';
import { collectValidatorFacts, mergeValueFacts, type ImpliedKind, type ValidatorFacts } from './validator-facts';
import { getCommandMetadata } from '../metadata/command-metadata';
import { getDesignParamTypes, getDesignType } from '../metadata/design-metadata';
import { classLineage, getParamMetadata, hasAncestors } from '../metadata/param-metadata';
import type { ParamMetadata, ValidatorMetadata } from '../metadata/types';
import { getTransformerTypeFunction, getValidatorMetadata } from '../metadata/validator-metadata';
import { getOwnPropertyOrder, ownPropertyOrder } from '../metadata/declaration-order';
import type { Constructor, ObjectSchema, ParamSchema, PropertyDefinition } from '../types/schema';
import type { CrossFieldRule } from '../types/cross-field';
import type { ToolDefinition } from '../types/definition';
import { assertToolOptions, finalizeDefinition } from './finalize-definition';
import { checkedOutput } from './output-schema';

const objectSchemas = new WeakMap<Function, ObjectSchema>();
const commandDefinitions = new WeakMap<Function, ToolDefinition>();
/**
 * Each raw record, resolved once (its nested DTOs built): the IR build and the class-validator rules both read it.
 * Kept as its definition alone when its values stay as they are (nearly every record), as the resolution otherwise,
 * until the rules of its class are applied (`forgetResolution`): a map entry per record for the life of the class
 * held about 0.4 KiB per command of 1,000.
 */
const recordResolutions = new WeakMap<ParamMetadata, PropertyDefinition | PropertyResolution>();

function keptResolution(record: ParamMetadata): PropertyResolution | undefined {
  const kept = recordResolutions.get(record);
  if (kept === undefined || 'convertToDate' in kept) return kept;
  return { definition: kept, convertToDate: false };
}

const NO_VALIDATOR_RULES: readonly ValidatorMetadata[] = Object.freeze([]);

/**
 * Drops a record's kept resolution once its class's rules are applied (every class's rules are applied once). A later
 * build that needs it again (a subclass registered afterwards) resolves the record again, to the same values.
 */
export function forgetResolution(record: ParamMetadata): void {
  recordResolutions.delete(record);
}

/** The DTOs being built, outermost first, with the property that led to the next one (for cycle messages). */
const buildStack: Array<{ dto: Function; property?: string }> = [];

/**
 * The object schema (IR) of a DTO class: its decorated properties (own and inherited), nested DTOs, and the
 * developer's class-validator rules JSON Schema can say. Resolved once per class, deep-frozen,
 * `additionalProperties: false`. A DTO that refers to itself is refused with a DefinitionError naming the cycle.
 * IR only: `buildObjectSchema` (validation/) also applies toolwright's class-validator rules to the DTO classes.
 */
export function resolveObjectSchema(dtoClass: Constructor): ObjectSchema {
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

function resolveNested(
  site: DefinitionSite,
  frame: { property?: string },
  thunk: ClassThunk | (() => unknown),
): ObjectSchema {
  frame.property = site.property;
  const dto = checkThunkResult(site, thunk());
  return resolveObjectSchema(dto);
}

/**
 * A raw record's resolution (its IR and whether values become `Date`s), resolved once: by the build of a DTO that
 * uses it, or here for a record no build used (an ancestor's record a subclass overrides). Throws a DefinitionError
 * as the build would.
 */
export function resolveRecord(record: ParamMetadata): PropertyResolution {
  const cached = keptResolution(record);
  if (cached !== undefined) return cached;
  const site: DefinitionSite = { target: record.target.name, property: record.propertyName };
  const frame: { dto: Function; property?: string } = { dto: record.target };
  return resolveAndKeep(record, record.target, site, frame);
}

/** What resolving a record needs while a DTO is built: its nested DTOs are built (or found built) on the spot. */
class BuildEnvironment implements ResolveEnvironment {
  constructor(
    readonly site: DefinitionSite,
    readonly designType: unknown,
    private readonly frame: { property?: string },
  ) {}

  resolveClass(thunk: ClassThunk): ObjectSchema {
    return resolveNested(this.site, this.frame, thunk);
  }
}

function resolveAndKeep(
  record: ParamMetadata,
  dtoClass: Function,
  site: DefinitionSite,
  frame: { property?: string },
): PropertyResolution {
  const cached = keptResolution(record);
  if (cached !== undefined) return cached;
  const resolution = resolveParamRecord(
    record,
    new BuildEnvironment(site, getDesignType(dtoClass.prototype, record.propertyName), frame),
  );
  recordResolutions.set(record, resolution.convertToDate ? resolution : resolution.definition);
  return resolution;
}

/**
 * Property names in declaration order, base class first: each class contributes the properties its class-validator
 * rules and toolwright records name, in the order they were decorated; a property keeps its first place.
 */
function propertyOrder(
  dtoClass: Function,
  records: readonly ParamMetadata[],
  rules: readonly ValidatorMetadata[],
): readonly string[] {
  // A class without ancestors: its records and the developer's rules are its own, read once by the build.
  if (!hasAncestors(dtoClass)) return ownPropertyOrder(records, rules);
  const order = new Set<string>();
  for (const cls of classLineage(dtoClass))
    for (const propertyName of getOwnPropertyOrder(cls)) order.add(propertyName);
  return [...order];
}

function computeObjectSchema(dtoClass: Constructor, frame: { property?: string }): ObjectSchema {
  const records = getParamMetadata(dtoClass);
  const rules = getValidatorMetadata(dtoClass, { developerRulesOnly: true });
  const order = propertyOrder(dtoClass, records, rules);
  // The usual DTO: one record per property, in the order of the properties (records[i] is property i's): no grouping.
  const aligned =
    order.length === records.length && order.every((name, index) => records[index]!.propertyName === name);
  const recordsByProperty = aligned ? undefined : groupBy(records, (record) => record.propertyName);
  const rulesByProperty = rules.length === 0 ? undefined : groupBy(rules, (rule) => rule.propertyName);
  const properties: PropertyDefinition[] = [];
  // Every property is checked, so one build reports every problem of the class (and of its nested DTOs) at once.
  const problems: DefinitionError[] = [];
  for (let index = 0; index < order.length; index++) {
    const propertyName = order[index]!;
    const site: DefinitionSite = { target: dtoClass.name, property: propertyName };
    try {
      if (isReservedPropertyName(propertyName))
        throw definitionMessages.reservedPropertyName(dtoClass.name, propertyName);
      const propertyRecords = aligned ? records[index] : recordsByProperty!.get(propertyName);
      const propertyRules = rulesByProperty?.get(propertyName) ?? NO_VALIDATOR_RULES;
      if (propertyRecords !== undefined) {
        properties.push(fromRecords(dtoClass, site, frame, propertyRecords, propertyRules));
      } else {
        properties.push(
          fromValidatorRules(dtoClass, site, frame, propertyRules, getDesignType(dtoClass.prototype, propertyName)),
        );
      }
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length > 0) throw DefinitionError.all(problems);
  checkAliases(dtoClass.name, properties);
  // `slice`: an array of exactly its length (the one `push` grew keeps room for more, per DTO for good).
  return {
    kind: 'object',
    name: dtoClass.name,
    properties: properties.slice(),
    additionalProperties: false,
    dto: dtoClass,
  };
}

/** A property's definition from its record (or its records: more than one is refused). */
function fromRecords(
  dtoClass: Function,
  site: DefinitionSite,
  frame: { property?: string },
  records: ParamMetadata | readonly ParamMetadata[],
  rules: readonly ValidatorMetadata[],
): PropertyDefinition {
  if (Array.isArray(records) && records.length > 1)
    throw definitionMessages.severalDecorators(
      site,
      records.map((record: ParamMetadata) => record.decorator),
    );
  const record = (Array.isArray(records) ? records[0] : records) as ParamMetadata;
  const { definition } = resolveAndKeep(record, dtoClass, site, frame);
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
  const maxItems =
    facts.maxItems === undefined ? schema.maxItems : Math.min(schema.maxItems ?? Infinity, facts.maxItems);
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
    if (facts.nestedEach || (facts.nested && nestedThunk !== undefined))
      items = nestedThunk !== undefined ? resolveNested(site, frame, nestedThunk) : undefined;
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
  // Most DTOs declare no alias: nothing can collide.
  if (properties.every((property) => property.aliases.length === 0)) return;
  const owners = new Map<string, string>();
  for (const property of properties) owners.set(property.name, property.name);
  for (const property of properties) {
    for (const alias of property.aliases) {
      const owner = owners.get(alias);
      if (owner !== undefined && owner !== property.name)
        throw definitionMessages.aliasCollision({ target, property: property.name }, alias, owner);
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
function commandParameters(
  target: string,
  schema: ObjectSchema,
  rules: readonly CrossFieldRule[] | undefined,
): ObjectSchema {
  if (rules === undefined) return schema;
  if (!Array.isArray(rules) || !rules.every(isCrossFieldRule)) {
    throw definitionMessages.invalidCommandOption(
      target,
      'crossFieldRules',
      `${renderValue(rules)} is not an array of cross-field rules`,
      'build them with crossField.exactlyOne(...), atLeastOne(...), notTogether(...) or requires(...).',
    );
  }
  return withCrossFieldRules(schema, rules, target);
}

function suggestedDtoName(commandClass: Function): string {
  return `${commandClass.name.replace(/Command$/, '') || commandClass.name}Params`;
}

/** The parameter DTO of a command: `params`, else `execute`'s first parameter type from TypeScript metadata. */
function commandDto(commandClass: Function, options: CommandOptions): Constructor {
  if (options.params !== undefined) {
    if (!isDtoClass(options.params))
      throw definitionMessages.paramsNotAClass(
        commandClass.name,
        renderValue(options.params),
        suggestedDtoName(commandClass),
      );
    return options.params;
  }
  const parameterTypes = getDesignParamTypes(commandClass.prototype, 'execute');
  const first = parameterTypes?.[0];
  if (first === undefined) throw definitionMessages.noParamsDto(commandClass.name, suggestedDtoName(commandClass));
  if (!isDtoClass(first))
    throw definitionMessages.paramsNotAClass(commandClass.name, designTypeName(first), suggestedDtoName(commandClass));
  return first as Constructor;
}

/** The output schema of a command's `returns` class: its object schema, built like a parameter DTO's. */
function commandOutput(target: string, returns: unknown): ObjectSchema {
  if (!isDtoClass(returns)) {
    throw definitionMessages.invalidCommandOption(
      target,
      'returns',
      `${renderValue(returns)} is not a class`,
      'give the class of the result, decorated like a parameter DTO: @Command({ ..., returns: ResultDto }).',
    );
  }
  return checkedOutput(target, 'returns', resolveObjectSchema(returns as Constructor));
}

/**
 * The tool definition (IR) of a `@Command` class: name, description, parameters (the DTO's object schema), options
 * and source. Resolved once per class and frozen; every problem is a DefinitionError naming the class and the fix.
 * IR only: `buildCommandDefinition` (validation/) also applies toolwright's class-validator rules to its DTOs.
 */
export function resolveCommandDefinition(commandClass: Constructor): ToolDefinition {
  if (typeof commandClass !== 'function') throw definitionMessages.notAClass(renderValue(commandClass));
  const cached = commandDefinitions.get(commandClass);
  if (cached !== undefined) return cached;
  const metadata = getCommandMetadata(commandClass);
  if (metadata === undefined) throw definitionMessages.notACommand(commandClass.name || '(anonymous class)');
  const target = commandClass.name;
  const { options } = metadata;
  if (typeof options.name !== 'string' || options.name.trim().length === 0) {
    throw definitionMessages.invalidCommandOption(
      target,
      'name',
      `${renderValue(options.name)} is not a non-empty string`,
      "give the tool a name: @Command({ name: 'tool_name', ... }).",
    );
  }
  if (typeof options.description !== 'string') {
    throw definitionMessages.invalidCommandOption(
      target,
      'description',
      `${renderValue(options.description)} is not a string`,
      'describe what the tool does for the model: @Command({ description: "...", ... }).',
    );
  }
  if (typeof (commandClass.prototype as { execute?: unknown }).execute !== 'function')
    throw definitionMessages.noExecute(target);
  // The options first (the cheapest check, and the one a message about the DTO would otherwise hide).
  assertToolOptions(options, { origin: '@Command', target });
  checkValidateMethod(commandClass);
  const params = commandDto(commandClass, options);
  const definition = finalizeDefinition(
    {
      name: options.name,
      description: options.description,
      parameters: deepFreeze(commandParameters(target, resolveObjectSchema(params), options.crossFieldRules)),
      options,
      source: { kind: 'class', command: commandClass, params },
      ...(options.returns === undefined ? {} : { output: commandOutput(target, options.returns) }),
    },
    { origin: '@Command', target },
  );
  commandDefinitions.set(commandClass, definition);
  return definition;
}
