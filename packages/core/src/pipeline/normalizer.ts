import type {
  ArraySchema,
  CoercionPolicy,
  ContextKey,
  ObjectSchema,
  ParamSchema,
  PropertyDefinition,
  UnionSchema,
} from '../types/schema';
import type { Transformation, ValidationIssue } from '../types/execution';
import type { PipelineLimits } from './limits';
import { describeExpected, describeReceived, issue, messages } from './messages';
import { readEmbeddedValue } from './parse-arguments';
import { containsUnsafeInteger, isUnsafeIntegerLiteral } from '../rules/unsafe-integer';
import { DANGEROUS_KEYS } from './sanitize';
import { canonicalKey, joinPath } from './keys';
import { deepEqual } from './deep-equal';
import { constraintChecks, constraintHolds, type ConstraintMode } from './constraints';
import { patternSubjectTooLong } from '../schema/pattern-engine';
import {
  decideUnknownKey,
  droppedUnknownKey,
  MAX_LISTED_UNKNOWN_KEYS,
  summarizeUnknownKeys,
  unknownKeyIssue,
} from '../rules/unknown-keys';
import type { RuleOutcome } from '../rules/outcome';
import { toStringValue } from '../rules/string';
import { toInteger } from '../rules/integer';
import { toFloat } from '../rules/number';
import { toBoolean } from '../rules/boolean';
import { toDate } from '../rules/date';
import { toDateTime } from '../rules/date-time';
import { matchEnum } from '../rules/enum';

export type { ConstraintMode } from './constraints';

/** Options of one normalization run. */
export interface NormalizeOptions {
  /** IANA zone from the trusted context: date-times without an offset get this zone's offset. */
  readonly timeZone?: string;
  /** Whether `resolve_relative_date` is registered (the refusal message for relative dates points to it). */
  readonly relativeDateTool: boolean;
  readonly limits: PipelineLimits;
}

/**
 * The model tried to set a trusted context field (`context-override`), sent a context name nested inside a free-form
 * object (`nested-context-name`), or a key that imitates one (`look-alike-context-key`: fullwidth, other scripts,
 * invisible characters). None of them ever sets context.
 */
export interface SecurityEvent {
  readonly kind: 'context-override' | 'nested-context-name' | 'look-alike-context-key';
  readonly path: string;
  readonly key: string;
  readonly contextKey?: string; // a ContextKey, or a context field a tool declares itself
}

/** What one run collects: every change, every refusal, every attempt at trusted context. */
export class NormalizeState {
  readonly transformations: Transformation[] = [];
  readonly issues: ValidationIssue[] = [];
  readonly securityEvents: SecurityEvent[] = [];

  constructor(readonly options: NormalizeOptions) {}

  fork(): NormalizeState {
    return new NormalizeState(this.options);
  }

  absorb(other: NormalizeState): void {
    this.transformations.push(...other.transformations);
    this.issues.push(...other.issues);
    this.securityEvents.push(...other.securityEvents);
  }
}

/** Returned by a normalizer for a value it refused (an issue was recorded). */
export const INVALID: unique symbol = Symbol('toolwright.invalid');
/** Returned by an object normalizer for a property that is absent after normalization. */
export type Normalizer = (value: unknown, path: string, state: NormalizeState) => unknown;

const RESERVED_CONTEXT_KEYS: ReadonlyMap<string, ContextKey> = new Map(
  (['session_id', 'job_id', 'flow_step_id', 'source_url', 'image_url', 'handler_config', 'persona'] as const).map(
    (key) => [canonicalKey(key), key],
  ),
);

const cache = new WeakMap<ParamSchema, Partial<Record<`${CoercionPolicy}:${ConstraintMode}`, Normalizer>>>();

/**
 * Pipeline step 4: compile, once per schema node and policy, a normalizer for the values of that node.
 * The compiled closures are cached on the IR object, so recursive schemas compile once and the hot path
 * does no lookups by name.
 */
export function compileNormalizer(
  schema: ParamSchema,
  inheritedPolicy: CoercionPolicy,
  constraints: ConstraintMode = 'types',
): Normalizer {
  const policy = schema.policy ?? inheritedPolicy;
  const key = `${policy}:${constraints}` as const;
  let byPolicy = cache.get(schema);
  const cached = byPolicy?.[key];
  if (cached) return cached;
  // eslint-disable-next-line prefer-const -- assigned after the cache entry exists, so a recursive schema finds it while it is built
  let implementation: Normalizer | undefined;
  const normalizer: Normalizer = (value, path, state) => implementation!(value, path, state);
  if (!byPolicy) cache.set(schema, (byPolicy = {}));
  byPolicy[key] = normalizer;
  implementation = buildNormalizer(schema, policy, constraints);
  return normalizer;
}

