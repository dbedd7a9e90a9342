import { getMetadataStorage, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { getValidatorMetadata } from '../metadata/validator-metadata';
import type { ValidatorMetadata } from '../metadata/types';
import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { ValidationIssue } from '../types/execution';
import { describeReceived } from './messages';
import { knownRuleIssue } from './reference-validation';
import { capturedByTheIr, issueRuleOf } from '../rules/class-validator';
import { joinPath } from './keys';
import { fastRuleFor, formatMeantBy } from '../rules/validator-js';

/*
 * The compiled path checks every constraint the IR can say. A developer may also put class-validator rules on a DTO
 * that the IR cannot say (`@IsEmail`, `@Contains`, a custom `@Validate(...)` constraint). Those rules run here, for
 * that class only, straight from class-validator's metadata for the class: its `validate()` would scan every class it
 * knows for each object (the cost grows with the number of DTO classes an app registers).
 *
 * Rules the IR captures exactly (`rules/class-validator.ts`) are not run again. A class that uses `@ValidateIf` (or another rule the compiled path
 * cannot honour before validation) is validated on the reference path instead.
 */

/**
 * The plan's `check` runs synchronously (returns `undefined`) whenever every rule it meets answers synchronously; it returns
 * a Promise only when a custom constraint's `validate` returned one (a `@ValidatorConstraint({ async: true })` class, or
 * one that returns a Promise without declaring it). Callers: `const pending = plan.check(...); if (pending) await pending;`.
 */
export type DeveloperRulesCheck = (instance: object, path: string, issues: ValidationIssue[]) => void | Promise<void>;

/**
 * The plan's check without an issues array to fill: `undefined` when every rule passed (nothing allocated), the issues
 * in rule order when one failed, or a Promise of them (never rejected by the rules' answers; an answer that rejects
 * rejects it) when a rule answered with a Promise. `check` is this, its issues pushed into the caller's array.
 */
export type DeveloperRulesFind = (
  instance: object,
  path: string,
) => ValidationIssue[] | undefined | Promise<ValidationIssue[]>;

export type DeveloperRulesPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'reference'; readonly reason: string }
  | { readonly kind: 'check'; readonly check: DeveloperRulesCheck; readonly find: DeveloperRulesFind };

/** One constraint of one rule, resolved when the plan is built: the function to call and what its failure renders. */
class ResolvedConstraint {
  private taken: ValidatorConstraintInterface | undefined;

  constructor(
    /** The exact fast implementation of a validator.js rule with class-validator's default options, when there is one. */
    readonly fast: ((value: unknown) => boolean) | undefined,
    private readonly metadata: { readonly instance: ValidatorConstraintInterface },
    readonly name: string | undefined,
  ) {
    if (fast === undefined) this.taken = metadata.instance;
  }

  /**
   * The constraint's instance, from class-validator's container (which makes one per constraint class and keeps it
   * for the life of the process: about 200 bytes, each `@IsEmail()` having a class of its own). A constraint with a
   * fast implementation needs it only to render a failure: it is taken then (valid values never need it).
   */
  get instance(): ValidatorConstraintInterface {
    return (this.taken ??= this.metadata.instance);
  }
}

interface ResolvedRule {
  readonly rule: ValidatorMetadata;
  readonly constraints: readonly ResolvedConstraint[];
  /**
   * The whole rule as one synchronous check, when it is one constraint with a fast implementation (the common
   * `@IsEmail()`, and `@IsEmail({}, { each: true })` on an array): the walk calls it inline and builds the issue only
   * when it says no.
   */
  readonly only: ResolvedConstraint | undefined;
  /** The rule's `each` option (read once here: the walk asks it for every value). */
  readonly each: boolean;
}

interface PropertyRules {
  readonly name: string;
  readonly rules: readonly ResolvedRule[];
  readonly optional: boolean;
  readonly schema: ParamSchema | undefined;
}

interface NestedProperty {
  readonly name: string;
  readonly plan: CheckPlan;
}

/** One DTO class's rules: data, walked by `runPlan` (the one implementation of running them). */
interface CheckPlan {
  readonly targetName: string;
  readonly ownRules: readonly PropertyRules[];
  readonly nested: readonly NestedProperty[];
}

