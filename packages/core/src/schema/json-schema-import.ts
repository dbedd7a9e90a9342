import { jsonEquals } from './json-equals';
import { extractCrossFieldKeywords, withCrossFieldRules } from './cross-field-keywords';
import { deepFreeze } from './deep-freeze';
import type { EnumValue, ObjectSchema, ParamSchema, PropertyDefinition } from '../types/schema';
import {
  IGNORED_ANNOTATION_KEYWORDS,
  JSON_SCHEMA_TYPE_NAMES,
  REFUSED_KEYWORDS,
  RESERVED_PROPERTY_NAMES,
  SUPPORTED_KEYWORDS,
  escapePointerSegment,
  type JsonSchemaTypeName,
  type KeywordFamily,
} from './json-schema-types';
import { schemaMessages as messages } from './messages';
import type { SchemaLocation } from './messages';
import { hasNestedQuantifier } from './regex-safety';
import { linearEngineProblem } from './pattern-engine';
import {
  STRING_CONSTRAINTS,
  SchemaIntersection,
  isNullOnly,
  isUnconstrained,
  pickAnnotations,
  withoutAnnotations,
} from './json-schema-intersection';
import { resolveLimits, type JsonSchemaImportOptions, type JsonSchemaLimits } from './json-schema-limits';
import { locateReference } from './json-schema-references';
import { formatRule } from '../rules/format';

export { DEFAULT_JSON_SCHEMA_LIMITS, type JsonSchemaImportOptions, type JsonSchemaLimits } from './json-schema-limits';

/**
 * JSON Schema (the draft 2020-12 subset tools use) -> IR. See docs/tool-definitions-ir.md for the mapping table
 * and the keyword policy: every keyword is read into the IR, ignored because it only annotates, or refused with a
 * definition error naming the tool, the JSON pointer and the fix. A constraint is never dropped silently.
 *
 * Schemas may come from untrusted MCP servers, so the walk is depth-bounded (never deeper than `maxDepth` frames),
 * counts every node it visits (with each $ref expanded, so a "billion laughs" of references is cut off), copies
 * values iteratively, and reads input keys only as own properties.
 */

type JsonRecord = Readonly<Record<string, unknown>>;
type Draft = Record<string, unknown>;

const ANY: ParamSchema = Object.freeze({ kind: 'any' });
const NO_ALIASES: readonly string[] = Object.freeze([]);

/** BFCL and programming-language type names, to hint at the mapping when one reaches the importer unmapped. */
const FOREIGN_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ['dict', 'object'],
  ['float', 'number'],
  ['tuple', 'array'],
  ['any', 'no "type" at all'],
  ['int', 'integer'],
  ['str', 'string'],
  ['bool', 'boolean'],
  ['list', 'array'],
  ['String', 'string'],
  ['Boolean', 'boolean'],
  ['long', 'integer'],
  ['double', 'number'],
  ['char', 'string'],
  ['HashMap', 'object'],
  ['Array', 'array'],
  ['ArrayList', 'array'],
]);

const FAMILY_OF_TYPE: Readonly<Record<JsonSchemaTypeName, KeywordFamily | undefined>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  object: 'object',
  array: 'array',
  boolean: undefined,
  null: undefined,
};