function buildNormalizer(schema: ParamSchema, policy: CoercionPolicy, constraints: ConstraintMode): Normalizer {
  const coerce = policy !== 'strict';
  let base: Normalizer;
  switch (schema.kind) {
    case 'string':
      base = scalar(schema, coerce, (value) => toStringValue(value, coerce));
      break;
    case 'int':
      base = scalar(schema, coerce, (value) => toInteger(value, coerce));
      break;
    case 'float':
      base = scalar(schema, coerce, (value) => toFloat(value, coerce));
      break;
    case 'bool':
      base = scalar(schema, coerce, (value) => toBoolean(value, coerce));
      break;
    case 'date':
      base = scalar(schema, coerce, (value) => (coerce ? toDate(value) : strictly(toDate(value), value)));
      break;
    case 'datetime':
      base = scalar(schema, coerce, (value, state) =>
        toDateTime(value, { reformat: coerce, timeZone: coerce ? state.options.timeZone : undefined }),
      );
      break;
    case 'array':
      base = arrayNormalizer(schema, policy, constraints);
      break;
    case 'object':
      base = objectNormalizer(schema, policy, constraints);
      break;
    case 'union':
      base = unionNormalizer(schema, policy, constraints);
      break;
    case 'any':
      base = (value, path, state) => {
        if (!containsUnsafeInteger(value)) return value;
        state.issues.push(issue(path, 'type', undefined, value, messages.unsafeInteger(path)));
        return INVALID;
      };
      break;
  }
  if (constraints === 'all') base = withConstraints(schema, base);
  if (schema.kind === 'union' || schema.kind === 'any') return base;
  return schema.nullable ? (value, path, state) => (value === null ? null : base(value, path, state)) : base;
}

/** Under `strict`, a rule may accept a value but never change it. */
function strictly(outcome: RuleOutcome, original: unknown): RuleOutcome {
  return outcome.ok && outcome.rule ? { ok: false } : outcome.ok ? { ok: true, value: original } : outcome;
}

function scalar(
  schema: ParamSchema,
  coerce: boolean,
  rule: (value: unknown, state: NormalizeState) => RuleOutcome,
): Normalizer {
  const allowed = schema.enum;
  return (value, path, state) => {
    const outcome = rule(value, state);
    if (!outcome.ok) {
      refuse(schema, path, state, value, outcome.reason, outcome.relative);
      return INVALID;
    }
    let result = outcome.value;
    if (outcome.rule) state.transformations.push({ path, rule: outcome.rule, from: value, to: result });
    if (allowed) {
      const enumOutcome = matchEnum(result, allowed, coerce);
      if (!enumOutcome.ok) {
        state.issues.push(issue(path, 'enum', schema, value));
        return INVALID;
      }
      if (enumOutcome.rule)
        state.transformations.push({ path, rule: enumOutcome.rule, from: result, to: enumOutcome.value });
      result = enumOutcome.value;
    }
    return result;
  };
}

function refuse(
  schema: ParamSchema,
  path: string,
  state: NormalizeState,
  value: unknown,
  reason?: string,
  relative?: boolean,
): void {
  const name = path === '' ? 'The arguments' : `"${path}"`;
  let detail = `${name} must be ${describeExpected(schema)}, but received ${describeReceived(value)}${reason ? `: ${reason}` : ''}.`;
  if (relative) detail += messages.relativeDateHint(state.options.relativeDateTool);
  const rule = value === null || value === undefined ? 'required' : relative ? 'relative-date' : 'type';
  state.issues.push(issue(path, rule, schema, value, detail));
}

