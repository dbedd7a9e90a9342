import { maxLength as classValidatorMaxLength, minLength as classValidatorMinLength } from 'class-validator';
import { canonicalJson, compilePattern } from '../schema/value-checks';
import { jsonEquals } from '../schema/json-equals';
import { isMultipleOf } from '../schema/conformance';
import type { PatternMatcher } from '../schema/pattern-engine';
import type { ParamSchema } from '../types/schema';

/**
 * Compiled constraint validation, the second half of step 4 on the compiled path (the normalizer is the first): every
 * IR constraint (lengths, bounds, patterns, item counts, uniqueness, enums of containers), checked on a normalized value.
 */

/**
 * What a compiled normalizer checks besides types: `'types'` (the reference path, where class-validator then checks
 * bounds, lengths, patterns and item counts) or `'all'` (the compiled path: every IR constraint, in the same pass).
 */
export type ConstraintMode = 'types' | 'all';

/** The rule of an IR constraint: the issue rule the normalizer reports, and the schema key that states its limit. */
export type ConstraintRule =
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'multipleOf'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'enum';

/**
 * One constraint of a schema node, as data: its rule and its limit (the schema's value; for `pattern`, the pattern's
 * matcher). Each rule is defined once, by {@link constraintHolds}: the normalizer's refusal and the canonical check's
 * acceptance (`compile/canonical-check.ts`) both call it with this record. A record holds no closure, and the records
 * of a rule with a number or pattern limit are shared by every node that states the same limit, so a tool's
 * constraints cost it a slot each in its nodes' lists.
 */
export class ConstraintCheck {
  constructor(
    readonly rule: ConstraintRule,
    readonly limit: unknown,
  ) {}

  /** The limit as the schema states it (a pattern's source), for printing. */
  get stated(): unknown {
    return this.rule === 'pattern' ? (this.limit as PatternMatcher).source : this.limit;
  }
}

/** Whether a normalized value satisfies a constraint: the one definition of every IR constraint. */
export function constraintHolds(constraint: ConstraintCheck, value: unknown): boolean {
  const limit = constraint.limit;
  switch (constraint.rule) {
    case 'minLength':
      return lengthWithin(value as string, limit as number, undefined);
    case 'maxLength':
      return lengthWithin(value as string, undefined, limit as number);
    case 'pattern':
      return (limit as PatternMatcher).test(value as string);
    case 'minimum':
      return numberWithin(value as number, limit as number, undefined);
    case 'maximum':
      return numberWithin(value as number, undefined, limit as number);
    case 'exclusiveMinimum':
      return (value as number) > (limit as number);
    case 'exclusiveMaximum':
      return (value as number) < (limit as number);
    case 'multipleOf':
      return isMultipleOf(value as number, limit as number);
    case 'minItems':
      return numberWithin((value as unknown[]).length, limit as number, undefined);
    case 'maxItems':
      return numberWithin((value as unknown[]).length, undefined, limit as number);
    case 'uniqueItems':
      return new Set((value as unknown[]).map(canonicalJson)).size === (value as unknown[]).length;
    case 'enum':
      return (limit as readonly unknown[]).some((allowed) => jsonEquals(allowed, value));
  }
}

/**
 * Whether a number (a value, or an array's item count) lies within inclusive bounds (`undefined`: none): the
 * `minimum`, `maximum`, `minItems` and `maxItems` rules (`NaN` lies within a stated bound never).
 */
export function numberWithin(value: number, minimum: number | undefined, maximum: number | undefined): boolean {
  return (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum);
}

/**
 * The shared records of the rules with a number limit or a pattern, by rule and limit (a pattern by its source).
 * Bounded: past {@link MAX_SHARED_CONSTRAINTS} records (a process that registers tools with that many distinct limits,
 * such as remote tools refreshed again and again), further records are made per node and not kept here.
 */
const sharedConstraints = new Map<ConstraintRule, Map<number | string, ConstraintCheck>>();
const MAX_SHARED_CONSTRAINTS = 4096;
let sharedConstraintCount = 0;

function sharedConstraint(rule: ConstraintRule, limit: number | PatternMatcher): ConstraintCheck {
  let byLimit = sharedConstraints.get(rule);
  if (byLimit === undefined) sharedConstraints.set(rule, (byLimit = new Map()));
  const key = typeof limit === 'number' ? limit : limit.source;
  let constraint = byLimit.get(key);
  if (constraint === undefined) {
    constraint = new ConstraintCheck(rule, limit);
    if (sharedConstraintCount < MAX_SHARED_CONSTRAINTS) {
      byLimit.set(key, constraint);
      sharedConstraintCount++;
    }
  }
  return constraint;
}

const UNIQUE_ITEMS = new ConstraintCheck('uniqueItems', true);

const NO_CONSTRAINTS: readonly ConstraintCheck[] = Object.freeze([]);

/** A number's rules, in the order they are checked. */
const NUMBER_RULES = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;

