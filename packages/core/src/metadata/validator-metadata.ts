import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import type { TypeMetadata } from 'class-transformer';
import { EMPTY_DTO_SENTINEL } from './constants';
import { classLineage, hasAncestors } from './param-metadata';
import type { ValidatorMetadata } from './types';

type ClassValidatorRule = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** class-validator 0.14+ keeps its rules in a `Map` keyed by class; `undefined` for any other storage shape. */
function rulesByTarget(storage: MetadataStorage): Map<unknown, ClassValidatorRule[]> | undefined {
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  return byTarget instanceof Map ? (byTarget as Map<unknown, ClassValidatorRule[]>) : undefined;
}

/**
 * The rules class-validator stores for exactly this class, read from its per-class map so building N DTOs costs
 * O(N); any other storage shape falls back to the public `getTargetValidationMetadatas` (which walks every class).
 */
export function ownRules(storage: MetadataStorage, target: Function): readonly ClassValidatorRule[] {
  const byTarget = rulesByTarget(storage);
  const candidates =
    byTarget !== undefined ? byTarget.get(target) : storage.getTargetValidationMetadatas(target, '', true, false);
  if (candidates === undefined || candidates.length === 0) return NO_RULES;
  return candidates.filter((rule) => rule.target === target && rule.propertyName !== EMPTY_DTO_SENTINEL);
}

/**
 * Per class, the rules toolwright applied, and the developer's own rules, read once before toolwright applied its
 * rules to the class (kept only when there are any: most DTOs have none, and a `WeakMap` entry each is memory for the
 * life of the class). A class toolwright never applied rules to has neither: all its rules are the developer's.
 */
const developerSnapshots = new WeakMap<Function, readonly ClassValidatorRule[]>();
const toolwrightRules = new WeakMap<Function, readonly ClassValidatorRule[] | AppliedRange>();

/**
 * Where toolwright's rules of a class are in class-validator's own array of the class's rules (which only ever grows
 * at its end): `start * RANGE_SPAN + end`, a small integer, so the entry holds no object of its own (a range object
 * was about 110 bytes per command of 1,000). A range that does not fit is kept as a copy of the rules instead.
 */
type AppliedRange = number;

const RANGE_SPAN = 0x10000;

/** `[start, end)` as one AppliedRange, or `undefined` when `end` does not fit (the rules are then kept as a copy). */
const packRange = (start: number, end: number): AppliedRange | undefined =>
  end < RANGE_SPAN ? start * RANGE_SPAN + end : undefined;
const rangeStart = (range: AppliedRange): number => Math.floor(range / RANGE_SPAN);
const rangeEnd = (range: AppliedRange): number => range % RANGE_SPAN;

/**
 * class-validator's own array of `target`'s rules; `undefined` once they were released (`releaseClassMetadata`):
 * class-validator then has none of them.
 */
const storedRules = (target: unknown): readonly ClassValidatorRule[] | undefined =>
  rulesByTarget(getMetadataStorage())?.get(target);

/** The rules of `target` that `range` names, read from class-validator's array of the class's rules. */
function rulesInRange(target: Function, range: AppliedRange): readonly ClassValidatorRule[] {
  return storedRules(target)?.slice(rangeStart(range), rangeEnd(range)) ?? NO_RULES;
}

/** The rules toolwright applied to a class (in the order applied); none for a class it never applied rules to. */
function appliedRules(target: Function): readonly ClassValidatorRule[] {
  const applied = toolwrightRules.get(target);
  if (applied === undefined) return NO_RULES;
  return typeof applied === 'number' ? rulesInRange(target, applied) : applied;
}

/**
 * Applies toolwright's class-validator rules to one class, once: takes the snapshot of the developer's own rules
 * first, runs `apply`, and keeps what it added as toolwright's. `false` when the class had them already.
 */
export function applyToolwrightRules(target: Function, apply: () => void): boolean {
  if (toolwrightRules.has(target)) return false;
  const storage = getMetadataStorage();
  const developer = ownRules(storage, target);
  if (developer.length > 0) developerSnapshots.set(target, developer);
  // Applied once, even if `apply` throws: until it returns, toolwright's rules of the class are none.
  toolwrightRules.set(target, NO_RULES);
  const stored = rulesByTarget(storage)?.get(target);
  const storedBefore = stored?.length ?? 0;
  apply();
  const byTarget = rulesByTarget(storage);
  const after = byTarget?.get(target);
  if (byTarget !== undefined && after !== undefined && (stored === undefined || after === stored)) {
    // class-validator appends a class's rules to its array: what `apply` added is the tail (never the sentinel). The
    // array is kept for the life of the class at exactly its length (`slice`): one grown by `push` keeps room for
    // half as many rules again (about 300 bytes per command).
    const rules = after.slice();
    byTarget.set(target, rules);
    toolwrightRules.set(target, packRange(storedBefore, rules.length) ?? rules.slice(storedBefore));
    return true;
  }
  const applied = ownRules(storage, target);
  if (developer.length === 0) {
    // `slice`: kept for good, so an array of exactly its length (the one `filter` grew keeps room for more).
    toolwrightRules.set(target, applied.slice());
  } else {
    const mine = new Set(developer);
    toolwrightRules.set(
      target,
      applied.filter((rule) => !mine.has(rule)),
    );
  }
  return true;
}

/** The snapshot of a class without rules of the developer's (most DTOs): one frozen empty list for all. */
const NO_RULES: readonly ClassValidatorRule[] = Object.freeze([]);