function arrayNormalizer(schema: ArraySchema, policy: CoercionPolicy, constraints: ConstraintMode): Normalizer {
  const coerce = policy !== 'strict';
  const lenient = policy === 'lenient';
  const itemNormalizer = compileNormalizer(schema.items, policy, constraints);
  const itemsAreScalars =
    schema.items.kind !== 'object' && schema.items.kind !== 'array' && schema.items.kind !== 'union';
  return (value, path, state) => {
    let array: unknown[];
    if (Array.isArray(value)) array = value;
    else if (!coerce || value === null || value === undefined) {
      refuse(schema, path, state, value);
      return INVALID;
    } else if (typeof value === 'string' && value.trim().startsWith('[')) {
      const parsed = parseEmbedded(value, path, state);
      if (!parsed.ok || !Array.isArray(parsed.value)) {
        refuse(
          schema,
          path,
          state,
          value,
          `it looks like a JSON array but could not be read as one${parsed.ok ? '' : ` (${parsed.reason})`}`,
        );
        return INVALID;
      }
      state.transformations.push({ path, rule: 'json-string-to-array', from: value, to: parsed.value });
      array = parsed.value;
    } else if (lenient && itemsAreScalars && typeof value === 'string' && value.includes(',')) {
      array = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      state.transformations.push({ path, rule: 'comma-separated-to-array', from: value, to: array });
    } else {
      array = [value];
      state.transformations.push({ path, rule: 'single-to-array', from: value, to: array });
    }
    if (array.length > state.options.limits.maxArrayItems) {
      state.issues.push(
        issue(
          path,
          'max-items',
          schema,
          value,
          messages.tooManyItems(path, state.options.limits.maxArrayItems, array.length),
        ),
      );
      return INVALID;
    }
    const output = new Array<unknown>(array.length);
    for (let index = 0; index < array.length; index++) {
      const item = array[index];
      const normalized = itemNormalizer(item, `${path}[${index}]`, state);
      output[index] = normalized === INVALID ? keptAsSent(item) : normalized;
    }
    return output;
  };
}

/** Containers above the value at `path` (the arguments object counts as one). */
function depthOf(path: string): number {
  if (path === '') return 0;
  let depth = 1;
  for (let index = 0; index < path.length; index++) {
    const code = path.charCodeAt(index);
    if (code === 46 /* . */ || code === 91 /* [ */) depth++;
  }
  return depth;
}

/**
 * A JSON (or Python-literal) array or object inside a string, read by the arguments reader with the same walk:
 * dangerous keys dropped and recorded, nesting counted from where the string sits, array sizes checked.
 */
function parseEmbedded(
  text: string,
  path: string,
  state: NormalizeState,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string } {
  const read = readEmbeddedValue(text, state.options.limits, path, depthOf(path));
  if (!read.ok) return read;
  for (const record of read.records) state.transformations.push(record);
  return { ok: true, value: read.value };
}

interface CompiledProperty {
  /** Position in the object's property list (the index of its slot in `seen`). */
  readonly index: number;
  readonly definition: PropertyDefinition;
  readonly normalize: Normalizer;
  /** Required from the model: context fields never are, extracted fields are checked after extraction. */
  readonly requiredFromModel: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isUnsafeIntegerLiteral(value);
}