/**
 * Whether a string's length as class-validator counts it (validator.js `isLength`: code points, presentation selectors
 * not counted) lies within the bounds: the `minLength` and `maxLength` rules. That count is at most `.length`, and at
 * least the number of code units below U+D800 (each of those is one character; only units from U+D800 up are merged
 * or dropped). So a string no longer than the maximum is within it, and one with `minimum` units below U+D800 (found
 * from the start, stopping there) reaches the minimum: long strings are not read to the end. Anything else takes the
 * exact count.
 */
export function lengthWithin(value: string, minimum: number | undefined, maximum: number | undefined): boolean {
  if (maximum === undefined || value.length <= maximum) {
    if (minimum === undefined) return true;
    let plain = 0;
    for (let index = 0; index < value.length && plain < minimum; index++) if (value.charCodeAt(index) < 0xd800) plain++;
    if (plain >= minimum) return true;
  }
  return exactLengthWithin(value, minimum, maximum);
}

/** The exact count: `.length` when every code unit is below U+D800, else class-validator itself. */
function exactLengthWithin(value: string, minimum: number | undefined, maximum: number | undefined): boolean {
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) >= 0xd800) {
      return (
        (minimum === undefined || classValidatorMinLength(value, minimum)) &&
        (maximum === undefined || classValidatorMaxLength(value, maximum))
      );
    }
  }
  return (minimum === undefined || value.length >= minimum) && (maximum === undefined || value.length <= maximum);
}

/**
 * The constraint checks of one schema node, the same rules class-validator applies on the reference path, in the order
 * they are checked (the first that fails is the one reported).
 */
export function constraintChecks(schema: ParamSchema): readonly ConstraintCheck[] {
  const checks: ConstraintCheck[] = [];
  switch (schema.kind) {
    case 'string':
      if (schema.minLength !== undefined) checks.push(sharedConstraint('minLength', schema.minLength));
      if (schema.maxLength !== undefined) checks.push(sharedConstraint('maxLength', schema.maxLength));
      if (schema.pattern !== undefined) checks.push(sharedConstraint('pattern', compilePattern(schema.pattern)));
      break;
    case 'int':
    case 'float':
      for (const rule of NUMBER_RULES) {
        const limit = schema[rule];
        if (limit !== undefined) checks.push(sharedConstraint(rule, limit));
      }
      break;
    case 'array':
      if (schema.minItems !== undefined) checks.push(sharedConstraint('minItems', schema.minItems));
      if (schema.maxItems !== undefined) checks.push(sharedConstraint('maxItems', schema.maxItems));
      if (schema.uniqueItems === true) checks.push(UNIQUE_ITEMS);
      if (schema.enum !== undefined) checks.push(new ConstraintCheck('enum', schema.enum));
      break;
    case 'object':
    case 'union':
    case 'any':
      if (schema.enum !== undefined) checks.push(new ConstraintCheck('enum', schema.enum));
      break;
    default:
      break;
  }
  // A right-sized copy (`push` leaves room for more), or the shared empty list.
  return checks.length === 0 ? NO_CONSTRAINTS : checks.slice();
}

/**
 * The rules that state one bound of one number, as `[lower, upper]` pairs: a string's length, a number, an array's item
 * count (what {@link foldConstraints} folds, and what a folded node's bounds print as).
 */
export const BOUND_RULES = {
  length: ['minLength', 'maxLength'],
  number: ['minimum', 'maximum'],
  items: ['minItems', 'maxItems'],
} as const satisfies Record<string, readonly [ConstraintRule, ConstraintRule]>;

const LOWER_BOUND: ReadonlySet<ConstraintRule> = new Set(Object.values(BOUND_RULES).map(([lower]) => lower));
const UPPER_BOUND: ReadonlySet<ConstraintRule> = new Set(Object.values(BOUND_RULES).map(([, upper]) => upper));

/**
 * A node's constraint records as plain bounds and the rest, folded once when a check is built: the finite limits of the rules that bound one number (`minLength`/`maxLength` of a string's length as
 * {@link lengthWithin} counts it, `minimum`/`maximum` of a number, `minItems`/`maxItems` of an array's item count) as
 * `lower` and `upper` (`undefined` where none is stated), and the records of every other rule, in their
 * order. A value holds every record exactly when it lies within the bounds ({@link lengthWithin} for a string,
 * {@link numberWithin} otherwise) and holds each of `rest`: the same definitions {@link constraintHolds} calls.
 */
export interface FoldedConstraints {
  readonly lower: number | undefined;
  readonly upper: number | undefined;
  readonly rest: readonly ConstraintCheck[];
}

export function foldConstraints(constraints: readonly ConstraintCheck[]): FoldedConstraints {
  let lower: number | undefined;
  let upper: number | undefined;
  const rest: ConstraintCheck[] = [];
  for (const constraint of constraints) {
    const limit = constraint.limit;
    const finite = typeof limit === 'number' && Number.isFinite(limit);
    if (finite && LOWER_BOUND.has(constraint.rule)) lower = limit;
    else if (finite && UPPER_BOUND.has(constraint.rule)) upper = limit;
    else rest.push(constraint);
  }
  return { lower, upper, rest: rest.length === 0 ? NO_CONSTRAINTS : rest };
}
