import type { CrossFieldRule } from '../types/cross-field';
import type { ObjectSchema } from '../types/schema';
import { DefinitionError } from '../errors/definition-error';
import { quote, schemaMessages } from './messages';
import type { JsonSchemaObject } from './json-schema-types';

/**
 * JSON Schema's cross-field keywords on the arguments object, read into `ObjectSchema.crossFieldRules` instead of
 * being refused, and written back by the exporter:
 *
 * | JSON Schema (at the root)                                | rule                                   |
 * |----------------------------------------------------------|----------------------------------------|
 * | `dependentRequired: {a: ["b"]}` (draft 7 `dependencies` with arrays) | `dependentRequired` a -> b |
 * | `oneOf: [{required: ["a"]}, {required: ["b"]}]`          | `oneOf` (exactly one set complete)     |
 * | `anyOf: [{required: ["a"]}, {required: ["b"]}]`          | `anyOf` (at least one set complete)    |
 * | `not: {required: ["a", "b"]}`                            | `notAll` (not all of them together)    |
 * | `allOf` members made only of the above                    | each of their rules                    |
 *
 * Only these exact shapes are read (a member of `oneOf`/`anyOf`/`not` may carry nothing but `required`, `title`,
 * `description` and `$comment`); any other use of the keywords is left to the importer, which refuses what it cannot
 * hold. Every name a rule mentions must be a declared property.
 */

type JsonRecord = Readonly<Record<string, unknown>>;

const SET_MEMBER_KEYS: ReadonlySet<string> = new Set(['required', 'title', 'description', '$comment']);
const PURE_MEMBER_KEYS: ReadonlySet<string> = new Set([
  'oneOf',
  'anyOf',
  'not',
  'dependentRequired',
  'title',
  'description',
  '$comment',
]);

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(record: JsonRecord, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function isNameList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((name) => typeof name === 'string') &&
    new Set(value).size === value.length
  );
}

/** `{required: [...]}` (with annotations only): the names, else undefined. */
function requiredSet(member: unknown): string[] | undefined {
  if (!isRecord(member)) return undefined;
  if (!Object.keys(member).every((key) => SET_MEMBER_KEYS.has(key))) return undefined;
  const required = own(member, 'required');
  return isNameList(required) ? [...required] : undefined;
}

function requiredSets(value: unknown): string[][] | undefined {
  if (!Array.isArray(value) || value.length < 2) return undefined;
  const sets = value.map(requiredSet);
  return sets.every((set): set is string[] => set !== undefined) ? sets : undefined;
}

export interface ExtractedCrossField {
  /** The schema without the keywords that became rules (the input itself when there were none). */
  readonly schema: unknown;
  readonly rules: readonly CrossFieldRule[];
}

/** Reads the cross-field keywords of a root schema; the rest of the schema is returned for the importer. */
export function extractCrossFieldKeywords(schema: unknown, target: string): ExtractedCrossField {
  if (!isRecord(schema)) return { schema, rules: [] };
  const rest: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, schema);
  const rules: CrossFieldRule[] = [];
  const where = (keyword: string) => ({ target, property: `#/${keyword}` });

  const readDependentRequired = (value: unknown, keyword: string): boolean => {
    if (!isRecord(value))
      throw schemaMessages.invalidKeywordValue(
        where(keyword),
        keyword,
        'an object mapping a property to the names it requires',
        value,
      );
    const entries = Object.keys(value).map((property) => [property, own(value, property)] as const);
    // draft 7 `dependencies` may also map to schemas: only the array form is a dependentRequired.
    if (keyword === 'dependencies' && !entries.every(([, names]) => Array.isArray(names))) return false;
    for (const [property, names] of entries) {
      if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
        throw schemaMessages.invalidKeywordValue(
          { target, property: `#/${keyword}/${property}` },
          keyword,
          'an array of property names',
          names,
        );
      }
      if (names.length > 0) rules.push({ kind: 'dependentRequired', property, requires: [...new Set(names)] });
    }
    return true;
  };
  /** One schema made only of cross-field keywords: its rules, or undefined (nothing is added then). */
  const pureRules = (member: unknown): CrossFieldRule[] | undefined => {
    if (!isRecord(member) || !Object.keys(member).every((key) => PURE_MEMBER_KEYS.has(key))) return undefined;
    const found: CrossFieldRule[] = [];
    for (const kind of ['oneOf', 'anyOf'] as const) {
      const value = own(member, kind);
      if (value === undefined) continue;
      const sets = requiredSets(value);
      if (sets === undefined) return undefined;
      found.push({ kind, sets });
    }
    const not = own(member, 'not');
    if (not !== undefined) {
      const properties = requiredSet(not);
      if (properties === undefined) return undefined;
      found.push({ kind: 'notAll', properties });
    }
    const dependent = own(member, 'dependentRequired');
    if (dependent !== undefined) {
      if (!isRecord(dependent)) return undefined;
      for (const property of Object.keys(dependent)) {
        const names = own(dependent, property);
        if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) return undefined;
        if (names.length > 0) found.push({ kind: 'dependentRequired', property, requires: [...new Set(names)] });
      }
    }
    return found.length > 0 ? found : undefined;
  };

  for (const keyword of ['dependentRequired', 'dependencies'] as const) {
    const value = own(rest, keyword);
    if (value !== undefined && readDependentRequired(value, keyword)) delete rest[keyword];
  }
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const sets = requiredSets(own(rest, kind));
    if (sets !== undefined) {
      rules.push({ kind, sets });
      delete rest[kind];
    }
  }
  const not = requiredSet(own(rest, 'not'));
  if (not !== undefined) {
    rules.push({ kind: 'notAll', properties: not });
    delete rest['not'];
  }
  const allOf = own(rest, 'allOf');
  if (Array.isArray(allOf)) {
    const kept: unknown[] = [];
    for (const member of allOf) {
      const found = pureRules(member);
      if (found === undefined) kept.push(member);
      else rules.push(...found);
    }
    if (kept.length === 0) delete rest['allOf'];
    else if (kept.length !== allOf.length) rest['allOf'] = kept;
  }
  return rules.length === 0 ? { schema, rules } : { schema: rest, rules };
}