function objectNormalizer(schema: ObjectSchema, policy: CoercionPolicy, constraints: ConstraintMode): Normalizer {
  const coerce = policy !== 'strict';
  const lenient = policy === 'lenient';
  const properties: CompiledProperty[] = schema.properties.map((definition, index) => ({
    index,
    definition,
    normalize: compileNormalizer(definition.schema, policy, constraints),
    requiredFromModel: definition.required && !definition.context && !definition.extract,
  }));
  const exact = new Map<string, CompiledProperty>();
  const aliases = new Map<string, CompiledProperty>();
  const canonical = new Map<string, CompiledProperty | null>();
  for (const property of properties) {
    exact.set(property.definition.name, property);
    for (const alias of property.definition.aliases) aliases.set(alias, property);
    for (const name of [property.definition.name, ...property.definition.aliases]) {
      const key = canonicalKey(name);
      const existing = canonical.get(key);
      canonical.set(key, existing === undefined || existing === property ? property : null);
    }
  }
  const extra = schema.additionalProperties;
  const extraNormalizer = typeof extra === 'object' ? compileNormalizer(extra, policy, constraints) : undefined;
  const stringProperties = properties.filter(
    (property) => !property.definition.context && property.definition.schema.kind === 'string',
  );

  return (value, path, state) => {
    let object: Record<string, unknown>;
    if (isPlainObject(value)) object = value;
    else if (coerce && typeof value === 'string') {
      const parsed = objectFromString(value, lenient, stringProperties, path, state);
      if (!parsed.ok) {
        refuse(schema, path, state, value, parsed.reason);
        return INVALID;
      }
      state.transformations.push({ path, rule: parsed.rule, from: value, to: parsed.value });
      object = parsed.value;
    } else {
      refuse(schema, path, state, value);
      return INVALID;
    }

    const output: Record<string, unknown> = {};
    // The key each property was given under, by property index.
    const seen = new Array<string | undefined>(properties.length);
    // Keys that match no property, for the near-miss check once every key is known.
    const unknown: string[] = [];
    const accept = (key: string, raw: unknown, property: CompiledProperty, rule: string | undefined): void => {
      const name = property.definition.name;
      const childPath = joinPath(path, name);
      if (property.definition.context) {
        state.securityEvents.push({
          kind: 'context-override',
          path: childPath,
          key,
          contextKey: property.definition.context,
        });
        state.transformations.push({ path: childPath, rule: 'dropped-context-field', from: raw, to: undefined });
        return;
      }
      if (rule) state.transformations.push({ path: childPath, rule, from: key, to: name });
      const previousKey = seen[property.index];
      if (previousKey !== undefined) {
        if (deepEqual(object[previousKey], raw)) {
          state.transformations.push({ path: childPath, rule: 'duplicate-key', from: key, to: undefined });
        } else {
          state.issues.push(
            issue(
              childPath,
              'duplicate-key',
              property.definition.schema,
              raw,
              `"${childPath}" was given twice, as "${previousKey}" and as "${key}", with different values; send it once.`,
            ),
          );
        }
        return;
      }
      seen[property.index] = key;
      if (raw === null && !property.definition.schema.nullable) {
        if (property.requiredFromModel || !coerce) {
          refuse(property.definition.schema, childPath, state, raw);
        } else {
          state.transformations.push({ path: childPath, rule: 'null-as-absent', from: null, to: undefined });
        }
        return;
      }
      const normalized = property.normalize(raw, childPath, state);
      output[name] = normalized === INVALID ? keptAsSent(raw) : normalized;
    };
    // Unknown keys past a cap are counted, not recorded one by one (120,000 keys: one summary, not 120,000 lines).
    let unknownKeys = 0;
    for (const key of Object.keys(object)) {
      const raw = object[key];
      let property = exact.get(key);
      let rule: string | undefined;
      if (!property && (property = aliases.get(key))) rule = 'alias-key';
      if (!property && coerce) {
        const match = canonical.get(canonicalKey(key));
        if (match) {
          property = match;
          rule = 'key-case';
        }
      }
      if (!property) {
        const contextKey = RESERVED_CONTEXT_KEYS.get(canonicalKey(key));
        if (contextKey) {
          state.securityEvents.push({ kind: 'context-override', path: joinPath(path, key), key, contextKey });
          state.transformations.push({
            path: joinPath(path, key),
            rule: 'dropped-context-field',
            from: raw,
            to: undefined,
          });
          continue;
        }
        if (extra === false) {
          if (coerce) unknown.push(key);
          else if (++unknownKeys <= MAX_LISTED_UNKNOWN_KEYS)
            state.issues.push(unknownKeyIssue(schema, joinPath(path, key), key));
          continue;
        }
        const normalized = extraNormalizer ? extraNormalizer(raw, joinPath(path, key), state) : raw;
        if (!extraNormalizer && containsUnsafeInteger(raw)) {
          state.issues.push(
            issue(joinPath(path, key), 'type', undefined, raw, messages.unsafeInteger(joinPath(path, key))),
          );
        }
        defineOwn(output, key, normalized === INVALID ? raw : normalized);
        continue;
      }
      accept(key, raw, property, rule);
    }
    // Once every key is known: a key that reads as a parameter the call did not send is repaired or refused, never
    // dropped (dropping it would run the handler without a value the model meant); any other is dropped.
    const isSent = unknown.length === 0 ? undefined : (index: number): boolean => seen[index] !== undefined;
    for (const key of unknown) {
      const raw = object[key];
      const where = joinPath(path, key);
      const decision = decideUnknownKey(key, where, schema.properties, isSent!, policy);
      if (decision.kind === 'repair') accept(key, raw, properties[decision.index]!, decision.rule);
      else if (decision.kind === 'refuse') state.issues.push(decision.issue);
      else if (++unknownKeys <= MAX_LISTED_UNKNOWN_KEYS) state.transformations.push(droppedUnknownKey(where, raw));
    }
    if (unknownKeys > MAX_LISTED_UNKNOWN_KEYS)
      summarizeUnknownKeys(state, path, unknownKeys - MAX_LISTED_UNKNOWN_KEYS, coerce, schema);
    for (const property of properties) {
      if (property.requiredFromModel && seen[property.index] === undefined)
        state.issues.push(requiredPropertyIssue(joinPath(path, property.definition.name), property.definition.schema));
    }
    return output;
  };
}

