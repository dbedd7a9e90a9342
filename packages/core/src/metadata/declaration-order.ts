import { getOwnParamMetadata } from './param-metadata';
import type { ParamMetadata } from './types';
import { countOwnValidatorRules, getOwnValidatorRulePropertyNames } from './validator-metadata';

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
  const records = getOwnParamMetadata(target);
  const ruleNames = getOwnValidatorRulePropertyNames(target);
  // No rule of the developer's and every record at position 0 (the usual DTO): the records' order, as the sort keeps it.
  if (ruleNames.length === 0 && records.every((record) => !positions.has(record))) return recordOrder(records);
  const entries: Array<{ readonly name: string; readonly key: number }> = [];
  // A record noted after `n` rules sits between rule n - 1 (key n - 0.5) and rule n (key n + 0.5).
  for (const record of records) entries.push({ name: record.propertyName, key: positions.get(record) ?? 0 });
  ruleNames.forEach((name, index) => entries.push({ name, key: index + 0.5 }));
  entries.sort((left, right) => left.key - right.key);
  return [...new Set(entries.map((entry) => entry.name))];
}

/** The records' property names in order, each once (a property decorated twice keeps its first place). */
function recordOrder(records: readonly ParamMetadata[]): string[] {
  const names: string[] = [];
  for (let index = 0; index < records.length; index++) {
    const name = records[index]!.propertyName;
    // A DTO has a few properties: a scan of the names so far costs less than a Set.
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