function ruleNames(rule: CrossFieldRule): string[] {
  switch (rule.kind) {
    case 'oneOf':
    case 'anyOf':
      return rule.sets.flat();
    case 'notAll':
      return [...rule.properties];
    case 'dependentRequired':
      return [rule.property, ...rule.requires];
  }
}

/** The imported object with its rules; every name a rule mentions must be one of its model-visible properties. */
export function withCrossFieldRules(
  schema: ObjectSchema,
  rules: readonly CrossFieldRule[],
  target: string,
): ObjectSchema {
  if (rules.length === 0) return schema;
  const declared = new Set(
    schema.properties.filter((property) => property.context === undefined).map((property) => property.name),
  );
  for (const rule of rules) {
    const unknown = ruleNames(rule).find((name) => !declared.has(name));
    if (unknown !== undefined) {
      throw new DefinitionError(
        `The cross-field rule "${rule.kind}" names ${quote(unknown)}, which is not a declared property of the arguments.`,
        {
          target,
          property: '#',
          fix: `Declare ${quote(unknown)} as a parameter (JSON Schema: under "properties"), or correct the name (declared: ${[...declared].slice(0, 20).join(', ') || 'none'}).`,
        },
      );
    }
  }
  return { ...schema, crossFieldRules: rules };
}

/** The rules as JSON Schema keywords on the exported arguments object (the inverse of extractCrossFieldKeywords). */
export function crossFieldKeywords(rules: readonly CrossFieldRule[]): JsonSchemaObject {
  const output: JsonSchemaObject = {};
  const dependent: Record<string, string[]> = {};
  const members: JsonSchemaObject[] = [];
  for (const rule of rules) {
    if (rule.kind === 'dependentRequired') {
      const names = dependent[rule.property] ?? [];
      dependent[rule.property] = [...new Set([...names, ...rule.requires])];
    } else if (rule.kind === 'notAll') {
      members.push({ not: { required: [...rule.properties] } });
    } else {
      members.push({ [rule.kind]: rule.sets.map((set) => ({ required: [...set] })) });
    }
  }
  if (Object.keys(dependent).length > 0) output.dependentRequired = dependent;
  if (members.length === 1) Object.assign(output, members[0]);
  else if (members.length > 1) output.allOf = members;
  return output;
}

const isNames = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.length > 0 && value.every((name) => typeof name === 'string' && name !== '');

/** Whether a value is a well-formed rule (for rules a developer wrote by hand). */
export function isCrossFieldRule(value: unknown): value is CrossFieldRule {
  if (!isRecord(value)) return false;
  switch (value['kind']) {
    case 'oneOf':
    case 'anyOf':
      return Array.isArray(value['sets']) && value['sets'].length >= 2 && value['sets'].every(isNames);
    case 'notAll':
      return isNames(value['properties']) && value['properties'].length >= 2;
    case 'dependentRequired':
      return typeof value['property'] === 'string' && isNames(value['requires']);
    default:
      return false;
  }
}

/** Builders for `@Command({ crossFieldRules: [...] })`. A name may also be a set: `['start', 'end']` (both together). */
export const crossField = Object.freeze({
  /** Exactly one of them (`oneOf` of `required`). */
  exactlyOne: (...alternatives: ReadonlyArray<string | readonly string[]>): CrossFieldRule => ({
    kind: 'oneOf',
    sets: alternatives.map((item) => (typeof item === 'string' ? [item] : [...item])),
  }),
  /** At least one of them (`anyOf` of `required`). */
  atLeastOne: (...alternatives: ReadonlyArray<string | readonly string[]>): CrossFieldRule => ({
    kind: 'anyOf',
    sets: alternatives.map((item) => (typeof item === 'string' ? [item] : [...item])),
  }),
  /** Not all of them together (`not: {required}`). */
  notTogether: (...properties: readonly string[]): CrossFieldRule => ({ kind: 'notAll', properties: [...properties] }),
  /** When `property` is sent, `requires` must be sent too (`dependentRequired`). */
  requires: (property: string, ...requires: readonly string[]): CrossFieldRule => ({
    kind: 'dependentRequired',
    property,
    requires: [...requires],
  }),
});