type RuleOutcome = ValidationIssue | undefined | Promise<ValidationIssue | undefined>;

/**
 * Where one call's issues go: straight into `issues` until a rule answers with a Promise, then in order into `slots`.
 * Made by the first rule that fails (a call whose rules all pass allocates none): the walk passes it along as
 * `undefined` until then and returns the one it ends with.
 */
interface Sink {
  readonly issues: ValidationIssue[];
  slots: RuleOutcome[] | undefined;
}

/** How rules are run: the fast implementations where they exist (the executor), or class-validator's every time (tests). */
export type RuleImplementations = 'fast' | 'class-validator';

const plans = new WeakMap<ObjectSchema, DeveloperRulesPlan>();
/** One shared answer for every schema without developer rules (most of them: every JSON-Schema tool). */
const NO_RULES: DeveloperRulesPlan = Object.freeze({ kind: 'none' });

export function developerRulesPlan(schema: ObjectSchema): DeveloperRulesPlan {
  let plan = plans.get(schema);
  if (!plan) {
    const built = buildPlan(schema, new Set(), 'fast', true);
    plan = built.kind === 'check' ? checkPlanFor(built.plan) : built.kind === 'none' ? NO_RULES : built;
    plans.set(schema, plan);
  }
  return plan;
}

/**
 * The plan's `find` for `schema` built afresh, with the fast rule implementations or with class-validator's own
 * constraint for every rule (the oracle of the developer-rules differential test; the executor uses
 * `developerRulesPlan`, which caches the fast one).
 */
export function developerRulesFindFor(
  schema: ObjectSchema,
  implementations: RuleImplementations,
): DeveloperRulesFind | undefined {
  const built = buildPlan(schema, new Set(), implementations);
  return built.kind === 'check' ? findWith(built.plan) : undefined;
}

/** {@link developerRulesFindFor} filling the caller's array (the form `DeveloperRulesPlan.check` has). */
export function developerRulesCheckFor(
  schema: ObjectSchema,
  implementations: RuleImplementations,
): DeveloperRulesCheck | undefined {
  const find = developerRulesFindFor(schema, implementations);
  return find === undefined ? undefined : checkWith(find);
}

function nestedObject(schema: ParamSchema): ObjectSchema | undefined {
  if (schema.kind === 'object' && schema.dto) return schema;
  if (schema.kind === 'array' && schema.items.kind === 'object' && schema.items.dto) return schema.items;
  return undefined;
}

const NO_NESTED_RULES: readonly NestedProperty[] = Object.freeze([]);

type BuiltPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'reference'; readonly reason: string }
  | { readonly kind: 'check'; readonly plan: CheckPlan };

function resolveRule(rule: ValidatorMetadata, implementations: RuleImplementations): ResolvedRule {
  const constraints = getMetadataStorage()
    .getTargetValidatorConstraints(rule.constraintClass!)
    .map(
      (constraint) =>
        new ResolvedConstraint(
          implementations === 'fast' ? fastRuleFor(rule.name, rule.constraints) : undefined,
          constraint,
          constraint.name,
        ),
    );
  const only = constraints.length === 1 && constraints[0]!.fast !== undefined ? constraints[0] : undefined;
  return { rule, constraints, only, each: rule.each === true };
}

/**
 * Whether the compiled path already checks `rule` exactly, so the executor's plan leaves it out: a format rule with
 * default options (`@IsEmail()`, `@IsUUID()`, each or not) whose format the property's schema (its items, for `each`)
 * carries, and whose fast implementation is that format's one definition (`rules/validator-js.ts`; a validator.js of
 * another version keeps class-validator's rule, run here). Without this, each such value would be checked twice.
 */
function enforcedAsFormat(rule: ValidatorMetadata, schema: ObjectSchema): boolean {
  const format = rule.name === undefined ? undefined : formatMeantBy(rule.name, rule.constraints);
  if (format === undefined || fastRuleFor(rule.name, rule.constraints) === undefined) return false;
  const property = schema.properties.find((candidate) => candidate.name === rule.propertyName)?.schema;
  const target = rule.each ? (property?.kind === 'array' ? property.items : undefined) : property;
  return target?.kind === 'string' && target.format === format;
}

