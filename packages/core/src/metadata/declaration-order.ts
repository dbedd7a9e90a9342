import { getOwnParamMetadata } from './param-metadata';
import type { ParamMetadata } from './types';
import { countOwnValidatorRules, getOwnValidatorRules } from './validator-metadata';

/**
 * Where each parameter record was declared among the class's own class-validator rules (how many of the developer's
 * rules the class had when the decorator ran). The two stores are separate, so this is what keeps a DTO's
 * properties in declaration order when toolwright and plain class-validator properties mix.
 */
const positions = new WeakMap<ParamMetadata, number>();

/** Notes a record's place among the class's class-validator rules; called by the decorator that stores the record. */
export function recordDeclarationPosition(record: ParamMetadata): void {
  // Position 0 (no rule of the developer's before it, the usual case) is what a record without an entry reads.
  const position = countOwnValidatorRules(record.target);
  if (position !== 0) positions.set(record, position);
}

/**
 * The properties this class itself declares (by a toolwright record or a class-validator rule of the developer's),
 * in declaration order; a property keeps its first place.
 */
export function getOwnPropertyOrder(target: Function): readonly string[] {
  return ownPropertyOrder(getOwnParamMetadata(target), getOwnValidatorRules(target));
}

/**
 * `getOwnPropertyOrder` from the class's own records and the developer's own class-validator rules, in the order
 * each was declared, when the caller has read them already (a DTO build reads both for itself).
 */
export function ownPropertyOrder(
  records: readonly ParamMetadata[],
  rules: readonly { readonly propertyName: string }[],
): readonly string[] {
  // No rule of the developer's and every record at position 0 (the usual DTO): the records' order, as the sort keeps it.
  if (rules.length === 0 && records.every((record) => !positions.has(record))) return recordOrder(records);
  // A record noted after `n` rules sits between rule n - 1 and rule n. Records are noted in declaration order, so their
  // positions never decrease: one merge of the two lists puts every name in its place.
  const names: string[] = [];
  let rule = 0;
  for (const record of records) {
    const position = positions.get(record) ?? 0;
    for (; rule < position && rule < rules.length; rule++) addOnce(names, rules[rule]!.propertyName);
    addOnce(names, record.propertyName);
  }
  for (; rule < rules.length; rule++) addOnce(names, rules[rule]!.propertyName);
  return names;
}

/** The records' property names in order, each once (a property decorated twice keeps its first place). */
function recordOrder(records: readonly ParamMetadata[]): string[] {
  const names: string[] = [];
  for (let index = 0; index < records.length; index++) addOnce(names, records[index]!.propertyName);
  return names;
}

/** Appends a name not listed yet (a DTO has a few properties: a scan of the names so far costs less than a Set). */
function addOnce(names: string[], name: string): void {
  if (!names.includes(name)) names.push(name);
}
