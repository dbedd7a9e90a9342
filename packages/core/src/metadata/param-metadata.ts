import { PARAM_METADATA } from './constants';
import { reflectMetadata } from './reflect-api';
import type { ParamMetadata } from './types';

/** Appends a raw parameter record to the records the class itself declares (never to an ancestor's list). */
export function addParamMetadata(target: Function, record: ParamMetadata): void {
  const own = getOwnParamMetadata(target);
  reflectMetadata.defineMetadata(PARAM_METADATA, [...own, record], target);
}

/** The records declared on this class itself, in declaration order. */
export function getOwnParamMetadata(target: Function): readonly ParamMetadata[] {
  return (reflectMetadata.getOwnMetadata(PARAM_METADATA, target) as readonly ParamMetadata[] | undefined) ?? [];
}

/** Whether `classLineage(target)` holds more than the class itself (a class that extends another). */
export function hasAncestors(target: Function): boolean {
  const parent: unknown = Object.getPrototypeOf(target);
  return typeof parent === 'function' && parent !== Function.prototype && parent !== Object;
}

/** The class and its ancestors, base class first (stops at `Object` / `Function.prototype`). */
export function classLineage(target: Function): readonly Function[] {
  const lineage: Function[] = [];
  for (
    let current: unknown = target;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    if (current === Object) break;
    lineage.unshift(current);
  }
  return lineage;
}

/**
 * The parameter records a DTO class sees: its ancestors' records and its own, where the records of the most
 * derived class that decorates a property replace its ancestors' records for that property. Properties keep the
 * position where they were first declared (base class first); within a class, declaration order.
 */
export function getParamMetadata(dtoClass: Function): readonly ParamMetadata[] {
  if (!hasAncestors(dtoClass)) return getOwnParamMetadata(dtoClass);
  const lineage = classLineage(dtoClass);
  const byProperty = new Map<string, ParamMetadata[]>();
  for (const cls of lineage) {
    const ownByProperty = new Map<string, ParamMetadata[]>();
    for (const record of getOwnParamMetadata(cls)) {
      const list = ownByProperty.get(record.propertyName);
      if (list) list.push(record);
      else ownByProperty.set(record.propertyName, [record]);
    }
    for (const [propertyName, records] of ownByProperty) byProperty.set(propertyName, records);
  }
  return [...byProperty.values()].flat();
}