function buildPlan(
  schema: ObjectSchema,
  visiting: Set<ObjectSchema>,
  implementations: RuleImplementations = 'fast',
  /** The executor's plan: rules the compiled path enforces as a format are left out ({@link enforcedAsFormat}). */
  executor = false,
): BuiltPlan {
  if (!schema.dto || visiting.has(schema)) return { kind: 'none' };
  visiting.add(schema);
  const ownRules: PropertyRules[] = [];
  const byProperty = new Map<string, ResolvedRule[]>();
  for (const rule of getValidatorMetadata(schema.dto, { developerRulesOnly: true })) {
    if (rule.type === 'conditionalValidation' && rule.name !== 'isOptional') {
      return { kind: 'reference', reason: `${schema.dto.name}.${rule.propertyName} uses @ValidateIf` };
    }
    if (rule.type === 'customValidation' && !capturedByTheIr(rule.name ?? '')) {
      if (executor && enforcedAsFormat(rule, schema)) continue;
      if (!rule.constraintClass)
        return {
          kind: 'reference',
          reason: `${schema.dto.name}.${rule.propertyName} has a rule without a constraint class`,
        };
      const resolved = resolveRule(rule, implementations);
      const list = byProperty.get(rule.propertyName);
      if (list === undefined) byProperty.set(rule.propertyName, [resolved]);
      else list.push(resolved);
    } else if (
      !['customValidation', 'conditionalValidation', 'nestedValidation', 'whitelistValidation', 'isDefined'].includes(
        rule.type,
      )
    ) {
      return { kind: 'reference', reason: `${schema.dto.name}.${rule.propertyName} uses a ${rule.type} rule` };
    }
  }
  for (const [name, rules] of byProperty) {
    const property = schema.properties.find((candidate) => candidate.name === name);
    ownRules.push({
      name,
      // Right-sized (a list grown by `push` keeps room for 16 more); the plan lives as long as its tool.
      rules: rules.length === 1 ? rules : rules.slice(),
      optional: property ? !property.required : true,
      schema: property?.schema,
    });
  }
  const nested: NestedProperty[] = [];
  for (const property of schema.properties) {
    const child = nestedObject(property.schema);
    if (!child) continue;
    const built = buildPlan(child, visiting, implementations, executor);
    if (built.kind === 'reference') return built;
    if (built.kind === 'check') nested.push({ name: property.name, plan: built.plan });
  }
  visiting.delete(schema);
  if (ownRules.length === 0 && nested.length === 0) return { kind: 'none' };
  return {
    kind: 'check',
    plan: {
      targetName: schema.dto.name,
      ownRules: ownRules.slice(),
      nested: nested.length === 0 ? NO_NESTED_RULES : nested.slice(),
    },
  };
}

function checkPlanFor(plan: CheckPlan): DeveloperRulesPlan {
  return new CheckingPlan(findWith(plan));
}

/**
 * A plan with rules: `find` (what the executor calls) made once; `check`, its form that fills the caller's array, made
 * when it is read (most plans never are: a closure and its context less per tool that keeps its plan).
 */
class CheckingPlan {
  readonly kind = 'check';

  constructor(readonly find: DeveloperRulesFind) {}

  get check(): DeveloperRulesCheck {
    return checkWith(this.find);
  }
}

function findWith(plan: CheckPlan): DeveloperRulesFind {
  return (instance, path) => {
    const sink = runPlan(plan, instance as Record<string, unknown>, path, undefined, -1, undefined);
    if (sink === undefined) return undefined;
    const slots = sink.slots;
    if (slots === undefined) return sink.issues;
    const issues = sink.issues;
    // A rule answered with a Promise: keep the issues in rule order (the order the synchronous run would give).
    // eslint-disable-next-line @typescript-eslint/await-thenable -- a slot holds a rule's answer: a boolean or a Promise of one
    return Promise.all(slots).then((outcomes) => {
      for (const outcome of outcomes) if (outcome) issues.push(outcome);
      return issues;
    });
  };
}

/** `find` filling the caller's array (the form the tests and the reference of the differential tests call). */
function checkWith(find: DeveloperRulesFind): DeveloperRulesCheck {
  return (instance, path, issues) => {
    const found = find(instance, path);
    if (found === undefined) return undefined;
    if (!(found instanceof Promise)) {
      for (const issue of found) issues.push(issue);
      return undefined;
    }
    return found.then((settled) => {
      for (const issue of settled) issues.push(issue);
    });
  };
}