const TYPE_OF_FAMILY: Readonly<Record<Exclude<KeywordFamily, 'any'>, JsonSchemaTypeName>> = {
  string: 'string',
  number: 'number',
  object: 'object',
  array: 'array',
};

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is EnumValue {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

class JsonSchemaImporter {
  private nodes = 0;
  /** Document pointers of the schemas being imported right now: a $ref to one of them is recursive. */
  private readonly activePointers = new Set<string>();
  private readonly referenceChain: string[] = [];
  /** The intersection algebra, with what it knows of inferred kinds. */
  private readonly algebra = new SchemaIntersection((pointer) => this.where(pointer));
  /** The arguments object itself: the root, and what the root reaches through $ref, allOf, anyOf and oneOf only. */
  private readonly argumentsNodes = new WeakSet<object>();
  private readonly annotationKeywords: ReadonlySet<string>;

  constructor(
    private readonly root: unknown,
    private readonly target: string,
    private readonly limits: JsonSchemaLimits,
    private readonly untrusted: boolean,
    annotationKeywords: readonly string[],
    private readonly allowAdditionalWhenAbsent: boolean,
  ) {
    this.annotationKeywords = new Set(annotationKeywords);
  }

  where(pointer: string): SchemaLocation {
    return { target: this.target, property: `#${pointer}` };
  }

  private count(pointer: string, amount = 1): void {
    this.nodes += amount;
    if (this.nodes > this.limits.maxNodes) throw messages.nodeLimitExceeded(this.where(pointer), this.limits.maxNodes);
  }

  importSchema(raw: unknown, pointer: string, depth: number): ParamSchema {
    if (depth > this.limits.maxDepth) throw messages.depthLimitExceeded(this.where(pointer), this.limits.maxDepth);
    this.count(pointer);
    if (raw === true) return ANY;
    if (raw === false) throw messages.falseSchema(this.where(pointer));
    if (!isRecord(raw)) throw messages.schemaNotAnObject(this.where(pointer), raw);
    // A null-prototype snapshot of the keywords: reading `keywords.type` can never reach Object.prototype.
    const keywords: JsonRecord = Object.assign(Object.create(null) as Record<string, unknown>, raw);
    if (raw === this.root || this.argumentsNodes.has(raw)) this.argumentsNodes.add(keywords);
    // A pointer reached twice on one path (through $refs) stays active until its outermost visit ends.
    const entered = !this.activePointers.has(pointer);
    if (entered) this.activePointers.add(pointer);
    try {
      return this.importRecord(keywords, pointer, depth);
    } finally {
      if (entered) this.activePointers.delete(pointer);
    }
  }

  private importRecord(raw: JsonRecord, pointer: string, depth: number): ParamSchema {
    const types = this.readTypes(raw, pointer);
    const families = types === undefined ? undefined : new Set([...types].map((type) => FAMILY_OF_TYPE[type]));
    const applies = (family: KeywordFamily): boolean =>
      family === 'any' || families === undefined || families.has(family);
    this.checkKeywords(raw, pointer, applies);
    for (const keyword of ['$defs', 'definitions'] as const) {
      const definitions = raw[keyword];
      if (definitions !== undefined && !isRecord(definitions)) {
        throw messages.invalidKeywordValue(
          this.where(`${pointer}/${keyword}`),
          keyword,
          'an object of named schemas',
          definitions,
        );
      }
    }

    const parts: ParamSchema[] = [];
    const atArguments = this.argumentsNodes.has(raw);
    const reference = raw['$ref'];
    if (reference !== undefined) parts.push(this.resolveReference(reference, pointer, depth, atArguments));
    const allOf = raw['allOf'];
    if (allOf !== undefined) {
      const members = this.readSchemaList(allOf, 'allOf', pointer);
      if (atArguments) this.markArguments(members);
      members.forEach((member, index) => parts.push(this.importSchema(member, `${pointer}/allOf/${index}`, depth + 1)));
    }
    parts.push(this.ownSchema(raw, pointer, depth, types));
    let combined = parts.reduce((left, right) => this.algebra.intersect(left, right, pointer));

    const anyOf = raw['anyOf'];
    const oneOf = raw['oneOf'];
    if (anyOf !== undefined && oneOf !== undefined) throw messages.bothAnyOfAndOneOf(this.where(pointer));
    if (atArguments) for (const list of [anyOf, oneOf]) if (Array.isArray(list)) this.markArguments(list);
    if (anyOf !== undefined) combined = this.alternatives(anyOf, 'anyOf', combined, pointer, depth);
    if (oneOf !== undefined) combined = this.alternatives(oneOf, 'oneOf', combined, pointer, depth);
    return combined;
  }

  /** Applies the keyword policy: supported, ignored annotation, refused (unless it cannot apply), or unknown. */
  private checkKeywords(raw: JsonRecord, pointer: string, applies: (family: KeywordFamily) => boolean): void {
    for (const keyword of Object.keys(raw)) {
      if (SUPPORTED_KEYWORDS.has(keyword)) continue;
      if (IGNORED_ANNOTATION_KEYWORDS.has(keyword) || keyword.startsWith('x-') || this.annotationKeywords.has(keyword))
        continue;
      const refusal = REFUSED_KEYWORDS.get(keyword);
      if (refusal === undefined)
        throw messages.unknownKeyword(this.where(`${pointer}/${escapePointerSegment(keyword)}`), keyword);
      // A keyword for another type than the declared ones can never fail (JSON Schema applies it to that type only).
      if (applies(refusal.family))
        throw messages.unsupportedKeyword(this.where(`${pointer}/${keyword}`), keyword, refusal.reason, refusal.fix);
    }
    if (!applies('array')) return;
    if (Array.isArray(raw['items'])) throw messages.tupleItems(this.where(`${pointer}/items`));
    const prefixItems = raw['prefixItems'];
    if (prefixItems === undefined) return;
    if (!Array.isArray(prefixItems)) {
      throw messages.invalidKeywordValue(
        this.where(`${pointer}/prefixItems`),
        'prefixItems',
        'an array of schemas',
        prefixItems,
      );
    }
    // Positions described by `{}` or `true` constrain nothing; any other prefix item is a tuple constraint.
    const constrains = prefixItems.some((item) => item !== true && !(isRecord(item) && Object.keys(item).length === 0));
    if (constrains) {
      throw messages.unsupportedKeyword(
        this.where(`${pointer}/prefixItems`),
        'prefixItems',
        'constrains items by position (a tuple)',
        'Describe the elements with one "items" schema (an anyOf of the element types if they differ), or use an object with named properties.',
      );
    }
  }

  private readTypes(raw: JsonRecord, pointer: string): Set<JsonSchemaTypeName> | undefined {
    const type = raw['type'];
    let types: Set<JsonSchemaTypeName> | undefined;
    if (type !== undefined) {
      const names = typeof type === 'string' ? [type] : type;
      if (!Array.isArray(names) || names.length === 0) {
        throw messages.invalidKeywordValue(
          this.where(`${pointer}/type`),
          'type',
          'a type name or a non-empty array of type names',
          type,
        );
      }
      types = new Set();
      for (const name of names) {
        if (typeof name !== 'string' || !(JSON_SCHEMA_TYPE_NAMES as readonly string[]).includes(name)) {
          const mapped = typeof name === 'string' ? FOREIGN_TYPE_NAMES.get(name) : undefined;
          const hint =
            mapped === undefined
              ? undefined
              : `${JSON.stringify(name)} is a BFCL or programming-language type name: write ${mapped === 'no "type" at all' ? mapped : JSON.stringify(mapped)} (JSON Schema types: string, integer, number, boolean, object, array, null).`;
          throw messages.unknownJsonType(this.where(`${pointer}/type`), name, hint);
        }
        types.add(name as JsonSchemaTypeName);
      }
    }
    const nullable = raw['nullable'];
    if (nullable !== undefined && typeof nullable !== 'boolean') {
      throw messages.invalidKeywordValue(this.where(`${pointer}/nullable`), 'nullable', 'true or false', nullable);
    }
    // OpenAPI 3.0's `nullable: true` adds null to the declared type (without a type, null is allowed anyway).
    if (nullable === true && types !== undefined) types.add('null');
    return types;
  }

  /** The schema described by the node's own keywords (everything but $ref, allOf, anyOf and oneOf). */
  private ownSchema(
    raw: JsonRecord,
    pointer: string,
    depth: number,
    declared: Set<JsonSchemaTypeName> | undefined,
  ): ParamSchema {
    const annotations = this.readAnnotations(raw, pointer, depth);
    let enumValues = this.readEnum(raw, pointer);
    let types = declared;
    let inferred = false;
    if (types === undefined) {
      const families = new Set<Exclude<KeywordFamily, 'any'>>();
      for (const keyword of Object.keys(raw)) {
        const family = SUPPORTED_KEYWORDS.get(keyword);
        if (family !== undefined && family !== 'any') families.add(family);
      }
      if (families.size > 1) throw messages.ambiguousUntypedSchema(this.where(pointer), [...families]);
      const [family] = families;
      if (family !== undefined) {
        types = new Set([TYPE_OF_FAMILY[family]]);
        inferred = true;
      } else if (enumValues !== undefined) {
        types = this.typesOfValues(enumValues);
      }
    }

    let schema: Draft;
    if (types === undefined) {
      schema = { kind: 'any' };
    } else {
      const nonNull = [...types].filter(
        (type): type is Exclude<JsonSchemaTypeName, 'null'> =>
          type !== 'null' && !(type === 'integer' && types.has('number')),
      );
      const nullable = types.has('null');
      if (nonNull.length === 0) {
        // `type: "null"`: the IR has no null kind; an any whose only value is null says the same.
        const values = enumValues === undefined ? [null] : enumValues.filter((value) => value === null);
        if (values.length === 0) throw messages.emptyEnum(this.where(`${pointer}/enum`));
        enumValues = values;
        schema = { kind: 'any' };
      } else if (nonNull.length === 1) {
        schema = this.typedSchema(nonNull[0]!, raw, pointer, depth);
        if (nullable) schema.nullable = true;
      } else {
        schema = { kind: 'union', variants: nonNull.map((type) => this.typedSchema(type, raw, pointer, depth)) };
        if (nullable) schema.nullable = true;
      }
    }
    if (enumValues !== undefined) {
      schema.enum = enumValues;
      // `type: [T, "null"]` with an enum that does not list null: the enum refuses null.
      if (schema.nullable === true && !enumValues.includes(null)) delete schema.nullable;
    }
    const hint = unenforcedFormatHint(raw['format']);
    if (hint !== undefined && schema.kind === 'string') {
      annotations.description =
        annotations.description === undefined ? hint : `${annotations.description as string} ${hint}`;
      schema.unenforcedFormat = raw['format'];
    }
    const result = { ...schema, ...annotations } as unknown as ParamSchema;
    if (inferred) this.algebra.markInferred(result);
    return result;
  }

  /** The JSON types of enum values, when they have exactly one (besides null); otherwise the schema stays `any`. */
  private typesOfValues(values: readonly EnumValue[]): Set<JsonSchemaTypeName> | undefined {
    const types = new Set<JsonSchemaTypeName>();
    for (const value of values) {
      if (value === null) types.add('null');
      else if (typeof value === 'string') types.add('string');
      else if (typeof value === 'boolean') types.add('boolean');
      else types.add(Number.isInteger(value) ? 'integer' : 'number');
    }
    if (types.has('integer') && types.has('number')) types.delete('integer');
    const nonNull = [...types].filter((type) => type !== 'null');
    return nonNull.length === 1 ? types : undefined;
  }

  private typedSchema(
    type: Exclude<JsonSchemaTypeName, 'null'>,
    raw: JsonRecord,
    pointer: string,
    depth: number,
  ): Draft {
    switch (type) {
      case 'string':
        return this.stringSchema(raw, pointer);
      case 'integer':
        return { kind: 'int', ...this.numericKeywords(raw, pointer) };
      case 'number':
        return { kind: 'float', ...this.numericKeywords(raw, pointer) };
      case 'boolean':
        return { kind: 'bool' };
      case 'array': {
        const items = raw['items'];
        const schema: Draft = {
          kind: 'array',
          items: items === undefined ? ANY : this.importSchema(items, `${pointer}/items`, depth + 1),
        };
        this.copyCount(raw, schema, 'minItems', pointer);
        this.copyCount(raw, schema, 'maxItems', pointer);
        const uniqueItems = raw['uniqueItems'];
        if (uniqueItems !== undefined) {
          if (typeof uniqueItems !== 'boolean')
            throw messages.invalidKeywordValue(
              this.where(`${pointer}/uniqueItems`),
              'uniqueItems',
              'true or false',
              uniqueItems,
            );
          schema.uniqueItems = uniqueItems;
        }
        return schema;
      }
      case 'object':
        return this.objectSchema(raw, pointer, depth);
    }
  }

  private stringSchema(raw: JsonRecord, pointer: string): Draft {
    const format = raw['format'];
    if (format !== undefined && typeof format !== 'string')
      throw messages.invalidKeywordValue(this.where(`${pointer}/format`), 'format', 'a string', format);
    if (format === 'date' || format === 'date-time') {
      const extra = STRING_CONSTRAINTS.filter((keyword) => keyword !== 'format' && raw[keyword] !== undefined);
      if (extra.length > 0) throw messages.formatWithStringConstraints(this.where(pointer), format, extra);
      return { kind: format === 'date' ? 'date' : 'datetime' };
    }
    const schema: Draft = { kind: 'string' };
    this.copyCount(raw, schema, 'minLength', pointer);
    this.copyCount(raw, schema, 'maxLength', pointer);
    const pattern = raw['pattern'];
    if (pattern !== undefined) schema.pattern = this.checkPattern(pattern, `${pointer}/pattern`);
    // Only a format toolwright enforces stays a format (`rules/format/`); another is a hint in the description.
    if (format !== undefined && formatRule(format) !== undefined) schema.format = format;
    return schema;
  }

  private numericKeywords(raw: JsonRecord, pointer: string): Draft {
    const bounds: Draft = {};
    for (const keyword of ['minimum', 'maximum'] as const) {
      const value = raw[keyword];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw messages.invalidKeywordValue(this.where(`${pointer}/${keyword}`), keyword, 'a finite number', value);
      bounds[keyword] = value;
    }
    for (const [keyword, inclusive] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      const value = raw[keyword];
      if (value === undefined || value === false) continue;
      if (value === true) {
        // Draft 4: a boolean that makes the matching inclusive bound exclusive (no bound: nothing to make exclusive).
        if (bounds[inclusive] !== undefined) {
          bounds[keyword] = bounds[inclusive];
          delete bounds[inclusive];
        }
        continue;
      }
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw messages.invalidKeywordValue(this.where(`${pointer}/${keyword}`), keyword, 'a finite number', value);
      bounds[keyword] = value;
    }
    const multipleOf = raw['multipleOf'];
    if (multipleOf !== undefined) {
      if (typeof multipleOf !== 'number' || !Number.isFinite(multipleOf) || multipleOf <= 0) {
        throw messages.invalidKeywordValue(
          this.where(`${pointer}/multipleOf`),
          'multipleOf',
          'a number greater than 0',
          multipleOf,
        );
      }
      bounds.multipleOf = multipleOf;
    }
    return bounds;
  }

  private copyCount(raw: JsonRecord, target: Draft, keyword: string, pointer: string): void {
    const value = raw[keyword];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw messages.invalidKeywordValue(this.where(`${pointer}/${keyword}`), keyword, 'a non-negative integer', value);
    }
    target[keyword] = value;
  }

  private checkPattern(pattern: unknown, pointer: string): string {
    if (typeof pattern !== 'string')
      throw messages.invalidKeywordValue(this.where(pointer), 'pattern', 'a string', pattern);
    if (pattern.length > this.limits.maxPatternLength)
      throw messages.patternTooLong(this.where(pointer), pattern.length, this.limits.maxPatternLength);
    try {
      new RegExp(pattern, 'u');
    } catch (unicodeError) {
      // Some patterns are valid only without the `u` flag (e.g. an escaped `\-` outside a class); accept those.
      try {
        new RegExp(pattern);
      } catch {
        throw messages.invalidPattern(this.where(pointer), pattern, unicodeError);
      }
    }
    if (this.untrusted && hasNestedQuantifier(pattern)) throw messages.redosPattern(this.where(pointer), pattern);
    if (this.untrusted) {
      const problem = linearEngineProblem(pattern);
      if (problem !== undefined) throw messages.nonLinearPattern(this.where(pointer), pattern, problem);
    }
    return pattern;
  }

  private objectSchema(raw: JsonRecord, pointer: string, depth: number): Draft {
    const declared = raw['properties'];
    if (declared !== undefined && !isRecord(declared)) {
      throw messages.invalidKeywordValue(
        this.where(`${pointer}/properties`),
        'properties',
        'an object of named schemas',
        declared,
      );
    }
    const requiredNames = this.readRequired(raw, pointer);

    // `unevaluatedProperties` sees the properties of every merged subschema as evaluated, exactly as toolwright merges
    // allOf/anyOf members into one object: so it reads as `additionalProperties` (and is moot next to one).
    const additionalKeyword =
      raw['additionalProperties'] !== undefined ? 'additionalProperties' : 'unevaluatedProperties';
    const additionalRaw = raw[additionalKeyword];
    let additionalProperties: boolean | ParamSchema;
    const explicitlyClosed = additionalRaw === false;
    if (additionalRaw === undefined) {
      // The arguments object follows the tool-call convention: when it declares its properties it takes no others (a
      // model's invented parameter is dropped and recorded). Nested objects are data payloads and read as JSON Schema
      // does (anything else allowed), so no value the caller meant to pass is lost (BFCL's `sendHttpRequest.data`).
      additionalProperties = this.allowAdditionalWhenAbsent || declared === undefined || !this.argumentsNodes.has(raw);
    } else if (typeof additionalRaw === 'boolean') {
      additionalProperties = additionalRaw;
    } else {
      const schema = this.importSchema(additionalRaw, `${pointer}/${additionalKeyword}`, depth + 1);
      additionalProperties = isUnconstrained(schema) && Object.keys(schema).length === 1 ? true : schema;
    }

    const properties: PropertyDefinition[] = [];
    const seen = new Set<string>();
    for (const name of declared === undefined ? [] : Object.keys(declared)) {
      const propertyPointer = `${pointer}/properties/${escapePointerSegment(name)}`;
      if (RESERVED_PROPERTY_NAMES.has(name)) throw messages.reservedPropertyName(this.where(propertyPointer), name);
      const schema = this.importSchema((declared as JsonRecord)[name], propertyPointer, depth + 1);
      properties.push({ name, schema, required: requiredNames.has(name), aliases: NO_ALIASES });
      seen.add(name);
    }
    // A required name without a declaration must be present with any value additionalProperties allows (absent
    // additionalProperties allows anything in JSON Schema: the convention above closes the object to other keys only).
    for (const name of requiredNames) {
      if (seen.has(name)) continue;
      if (explicitlyClosed) throw messages.unsatisfiableRequired(this.where(`${pointer}/required`), name);
      properties.push({
        name,
        schema: typeof additionalProperties === 'boolean' ? ANY : additionalProperties,
        required: true,
        aliases: NO_ALIASES,
      });
    }
    return { kind: 'object', properties, additionalProperties };
  }

  private readRequired(raw: JsonRecord, pointer: string): Set<string> {
    const required = raw['required'];
    const names = new Set<string>();
    if (required === undefined) return names;
    if (!Array.isArray(required))
      throw messages.invalidKeywordValue(
        this.where(`${pointer}/required`),
        'required',
        'an array of property names',
        required,
      );
    this.count(`${pointer}/required`, required.length);
    for (const name of required) {
      if (typeof name !== 'string')
        throw messages.invalidKeywordValue(
          this.where(`${pointer}/required`),
          'required',
          'an array of property names',
          name,
        );
      if (RESERVED_PROPERTY_NAMES.has(name))
        throw messages.reservedPropertyName(this.where(`${pointer}/required`), name);
      names.add(name);
    }
    return names;
  }

  private readAnnotations(raw: JsonRecord, pointer: string, depth: number): Draft {
    const annotations: Draft = {};
    for (const keyword of ['description', 'title'] as const) {
      const value = raw[keyword];
      if (value === undefined) continue;
      if (typeof value !== 'string')
        throw messages.invalidKeywordValue(this.where(`${pointer}/${keyword}`), keyword, 'a string', value);
      annotations[keyword] = this.untrusted ? clipAnnotation(value, this.limits.maxDescriptionLength) : value;
    }
    if ('default' in raw) {
      const value = this.copyValue(raw.default, `${pointer}/default`, depth);
      // An untrusted default only documents (it reaches the model in examples): one too large is left out.
      if (!this.untrusted || fitsAnnotation(value, this.limits.maxAnnotationValueLength)) annotations.default = value;
    }
    const examples = raw['examples'];
    if (examples !== undefined) {
      if (!Array.isArray(examples))
        throw messages.invalidKeywordValue(
          this.where(`${pointer}/examples`),
          'examples',
          'an array of example values',
          examples,
        );
      const kept = this.untrusted ? examples.slice(0, this.limits.maxExamples) : examples;
      const copied = this.copyValue(kept, `${pointer}/examples`, depth) as unknown[];
      annotations.examples = this.untrusted
        ? copied.filter((example) => fitsAnnotation(example, this.limits.maxAnnotationValueLength))
        : copied;
    }
    return annotations;
  }

  private readEnum(raw: JsonRecord, pointer: string): EnumValue[] | undefined {
    let values: EnumValue[] | undefined;
    const enumValues = raw['enum'];
    if (enumValues !== undefined) {
      if (!Array.isArray(enumValues))
        throw messages.invalidKeywordValue(this.where(`${pointer}/enum`), 'enum', 'an array of values', enumValues);
      if (enumValues.length === 0) throw messages.emptyEnum(this.where(`${pointer}/enum`));
      this.count(`${pointer}/enum`, enumValues.length);
      for (const value of enumValues) {
        if (!isScalar(value)) throw messages.enumValueNotRepresentable(this.where(`${pointer}/enum`), 'enum', value);
        this.checkEnumValueLength(value, `${pointer}/enum`, 'enum');
      }
      values = [...(enumValues as EnumValue[])];
    }
    if ('const' in raw) {
      const constant: unknown = raw.const;
      if (!isScalar(constant))
        throw messages.enumValueNotRepresentable(this.where(`${pointer}/const`), 'const', constant);
      this.checkEnumValueLength(constant, `${pointer}/const`, 'const');
      if (values !== undefined && !values.includes(constant))
        throw messages.constNotInEnum(this.where(`${pointer}/const`), constant);
      values = [constant];
    }
    return values;
  }

  /**
   * An untrusted enum or const string is shown to the model whole (it is the value to send, so it cannot be clipped):
   * one longer than the text cap (`maxDescriptionLength`) refuses the tool.
   */
  private checkEnumValueLength(value: unknown, pointer: string, keyword: 'enum' | 'const'): void {
    if (this.untrusted && typeof value === 'string' && value.length > this.limits.maxDescriptionLength)
      throw messages.enumValueTooLong(this.where(pointer), keyword, value.length, this.limits.maxDescriptionLength);
  }

  /** Copies a default or examples value: iterative, depth- and node-bounded, input keys kept as own data keys. */
  private copyValue(value: unknown, pointer: string, depth: number): unknown {
    const check = (item: unknown, itemDepth: number): void => {
      if (itemDepth > this.limits.maxDepth)
        throw messages.depthLimitExceeded(this.where(pointer), this.limits.maxDepth);
      this.count(pointer);
      const type = typeof item;
      if (item !== null && type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'object') {
        throw messages.invalidKeywordValue(
          this.where(pointer),
          pointer.slice(pointer.lastIndexOf('/') + 1),
          'a JSON value',
          item,
        );
      }
    };
    check(value, depth);
    if (value === null || typeof value !== 'object') return value;
    const root: object = Array.isArray(value) ? [] : {};
    const stack: Array<{ readonly from: object; readonly to: object; readonly depth: number }> = [
      { from: value, to: root, depth },
    ];
    while (stack.length > 0) {
      const { from, to, depth: level } = stack.pop()!;
      for (const key of Object.keys(from)) {
        const child = (from as Record<string, unknown>)[key];
        check(child, level + 1);
        let copy = child;
        if (child !== null && typeof child === 'object') {
          copy = Array.isArray(child) ? [] : {};
          stack.push({ from: child, to: copy as object, depth: level + 1 });
        }
        Object.defineProperty(to, key, { value: copy, enumerable: true, writable: true, configurable: true });
      }
    }
    return root;
  }

  private readSchemaList(value: unknown, keyword: string, pointer: string): readonly unknown[] {
    if (!Array.isArray(value) || value.length === 0) {
      throw messages.invalidKeywordValue(
        this.where(`${pointer}/${keyword}`),
        keyword,
        'a non-empty array of schemas',
        value,
      );
    }
    return value;
  }

  private markArguments(members: readonly unknown[]): void {
    for (const member of members) if (isRecord(member)) this.argumentsNodes.add(member);
  }

  private resolveReference(reference: unknown, pointer: string, depth: number, atArguments = false): ParamSchema {
    const where = this.where(`${pointer}/$ref`);
    if (typeof reference !== 'string') throw messages.invalidKeywordValue(where, '$ref', 'a string', reference);
    const { node, targetPointer, definitionName } = locateReference(this.root, reference, where);
    const chain = [...this.referenceChain, reference];
    if (this.activePointers.has(targetPointer)) throw messages.refRecursive(where, reference, chain);
    if (this.referenceChain.length >= this.limits.maxRefDepth)
      throw messages.refDepthExceeded(where, this.limits.maxRefDepth, chain);
    if (atArguments && isRecord(node)) this.argumentsNodes.add(node);
    this.referenceChain.push(reference);
    let schema: ParamSchema;
    try {
      schema = this.importSchema(node, targetPointer, depth + 1);
    } finally {
      this.referenceChain.pop();
    }
    if (schema.kind === 'object' && schema.name === undefined && definitionName !== undefined) {
      return this.algebra.keepInferred(schema, { ...schema, name: definitionName });
    }
    return schema;
  }

  /** anyOf / oneOf: a union of the alternatives, each narrowed by the node's other constraints. */
  private alternatives(
    value: unknown,
    keyword: 'anyOf' | 'oneOf',
    combined: ParamSchema,
    pointer: string,
    depth: number,
  ): ParamSchema {
    const list = this.readSchemaList(value, keyword, pointer);
    const variants = list.map((item, index) => this.importSchema(item, `${pointer}/${keyword}/${index}`, depth + 1));
    const annotations = pickAnnotations(combined);
    const constraints = this.algebra.keepInferred(combined, withoutAnnotations(combined));
    const unconstrained = isUnconstrained(constraints);
    const allowsNull =
      unconstrained ||
      constraints.nullable === true ||
      this.algebra.isInferred(combined) ||
      (constraints.kind === 'any' && constraints.enum!.includes(null));
    const nullable = variants.some(isNullOnly) && allowsNull;
    let rest = variants.filter((variant) => !isNullOnly(variant));
    if (!unconstrained) rest = rest.map((variant) => this.algebra.intersect(variant, constraints, pointer));
    if (rest.length === 0) {
      if (!nullable)
        throw messages.incompatibleAllOf(
          this.where(pointer),
          `no ${keyword} alternative is compatible with the other keywords`,
        );
      return { kind: 'any', enum: [null], ...annotations };
    }
    if (rest.length === 1) {
      const single = rest[0]!;
      const collides = Object.keys(annotations).some(
        (key) =>
          single[key as keyof ParamSchema] !== undefined &&
          !jsonEquals(single[key as keyof ParamSchema], annotations[key]),
      );
      if (!collides) {
        if (!nullable || single.nullable) return this.algebra.keepInferred(single, { ...single, ...annotations });
        // The null alternative adds null to the values an enum allows.
        const values = single.enum && !single.enum.includes(null) ? [...single.enum, null] : single.enum;
        return {
          ...single,
          ...(single.kind === 'any' ? {} : { nullable: true }),
          ...(values ? { enum: values } : {}),
          ...annotations,
        };
      }
    }
    return { kind: 'union', variants: rest, ...(nullable ? { nullable: true } : {}), ...annotations };
  }
}

