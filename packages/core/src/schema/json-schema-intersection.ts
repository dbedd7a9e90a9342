import type { KeywordFamily } from './json-schema-types';
import { escapePointerSegment } from './json-schema-types';
import { jsonEquals } from './json-equals';
import { quote, schemaMessages as messages } from './messages';
import type { SchemaLocation } from './messages';
import type { ObjectSchema, ParamSchema, PropertyDefinition } from '../types/schema';

/**
 * The intersection algebra of imported schemas: the schema of values valid against two schemas (allOf, a $ref and
 * its siblings, a node's keywords and one of its anyOf/oneOf alternatives). Bounds take the stricter value, enums
 * their common values, objects the union of their properties; anything that cannot be combined exactly is refused.
 * It remembers which schemas had their kind inferred from type-specific keywords (no `type`): those keywords bind
 * only values of their own type.
 */

type Draft = Record<string, unknown>;

export const ANNOTATION_KEYS = ['description', 'title', 'default', 'examples'] as const;
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'] as const;
const MUST_AGREE = ['pattern', 'format', 'multipleOf'] as const;
export const STRING_CONSTRAINTS = ['minLength', 'maxLength', 'pattern', 'format'] as const;

const FAMILY_OF_KIND: Readonly<Record<ParamSchema['kind'], KeywordFamily | undefined>> = {
  string: 'string',
  date: 'string',
  datetime: 'string',
  int: 'number',
  float: 'number',
  array: 'array',
  object: 'object',
  bool: undefined,
  union: undefined,
  any: undefined,
};

export function isUnconstrained(schema: ParamSchema): boolean {
  return schema.kind === 'any' && schema.enum === undefined;
}

export function isNullOnly(schema: ParamSchema): boolean {
  return schema.kind === 'any' && schema.enum !== undefined && schema.enum.length === 1 && schema.enum[0] === null;
}

export function pickAnnotations(schema: ParamSchema): Draft {
  const annotations: Draft = {};
  for (const key of ANNOTATION_KEYS) if (schema[key] !== undefined) annotations[key] = schema[key];
  return annotations;
}

export function withoutAnnotations(schema: ParamSchema): ParamSchema {
  const copy: Draft = { ...schema };
  for (const key of ANNOTATION_KEYS) delete copy[key];
  return copy as unknown as ParamSchema;
}

export class SchemaIntersection {
  /** Schemas whose kind was inferred from type-specific keywords (no `type`): those keywords bind only that type. */
  private readonly inferred = new WeakSet<object>();

  constructor(private readonly where: (pointer: string) => SchemaLocation) {}

  /** Marks a schema as inferred (its kind came from keywords, not from `type`). */
  markInferred(schema: object): void {
    this.inferred.add(schema);
  }

  isInferred(schema: object): boolean {
    return this.inferred.has(schema);
  }

  keepInferred(from: ParamSchema, to: Draft | ParamSchema): ParamSchema {
    if (this.inferred.has(from)) this.inferred.add(to);
    return to as ParamSchema;
  }