/** Records one rule's outcome; the sink is made by the first outcome that is not a pass. */
function emit(sink: Sink | undefined, outcome: RuleOutcome): Sink | undefined {
  if (outcome === undefined) return sink;
  const to = sink ?? { issues: [], slots: undefined };
  if (to.slots === undefined) {
    if (!(outcome instanceof Promise)) {
      to.issues.push(outcome);
      return to;
    }
    to.slots = [];
  }
  to.slots.push(outcome);
  return to;
}

/**
 * `record` is member `name` (`undefined`: none) of the value at `path`, or item `index` of that member (`index` >= 0):
 * its own path is joined only when an issue or a nested record below it needs it, so a valid call builds no path
 * strings. Plain indexed loops over the plan's arrays (no iterator objects on the walk).
 */
function runPlan(
  plan: CheckPlan,
  record: Record<string, unknown>,
  path: string,
  name: string | undefined,
  index: number,
  from: Sink | undefined,
): Sink | undefined {
  let sink = from;
  const ownRules = plan.ownRules;
  for (let propertyIndex = 0; propertyIndex < ownRules.length; propertyIndex++) {
    const property = ownRules[propertyIndex]!;
    const value = record[property.name];
    if ((value === undefined || value === null) && property.optional) continue;
    const rules = property.rules;
    for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
      const resolved = rules[ruleIndex]!;
      const only = resolved.only;
      // One fast constraint: what runRule would do, without its loops (nothing is built on a pass).
      if (only !== undefined) {
        if (!resolved.each) {
          if (!only.fast!(value))
            sink = emit(
              sink,
              failure(only, resolved.rule, plan, property, record, value, value, -1, path, name, index),
            );
          continue;
        }
        if (Array.isArray(value)) {
          // `each` over an array: the first item that fails is the rule's issue (a Set or a Map takes runRule).
          for (let item = 0; item < value.length; item++) {
            const entry: unknown = value[item];
            if (!only.fast!(entry)) {
              sink = emit(
                sink,
                failure(only, resolved.rule, plan, property, record, value, entry, item, path, name, index),
              );
              break;
            }
          }
          continue;
        }
      }
      sink = emit(sink, runRule(resolved, plan, property, record, value, path, name, index));
    }
  }
  const nested = plan.nested;
  if (nested.length === 0) return sink;
  let recordPath: string | undefined;
  for (let childIndex = 0; childIndex < nested.length; childIndex++) {
    const child = nested[childIndex]!;
    const value = record[child.name];
    if (typeof value !== 'object' || value === null) continue;
    recordPath ??= pathOf(path, name, index);
    if (Array.isArray(value)) {
      for (let item = 0; item < value.length; item++) {
        const entry: unknown = value[item];
        if (typeof entry === 'object' && entry !== null)
          sink = runPlan(child.plan, entry as Record<string, unknown>, recordPath, child.name, item, sink);
      }
    } else sink = runPlan(child.plan, value as Record<string, unknown>, recordPath, child.name, -1, sink);
  }
  return sink;
}

/** The path of a record the walk visits: member `name` of the value at `path`, or item `index` of it. */
function pathOf(path: string, name: string | undefined, index: number): string {
  const member = name === undefined ? path : joinPath(path, name);
  return index < 0 ? member : joinPath(member, index);
}

/**
 * One rule on one value: the first failing (constraint, item) pair's issue, or `undefined`. Synchronous unless a
 * constraint answers with a Promise; then the remaining pairs still run (as class-validator runs them) and the issue is
 * the first failure in order once they settle.
 */
