import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import type { TypeMetadata } from 'class-transformer';
import { EMPTY_DTO_SENTINEL } from './constants';
import { classLineage } from './param-metadata';
import type { ValidatorMetadata } from './types';

type ClassValidatorRule = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** Per DTO class, the rules toolwright's decorators applied (as opposed to rules a developer wrote). */
const toolwrightRules = new WeakMap<Function, Set<object>>();

function isToolwrightRule(rule: ClassValidatorRule): boolean {
  return toolwrightRules.get(rule.target as Function)?.has(rule) === true;
}

/** class-validator 0.14+ keeps its rules in a `Map` keyed by class; `undefined` for any other storage shape. */
function rulesByTarget(storage: MetadataStorage): Map<unknown, ClassValidatorRule[]> | undefined {
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  return byTarget instanceof Map ? (byTarget as Map<unknown, ClassValidatorRule[]>) : undefined;
}

/**
 * The rules class-validator stores for exactly this class, read from its per-class map so building N DTOs costs
 * O(N); any other storage shape falls back to the public `getTargetValidationMetadatas` (which walks every class).
 */
function ownRules(storage: MetadataStorage, target: Function): readonly ClassValidatorRule[] {
  const byTarget = rulesByTarget(storage);
  const candidates = byTarget !== undefined ? (byTarget.get(target) ?? []) : storage.getTargetValidationMetadatas(target, '', true, false);
  return candidates.filter((rule) => rule.target === target && rule.propertyName !== EMPTY_DTO_SENTINEL);
}

/** Runs `apply` (which adds class-validator rules to `target`) and remembers the rules it added as toolwright's own. */
export function markToolwrightRules(target: Function, apply: () => void): void {
  const byTarget = rulesByTarget(getMetadataStorage());
  const before = byTarget?.get(target)?.length ?? 0;
  apply();
  const after = byTarget?.get(target);
  if (after === undefined || after.length === before) return;
  let marked = toolwrightRules.get(target);
  if (marked === undefined) toolwrightRules.set(target, (marked = new Set()));
  for (let index = before; index < after.length; index++) marked.add(after[index] as object);
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
 * the rules toolwright's own decorators applied are left out.
 */
export function getValidatorMetadata(dtoClass: Function, options: { readonly developerRulesOnly?: boolean } = {}): readonly ValidatorMetadata[] {
  const storage = getMetadataStorage();
  const own = ownRules(storage, dtoClass);
  const wanted = (rule: ClassValidatorRule) => options.developerRulesOnly !== true || !isToolwrightRule(rule);
  const result: ValidatorMetadata[] = [];
  for (const cls of classLineage(dtoClass)) {
    if (cls === dtoClass) continue;
    for (const rule of ownRules(storage, cls)) {
      if (wanted(rule) && !own.some((mine) => mine.propertyName === rule.propertyName && mine.type === rule.type)) result.push(toValidatorMetadata(rule));
    }
  }
  for (const rule of own) if (wanted(rule)) result.push(toValidatorMetadata(rule));
  return result;
}

/** The properties this class itself gives class-validator rules, in the order they were decorated. */
export function getOwnValidatorPropertyNames(target: Function): readonly string[] {
  const names = new Set<string>();
  for (const rule of ownRules(getMetadataStorage(), target)) names.add(rule.propertyName);
  return [...names];
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
export function hasClassTransformerCustomizations(dtoClass: Function, propertyNames: readonly string[], dateProperties: ReadonlySet<string>): boolean {
  const storage = classTransformerStorage;
  if (!storage) return true;
  if (storage.getExposedMetadatas(dtoClass).length > 0 || storage.getExcludedMetadatas(dtoClass).length > 0) return true;
  for (const name of propertyNames) {
    if (storage.findTransformMetadatas(dtoClass, name, PLAIN_TO_CLASS).length > (dateProperties.has(name) ? 1 : 0)) return true;
    const type = storage.findTypeMetadata(dtoClass, name);
    if (type && (type.options?.discriminator !== undefined || type.options?.keepDiscriminatorProperty === true)) return true;
  }
  return false;
}

function loadClassTransformerStorage(): ClassTransformerStorage | undefined {
  try {
    // class-transformer exports its storage only from this path; it has no `exports` map, so the path is stable.
    const storageModule = require('class-transformer/cjs/storage') as { defaultMetadataStorage?: ClassTransformerStorage };
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
