import { compilePattern } from '../schema/value-checks';
import type { PatternMatcher } from '../schema/pattern-engine';
import type { LengthCount, ParamSchema } from '../types/schema';
import { lengthWithin } from '../rules/string';
import { aboveExclusive, belowExclusive, isMultipleOf, numberWithin } from '../rules/number';
import { isMember } from '../rules/enum';
import { hasUniqueItems } from '../rules/array';
import { formatRule, type FormatRule } from '../rules/format';

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
  | 'enum'
  | 'format';

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
    /** How a string's length is counted (`minLength`, `maxLength` only; `undefined`: code points). */
    readonly count?: LengthCount,
  ) {}

  /** The limit as the schema states it (a pattern's source, a format's name), for printing. */
  get stated(): unknown {
    if (this.rule === 'pattern') return (this.limit as PatternMatcher).source;
    if (this.rule === 'format') return (this.limit as FormatRule).name;
    return this.limit;
  }
}

/**
 * Whether a normalized value satisfies a constraint: each rule's check is its kind's one definition in `rules/`
 * (lengths `rules/string.ts`, bounds `rules/number.ts`, items `rules/array.ts`, enums `rules/enum.ts`, formats
 * `rules/format/`); this dispatches on the record.
 */
export function constraintHolds(constraint: ConstraintCheck, value: unknown): boolean {
  const limit = constraint.limit;
  switch (constraint.rule) {
    case 'minLength':
      return lengthWithin(value as string, limit as number, undefined, constraint.count);
    case 'maxLength':
      return lengthWithin(value as string, undefined, limit as number, constraint.count);
    case 'pattern':
      return (limit as PatternMatcher).test(value as string);
    case 'minimum':
      return numberWithin(value as number, limit as number, undefined);
    case 'maximum':
      return numberWithin(value as number, undefined, limit as number);
    case 'exclusiveMinimum':
      return aboveExclusive(value as number, limit as number);
    case 'exclusiveMaximum':
      return belowExclusive(value as number, limit as number);
    case 'multipleOf':
      return isMultipleOf(value as number, limit as number);
    case 'minItems':
      return numberWithin((value as unknown[]).length, limit as number, undefined);
    case 'maxItems':
      return numberWithin((value as unknown[]).length, undefined, limit as number);
    case 'uniqueItems':
      return hasUniqueItems(value as unknown[]);
    case 'enum':
      return isMember(limit as readonly unknown[], value);
    case 'format':
      return (limit as FormatRule).test(value as string);
  }
}

/**
 * The shared records of the rules with a number limit or a pattern, by rule and limit (a pattern by its source).
 * Bounded: past {@link MAX_SHARED_CONSTRAINTS} records (a process that registers tools with that many distinct limits,
 * such as remote tools refreshed again and again), further records are made per node and not kept here.
 */
const sharedConstraints = new Map<ConstraintRule, Map<number | string, ConstraintCheck>>();
const MAX_SHARED_CONSTRAINTS = 4096;
let sharedConstraintCount = 0;

function sharedConstraint(
  rule: ConstraintRule,
  limit: number | PatternMatcher | FormatRule,
  count?: LengthCount,
): ConstraintCheck {
  let byLimit = sharedConstraints.get(rule);
  if (byLimit === undefined) sharedConstraints.set(rule, (byLimit = new Map()));
  const key =
    typeof limit === 'number'
      ? count === 'class-validator'
        ? `class-validator:${limit}`
        : limit
      : 'source' in limit
        ? limit.source
        : limit.name;
  let constraint = byLimit.get(key);
  if (constraint === undefined) {
    constraint = new ConstraintCheck(rule, limit, count);
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
 * The constraint checks of one schema node, the same rules class-validator applies on the reference path, in the order
 * they are checked (the first that fails is the one reported).
 */
export function constraintChecks(schema: ParamSchema): readonly ConstraintCheck[] {
  const checks: ConstraintCheck[] = [];
  switch (schema.kind) {
    case 'string':
      if (schema.minLength !== undefined)
        checks.push(sharedConstraint('minLength', schema.minLength, countOf(schema.lengthCount)));
      if (schema.maxLength !== undefined)
        checks.push(sharedConstraint('maxLength', schema.maxLength, countOf(schema.lengthCount)));
      if (schema.pattern !== undefined) checks.push(sharedConstraint('pattern', compilePattern(schema.pattern)));
      if (schema.format !== undefined) {
        // A format with no rule never reaches a node (the IR build refuses or moves it); none is checked if one did.
        const format = formatRule(schema.format);
        if (format !== undefined) checks.push(sharedConstraint('format', format));
      }
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

/** A length count as the records keep it: `undefined` for code points (the default), so most records share. */
function countOf(count: LengthCount | undefined): LengthCount | undefined {
  return count === 'class-validator' ? count : undefined;
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
  /** How a string's folded length bounds are counted (`undefined`: code points). */
  readonly count: LengthCount | undefined;
  readonly rest: readonly ConstraintCheck[];
}

export function foldConstraints(constraints: readonly ConstraintCheck[]): FoldedConstraints {
  let lower: number | undefined;
  let upper: number | undefined;
  let count: LengthCount | undefined;
  const rest: ConstraintCheck[] = [];
  for (const constraint of constraints) {
    const limit = constraint.limit;
    const finite = typeof limit === 'number' && Number.isFinite(limit);
    if (finite && LOWER_BOUND.has(constraint.rule)) lower = limit;
    else if (finite && UPPER_BOUND.has(constraint.rule)) upper = limit;
    else {
      rest.push(constraint);
      continue;
    }
    if (constraint.count !== undefined) count = constraint.count;
  }
  return { lower, upper, count, rest: rest.length === 0 ? NO_CONSTRAINTS : rest };
}