/** The issue of a required property the model did not send. */
export function requiredPropertyIssue(path: string, schema: ParamSchema): ValidationIssue {
  return issue(path, 'required', schema, undefined, `"${path}" is required: send ${describeExpected(schema)}.`);
}

/** A refused value as it stays in the output (the call fails; validation on the reference path still reads it). */
function keptAsSent(raw: unknown): unknown {
  return isUnsafeIntegerLiteral(raw) ? raw.text : raw;
}

/** Assigns a model-chosen key as an own data property (a `__proto__` key never reaches the prototype setter). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

type StringObjectOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown>; readonly rule: string }
  | { readonly ok: false; readonly reason?: string };

function objectFromString(
  text: string,
  lenient: boolean,
  stringProperties: readonly CompiledProperty[],
  path: string,
  state: NormalizeState,
): StringObjectOutcome {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const parsed = parseEmbedded(trimmed, path, state);
    if (!parsed.ok) return parsed;
    return isPlainObject(parsed.value)
      ? { ok: true, value: parsed.value, rule: 'json-string-to-object' }
      : { ok: false };
  }
  if (!lenient) return { ok: false };
  // Seed 000's heuristics, lenient only: "k=v, k2=v2" and "Label: description".
  const pairs = trimmed
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (pairs.length > 0 && pairs.every((pair) => /^[^=]+=[^=]*$/.test(pair))) {
    const value: Record<string, unknown> = {};
    for (const pair of pairs) {
      const [key, ...rest] = pair.split('=');
      const name = key!.trim();
      if (DANGEROUS_KEYS.has(name)) continue;
      defineOwn(value, name, rest.join('=').trim());
    }
    return { ok: true, value, rule: 'key-value-string-to-object' };
  }
  const colon = trimmed.indexOf(':');
  if (colon > 0 && stringProperties.length >= 2) {
    const [first, second] = stringProperties;
    return {
      ok: true,
      value: {
        [first!.definition.name]: trimmed.slice(0, colon).trim(),
        [second!.definition.name]: trimmed.slice(colon + 1).trim(),
      },
      rule: 'labelled-string-to-object',
    };
  }
  return { ok: false };
}

/**
 * A union takes the first variant whose whole rule (its type and its constraints, `rules/`) holds, exactly as sent,
 * then the first that holds after its repairs. The variants are checked with their constraints on every path
 * (`'all'`, whatever `constraints` says): the reference path's class-validator can only re-check the value chosen, so
 * choosing by type alone there would keep `"1"` as a string too short for `{minLength: 3}` where the compiled path
 * reads it as the integer variant.
 */
function unionNormalizer(schema: UnionSchema, policy: CoercionPolicy, _constraints: ConstraintMode): Normalizer {
  const exactVariants = schema.variants.map((variant) => compileNormalizer(variant, 'strict', 'all'));
  const coercingVariants =
    policy === 'strict' ? [] : schema.variants.map((variant) => compileNormalizer(variant, policy, 'all'));
  return (value, path, state) => {
    if (value === null && schema.nullable) return null;
    for (const variant of exactVariants) {
      const trial = state.fork();
      const result = variant(value, path, trial);
      if (trial.issues.length === 0 && trial.transformations.length === 0) {
        state.absorb(trial);
        return result;
      }
    }
    for (const variant of coercingVariants) {
      const trial = state.fork();
      const result = variant(value, path, trial);
      if (trial.issues.length === 0) {
        state.absorb(trial);
        return result;
      }
    }
    refuse(schema, path, state, value);
    return INVALID;
  };
}

/**
 * The compiled path's constraint checks, run on the normalized value: the same rules, and the same issue rules and
 * messages, as the class-validator decorators toolwright applies (the reference path). A value refused by its type
 * rule is not checked again.
 */
function withConstraints(schema: ParamSchema, base: Normalizer): Normalizer {
  const checks = constraintChecks(schema);
  if (checks.length === 0) return base;
  return (value, path, state) => {
    const normalized = base(value, path, state);
    if (normalized === INVALID || normalized === null || normalized === undefined) return normalized;
    for (const constraint of checks) {
      if (!constraintHolds(constraint, normalized)) {
        const rule = constraint.rule;
        state.issues.push(
          issue(
            path,
            rule,
            schema,
            normalized,
            rule === 'pattern' ? patternSubjectTooLong(path, normalized) : undefined,
          ),
        );
        return INVALID;
      }
    }
    return normalized;
  };
}