  /**
   * The schema of values valid against both (allOf, a $ref and its siblings, a node's keywords and one of its
   * alternatives). Bounds take the stricter value, enums their common values, objects the union of their
   * properties (as code generators merge allOf); annotations come from `right` when both have one. Anything
   * that cannot be combined exactly is refused.
   */
  intersect(left: ParamSchema, right: ParamSchema, pointer: string): ParamSchema {
    const annotations = { ...pickAnnotations(left), ...pickAnnotations(right) };
    const a = this.keepInferred(left, withoutAnnotations(left));
    const b = this.keepInferred(right, withoutAnnotations(right));
    if (isUnconstrained(a)) return this.keepInferred(right, { ...b, ...annotations });
    if (isUnconstrained(b)) return this.keepInferred(left, { ...a, ...annotations });
    const leftInferred = this.inferred.has(left);
    const rightInferred = this.inferred.has(right);
    const conflict = (detail: string): never => {
      throw messages.incompatibleAllOf(this.where(pointer), detail);
    };

    if (a.kind === 'union' || b.kind === 'union') {
      if (a.kind === 'union' && b.kind === 'union') {
        if (!jsonEquals(a, b)) conflict('two different lists of alternatives (anyOf/oneOf) cannot be combined');
        return { ...a, ...annotations };
      }
      const [union, other, otherInferred] = a.kind === 'union' ? [a, b, rightInferred] : [b, a, leftInferred];
      if (union.kind !== 'union') return conflict('unreachable');
      const variants = union.variants.map((variant) => this.intersect(variant, other, pointer));
      const nullable = union.nullable === true && (other.nullable === true || otherInferred);
      const merged: Draft = { kind: 'union', variants, ...annotations };
      if (nullable) merged.nullable = true;
      if (union.enum !== undefined) merged.enum = union.enum;
      return merged as unknown as ParamSchema;
    }

    let kind: ParamSchema['kind'];
    if (a.kind === b.kind) kind = a.kind;
    else if (a.kind === 'any') kind = b.kind;
    else if (b.kind === 'any') kind = a.kind;
    else if ((a.kind === 'int' && b.kind === 'float') || (a.kind === 'float' && b.kind === 'int')) kind = 'int';
    else if (
      a.kind === 'string' &&
      (b.kind === 'date' || b.kind === 'datetime') &&
      STRING_CONSTRAINTS.every((key) => a[key] === undefined)
    )
      kind = b.kind;
    else if (
      b.kind === 'string' &&
      (a.kind === 'date' || a.kind === 'datetime') &&
      STRING_CONSTRAINTS.every((key) => b[key] === undefined)
    )
      kind = a.kind;
    // Keywords written without a type bind only values of their own type: for another type they are moot.
    else if (leftInferred && FAMILY_OF_KIND[a.kind] !== FAMILY_OF_KIND[b.kind])
      return this.keepInferred(right, { ...b, ...annotations });
    else if (rightInferred && FAMILY_OF_KIND[a.kind] !== FAMILY_OF_KIND[b.kind])
      return this.keepInferred(left, { ...a, ...annotations });
    else return conflict(`a value cannot be both ${a.kind} and ${b.kind}`);

    const first = a as unknown as Draft;
    const second = b as unknown as Draft;
    const merged: Draft = { ...first, ...second, kind };
    if (a.kind === 'any') merged.nullable = b.nullable;
    else if (b.kind === 'any') merged.nullable = a.nullable;
    else if (leftInferred) merged.nullable = b.nullable;
    else if (rightInferred) merged.nullable = a.nullable;
    else merged.nullable = a.nullable === true && b.nullable === true ? true : undefined;
    if (merged.nullable === undefined) delete merged.nullable;

    if (a.enum !== undefined && b.enum !== undefined) {
      const common = a.enum.filter((value) => b.enum!.includes(value));
      if (common.length === 0) conflict('the enums have no value in common');
      merged.enum = common;
    }
    for (const key of LOWER_BOUNDS)
      if (first[key] !== undefined && second[key] !== undefined)
        merged[key] = Math.max(first[key] as number, second[key] as number);
    for (const key of UPPER_BOUNDS)
      if (first[key] !== undefined && second[key] !== undefined)
        merged[key] = Math.min(first[key] as number, second[key] as number);
    for (const key of MUST_AGREE) {
      if (first[key] !== undefined && second[key] !== undefined && first[key] !== second[key]) {
        conflict(`${key} ${quote(first[key])} and ${key} ${quote(second[key])} differ`);
      }
    }
    if (first.uniqueItems !== undefined || second.uniqueItems !== undefined)
      merged.uniqueItems = first.uniqueItems === true || second.uniqueItems === true;
    if (a.kind === 'array' && b.kind === 'array') merged.items = this.intersect(a.items, b.items, `${pointer}/items`);
    if (a.kind === 'object' && b.kind === 'object') {
      merged.properties = this.mergeProperties(a, b, pointer);
      merged.additionalProperties = this.intersectAdditional(a.additionalProperties, b.additionalProperties, pointer);
      merged.name = b.name ?? a.name;
      if (merged.name === undefined) delete merged.name;
    }
    return { ...merged, ...annotations } as unknown as ParamSchema;
  }

  private mergeProperties(a: ObjectSchema, b: ObjectSchema, pointer: string): PropertyDefinition[] {
    const byName = new Map<string, PropertyDefinition>();
    for (const property of [...a.properties, ...b.properties]) {
      const existing = byName.get(property.name);
      byName.set(
        property.name,
        existing === undefined
          ? property
          : {
              ...existing,
              schema: this.intersect(
                existing.schema,
                property.schema,
                `${pointer}/properties/${escapePointerSegment(property.name)}`,
              ),
              required: existing.required || property.required,
            },
      );
    }
    return [...byName.values()];
  }

  private intersectAdditional(
    a: boolean | ParamSchema,
    b: boolean | ParamSchema,
    pointer: string,
  ): boolean | ParamSchema {
    if (a === false || b === false) return false;
    if (a === true) return b;
    if (b === true) return a;
    return this.intersect(a, b, `${pointer}/additionalProperties`);
  }
}