/**
 * The one clip of imported text (an untrusted tool's or parameter's description and title, the string values of its
 * annotations): cut to `maximum` characters (`maxDescriptionLength`, 4,096 by default), saying so.
 */
export function clipAnnotation(text: string, maximum: number): string {
  return text.length > maximum ? `${text.slice(0, maximum)}... [clipped from ${text.length} characters]` : text;
}

/** Whether a copied default or example is at most `maximum` characters of JSON (counting stops past the maximum). */
function fitsAnnotation(value: unknown, maximum: number): boolean {
  let used = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && used <= maximum) {
    const item = stack.pop();
    if (typeof item === 'string') used += item.length + 2;
    else if (item === null || typeof item !== 'object') used += String(item).length;
    else
      for (const key of Object.keys(item)) {
        used += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
  }
  return used <= maximum;
}

/**
 * Imports a JSON Schema object schema (a tool's `parameters` / MCP `inputSchema`) into a frozen IR object schema.
 * Throws a DefinitionError naming the target, the JSON pointer and the fix for anything it cannot represent.
 */
export function fromJsonSchema(schema: unknown, options: JsonSchemaImportOptions = {}): ObjectSchema {
  const target = options.target ?? 'JSON Schema';
  // Cross-field keywords on the arguments object become rules (cross-field-keywords.ts) instead of being refused.
  const crossField = extractCrossFieldKeywords(schema, target);
  schema = crossField.schema;
  const importer = new JsonSchemaImporter(
    schema,
    target,
    resolveLimits(options.limits),
    options.untrusted === true,
    options.annotationKeywords ?? [],
    options.additionalPropertiesWhenAbsent === 'allow',
  );
  let imported = importer.importSchema(schema, '', 0);
  // Tool arguments are always an object: a root that constrains nothing (`{}`, `true`) is a free-form object.
  if (isUnconstrained(imported))
    imported = { kind: 'object', properties: [], additionalProperties: true, ...pickAnnotations(imported) };
  if (imported.kind !== 'object') {
    const described =
      imported.kind === 'union'
        ? 'a choice between several schemas (anyOf/oneOf)'
        : imported.kind === 'any'
          ? 'any value'
          : `a ${imported.kind}`;
    throw messages.rootNotAnObjectSchema(importer.where(''), described);
  }
  return deepFreeze(withCrossFieldRules(imported, crossField.rules, target));
}

/**
 * A format toolwright does not enforce (`int32`, `phone`, a remote tool's own), as a hint for the description
 * (`Format: phone.`): never advertised as a format, since nothing would check it. A name beyond 40 plain characters
 * (letters, digits, `_`, `-`, `.`) is dropped instead: an untrusted schema does not write free text this way.
 */
function unenforcedFormatHint(format: unknown): string | undefined {
  if (typeof format !== 'string' || formatRule(format) !== undefined) return undefined;
  return /^[A-Za-z0-9_.-]{1,40}$/.test(format) ? `Format: ${format}.` : undefined;
}