/** A class's own rules, toolwright's first (in the order applied), then the developer's (in the order decorated). */
function classRules(
  storage: MetadataStorage,
  target: Function,
  developerRulesOnly: boolean,
): readonly ClassValidatorRule[] {
  if (!toolwrightRules.has(target)) return ownRules(storage, target);
  const developer = developerSnapshots.get(target) ?? NO_RULES;
  return developerRulesOnly ? developer : [...appliedRules(target), ...developer];
}

function isToolwrightRule(rule: ClassValidatorRule): boolean {
  const applied = toolwrightRules.get(rule.target as Function);
  if (applied === undefined) return false;
  if (typeof applied !== 'number') return applied.includes(rule);
  const index = storedRules(rule.target)?.indexOf(rule, rangeStart(applied)) ?? -1;
  return index !== -1 && index < rangeEnd(applied);
}

function toValidatorMetadata(rule: ClassValidatorRule): ValidatorMetadata {
  return {
    target: rule.target as Function,
    propertyName: rule.propertyName,
    type: rule.type,
    name: rule.name,
    constraints: Array.isArray(rule.constraints) ? rule.constraints : [],
    each: rule.each === true,
    appliedByToolwright: isToolwrightRule(rule),
    ...(typeof rule.constraintCls === 'function' ? { constraintClass: rule.constraintCls } : {}),
    ...(rule.message !== undefined ? { message: rule.message } : {}),
  };
}

/**
 * The class-validator rules that apply to a DTO class, with class-validator's own inheritance semantics: the
 * class's rules, then its ancestors' rules except those a rule of the class replaces (same property, same type).
 * Only this class's lineage is read: no scan over every class class-validator knows. With `developerRulesOnly`,
 * the rules toolwright applied are left out: the snapshot of the developer's rules taken before toolwright applied
 * its own (nothing is diffed). Toolwright applies its rules when a DTO is built, so before that every rule is the
 * developer's.
 */
export function getValidatorMetadata(
  dtoClass: Function,
  options: { readonly developerRulesOnly?: boolean } = {},
): readonly ValidatorMetadata[] {
  const storage = getMetadataStorage();
  const developerRulesOnly = options.developerRulesOnly === true;
  // Shadowing follows what class-validator runs: every rule the class has (toolwright's too) hides an ancestor's.
  const result: ValidatorMetadata[] = [];
  if (!hasAncestors(dtoClass)) {
    const rules = classRules(storage, dtoClass, developerRulesOnly);
    for (let index = 0; index < rules.length; index++) result.push(toValidatorMetadata(rules[index]!));
    return result;
  }
  const own = classRules(storage, dtoClass, false);
  for (const cls of classLineage(dtoClass)) {
    if (cls === dtoClass) continue;
    for (const rule of classRules(storage, cls, developerRulesOnly)) {
      if (!own.some((mine) => mine.propertyName === rule.propertyName && mine.type === rule.type))
        result.push(toValidatorMetadata(rule));
    }
  }
  for (const rule of classRules(storage, dtoClass, developerRulesOnly)) result.push(toValidatorMetadata(rule));
  return result;
}

/** How many class-validator rules of the developer's this class has now (a decorator records it, to keep declaration order). */
export function countOwnValidatorRules(target: Function): number {
  return classRules(getMetadataStorage(), target, true).length;
}

/** The class-validator rules of the developer's on this class itself, in the order they were decorated. */
export function getOwnValidatorRules(target: Function): readonly ClassValidatorRule[] {
  return classRules(getMetadataStorage(), target, true);
}

interface ClassTransformerStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined;
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): readonly unknown[];
  getExposedMetadatas(target: Function): readonly unknown[];
  getExcludedMetadatas(target: Function): readonly unknown[];
}

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`. */
const PLAIN_TO_CLASS = 0;

/**
 * Whether class-transformer does anything to this class's properties beyond what toolwright's decorators set up
 * (`@Type` of a nested DTO, one `@Transform` to `Date` on the properties in `dateProperties`): an `@Expose`, an
 * `@Exclude`, another `@Transform`, or a `@Type` with a discriminator. `true` when the storage cannot be read.
 */
export function hasClassTransformerCustomizations(
  dtoClass: Function,
  propertyNames: readonly string[],
  dateProperties: ReadonlySet<string>,
): boolean {
  const storage = classTransformerStorage;
  if (!storage) return true;
  if (storage.getExposedMetadatas(dtoClass).length > 0 || storage.getExcludedMetadatas(dtoClass).length > 0)
    return true;
  for (const name of propertyNames) {
    if (storage.findTransformMetadatas(dtoClass, name, PLAIN_TO_CLASS).length > (dateProperties.has(name) ? 1 : 0))
      return true;
    const type = storage.findTypeMetadata(dtoClass, name);
    if (type && (type.options?.discriminator !== undefined || type.options?.keepDiscriminatorProperty === true))
      return true;
  }
  return false;
}

function loadClassTransformerStorage(): ClassTransformerStorage | undefined {
  try {
    // class-transformer exports its storage only from this path; it has no `exports` map, so the path is stable.
    const storageModule = require('class-transformer/cjs/storage') as {
      defaultMetadataStorage?: ClassTransformerStorage;
    };
    return storageModule.defaultMetadataStorage;
  } catch {
    return undefined;
  }
}

const classTransformerStorage = loadClassTransformerStorage();

/** The class-transformer `@Type(() => X)` function of a property (own or inherited), if any. */
export function getTransformerTypeFunction(dtoClass: Function, propertyName: string): (() => unknown) | undefined {
  const metadata = classTransformerStorage?.findTypeMetadata(dtoClass, propertyName);
  if (!metadata) return undefined;
  return () => metadata.typeFunction();
}