function runRule(
  resolved: ResolvedRule,
  plan: CheckPlan,
  property: PropertyRules,
  object: object,
  value: unknown,
  path: string,
  name: string | undefined,
  index: number,
): RuleOutcome {
  const targetName = plan.targetName;
  const rule = resolved.rule;
  const each = rule.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
  let pending:
    | Array<{
        readonly constraint: ResolvedConstraint;
        readonly item: unknown;
        /** The item's index in an array (`-1`: the whole value, or an item of a Set or a Map). */
        readonly at: number;
        readonly valid: boolean | Promise<boolean>;
      }>
    | undefined;
  for (const constraint of resolved.constraints) {
    if (!each) {
      const valid = validateOne(constraint, rule, targetName, property.name, object, value);
      if (valid === true) continue;
      if (valid === false && pending === undefined)
        return failure(constraint, rule, plan, property, object, value, value, -1, path, name, index);
      (pending ??= []).push({ constraint, item: value, at: -1, valid });
      if (valid === false) break;
      continue;
    }
    const items = Array.isArray(value)
      ? value
      : [...(value instanceof Map ? (value as Map<unknown, unknown>).values() : (value as Set<unknown>))];
    let failed = false;
    const indexed = Array.isArray(value);
    for (let at = 0; at < items.length; at++) {
      const item: unknown = items[at];
      const valid = validateOne(constraint, rule, targetName, property.name, object, item);
      if (valid === true) continue;
      const itemIndex = indexed ? at : -1;
      if (valid === false && pending === undefined)
        return failure(constraint, rule, plan, property, object, value, item, itemIndex, path, name, index);
      (pending ??= []).push({ constraint, item, at: itemIndex, valid });
      if (valid === false) {
        failed = true;
        break;
      }
    }
    if (failed) break;
  }
  if (pending === undefined) return undefined;
  const settled = pending;
  // eslint-disable-next-line @typescript-eslint/await-thenable -- a rule's answer: a boolean or a Promise of one
  return Promise.all(settled.map((entry) => entry.valid)).then((answers) => {
    const first = answers.findIndex((answer) => !answer);
    if (first < 0) return undefined;
    const entry = settled[first]!;
    return failure(entry.constraint, rule, plan, property, object, value, entry.item, entry.at, path, name, index);
  });
}

/** `true`/`false`, or a Promise from an asynchronous constraint. A truthy non-boolean answer counts as valid (as before). */
function validateOne(
  constraint: ResolvedConstraint,
  rule: ValidatorMetadata,
  targetName: string,
  property: string,
  object: object,
  item: unknown,
): boolean | Promise<boolean> {
  if (constraint.fast !== undefined) return constraint.fast(item);
  const answer: unknown = constraint.instance.validate(item, {
    targetName,
    property,
    object,
    value: item,
    constraints: [...rule.constraints],
  });
  if (answer instanceof Promise) return answer.then((settled: unknown) => !!settled);
  return !!answer;
}

function failure(
  constraint: ResolvedConstraint,
  rule: ValidatorMetadata,
  plan: CheckPlan,
  propertyRules: PropertyRules,
  object: object,
  value: unknown,
  item: unknown,
  itemIndex: number,
  path: string,
  member: string | undefined,
  index: number,
): ValidationIssue {
  const targetName = plan.targetName;
  const property = propertyRules.name;
  const args: ValidationArguments = { targetName, property, object, value: item, constraints: [...rule.constraints] };
  // The same issue the reference path renders for this rule: a known rule through the shared table, else its message.
  const name = rule.name ?? constraint.name ?? 'custom';
  const known = issueRuleOf(name);
  const childPath = joinPath(pathOf(path, member, index), property);
  if (known && propertyRules.schema) return knownRuleIssue(childPath, known, propertyRules.schema, value, itemIndex);
  const text = renderMessage(
    rule.message ?? constraint.instance.defaultMessage?.(args) ?? `${property} is invalid`,
    args,
  );
  return {
    path: childPath,
    rule: name,
    expected: text,
    received: describeReceived(item),
    message: `"${childPath}" is invalid: ${text}.`,
  };
}

/** class-validator's message tokens: `$property`, `$value`, `$target`, `$constraint1`... */
function renderMessage(message: unknown, args: ValidationArguments): string {
  const text =
    typeof message === 'function' ? String((message as (args: ValidationArguments) => unknown)(args)) : String(message);
  return text
    .replace(/\$constraint(\d+)/g, (_, index: string) => String(args.constraints[Number(index) - 1]))
    .replace(/\$property/g, args.property)
    .replace(/\$target/g, args.targetName)
    .replace(/\$value/g, String(args.value));
}
