import type { ToolDefinition } from '../types/definition';
import type { NumericBounds, ObjectSchema, ParamSchema, SchemaBase } from '../types/schema';
import {
  JSON_SCHEMA_DIALECT,
  escapePointerSegment,
  type JsonSchemaObject,
  type JsonSchemaTypeName,
} from './json-schema-types';
import { crossFieldKeywords } from './cross-field-keywords';
import { DATE_JSON_SCHEMA } from '../rules/date';
import { DATE_TIME_JSON_SCHEMA } from '../rules/date-time';
import { formatRule } from '../rules/format';
import { schemaMessages as messages } from './messages';

/**
 * IR -> JSON Schema (draft 2020-12), the compact grammar's mapping:
 * int -> integer, float -> number, bool -> boolean, date -> {type: string, format: date},
 * datetime -> {type: string, format: date-time}, array -> {type: array, items}, object -> properties, required and
 * additionalProperties (always written), union -> anyOf, any -> {}, nullable -> type [T, 'null'].
 * Context properties are never written; extracted properties are written but never required.
 * Keys come out in one fixed order, so equal definitions always give byte-equal JSON.
 */

export interface JsonSchemaExportOptions {
  /** Write `$schema` (the draft 2020-12 dialect URI) at the root. Providers do not want it; default false. */
  readonly includeDialect?: boolean;
}

/** The IR is a tree whose depth is bounded at import; a deeper one can only come from a DTO that contains itself. */
const MAXIMUM_EXPORT_DEPTH = 128;

function isToolDefinition(input: ToolDefinition | ObjectSchema): input is ToolDefinition {
  return (input as Partial<ObjectSchema>).kind !== 'object';
}

/** Copies a JSON value (a default, an example) so the exported schema never shares objects with the frozen IR. */
function copyJsonValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<{ readonly from: object; readonly to: Record<string, unknown> | unknown[] }> = [
    { from: value, to: root as Record<string, unknown> },
  ];
  while (stack.length > 0) {
    const { from, to } = stack.pop()!;
    for (const key of Object.keys(from)) {
      const child = (from as Record<string, unknown>)[key];
      let copy = child;
      if (child !== null && typeof child === 'object') {
        copy = Array.isArray(child) ? [] : {};
        stack.push({ from: child, to: copy as Record<string, unknown> });
      }
      defineEntry(to as Record<string, unknown>, key, copy);
    }
  }
  return root;
}

/** Sets a key that came from user input; `defineProperty` keeps `__proto__` an own key instead of a prototype swap. */
function defineEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

class JsonSchemaExporter {
  constructor(private readonly target: string | undefined) {}

  convert(schema: ParamSchema, pointer: string, depth: number): JsonSchemaObject {
    if (depth > MAXIMUM_EXPORT_DEPTH)
      throw messages.exportDepthExceeded({ target: this.target, property: `#${pointer}` }, MAXIMUM_EXPORT_DEPTH);
    const output: JsonSchemaObject = {};
    switch (schema.kind) {
      case 'string':
        output.type = this.typeName('string', schema);
        // Only a format toolwright enforces is advertised (the IR holds no other; `rules/format/`).
        if (schema.format !== undefined && formatRule(schema.format) !== undefined) output.format = schema.format;
        break;
      case 'int':
        output.type = this.typeName('integer', schema);
        break;
      case 'float':
        output.type = this.typeName('number', schema);
        break;
      case 'bool':
        output.type = this.typeName('boolean', schema);
        break;
      case 'date':
        output.type = this.typeName(DATE_JSON_SCHEMA.type, schema);
        output.format = DATE_JSON_SCHEMA.format;
        break;
      case 'datetime':
        output.type = this.typeName(DATE_TIME_JSON_SCHEMA.type, schema);
        output.format = DATE_TIME_JSON_SCHEMA.format;
        break;
      case 'array':
        output.type = this.typeName('array', schema);
        break;
      case 'object':
        output.type = this.typeName('object', schema);
        break;
      case 'union':
      case 'any':
        break;
    }
    this.annotations(schema, output);
    if (schema.kind === 'object') this.objectKeywords(schema, output, pointer, depth);
    if (schema.kind === 'array') output.items = this.convert(schema.items, `${pointer}/items`, depth + 1);
    if (schema.kind === 'union') {
      const variants = schema.variants.map((variant, index) =>
        this.convert(variant, `${pointer}/anyOf/${index}`, depth + 1),
      );
      if (schema.nullable && !schema.variants.some((variant) => variant.nullable || variant.kind === 'any'))
        variants.push({ type: 'null' });
      output.anyOf = variants;
    }
    if (schema.kind === 'int' || schema.kind === 'float') this.numericKeywords(schema, output);
    if (schema.kind === 'string') {
      if (schema.minLength !== undefined) output.minLength = schema.minLength;
      if (schema.maxLength !== undefined) output.maxLength = schema.maxLength;
      if (schema.pattern !== undefined) output.pattern = schema.pattern;
    }
    if (schema.kind === 'array') {
      if (schema.minItems !== undefined) output.minItems = schema.minItems;
      if (schema.maxItems !== undefined) output.maxItems = schema.maxItems;
      if (schema.uniqueItems !== undefined) output.uniqueItems = schema.uniqueItems;
    }
    if (schema.default !== undefined) output.default = copyJsonValue(schema.default);
    if (schema.examples !== undefined) output.examples = schema.examples.map(copyJsonValue);
    return output;
  }

  /** `T`, or `[T, 'null']` when null is a value of its own. */
  private typeName(name: JsonSchemaTypeName, schema: SchemaBase): JsonSchemaTypeName | JsonSchemaTypeName[] {
    return schema.nullable ? [name, 'null'] : name;
  }

  private annotations(schema: ParamSchema, output: JsonSchemaObject): void {
    if (schema.title !== undefined) output.title = schema.title;
    if (schema.description !== undefined) output.description = schema.description;
    if (schema.enum !== undefined) {
      const values = [...schema.enum];
      // A nullable enum must list null too, or JSON Schema would refuse the null that `type` allows.
      if (schema.nullable && schema.kind !== 'union' && schema.kind !== 'any' && !values.includes(null))
        values.push(null);
      output.enum = values;
    }
  }

  private objectKeywords(schema: ObjectSchema, output: JsonSchemaObject, pointer: string, depth: number): void {
    const properties: Record<string, JsonSchemaObject> = {};
    const required: string[] = [];
    for (const property of schema.properties) {
      // Context fields come from the trusted execution context only: the model never sees them.
      if (property.context !== undefined) continue;
      defineEntry(
        properties,
        property.name,
        this.convert(property.schema, `${pointer}/properties/${escapePointerSegment(property.name)}`, depth + 1),
      );
      // An extracted field is filled from the data packets when the model gives none: the model may omit it.
      if (property.required && property.extract === undefined) required.push(property.name);
    }
    output.properties = properties;
    if (required.length > 0) output.required = required;
    output.additionalProperties =
      typeof schema.additionalProperties === 'boolean'
        ? schema.additionalProperties
        : this.convert(schema.additionalProperties, `${pointer}/additionalProperties`, depth + 1);
    if (schema.crossFieldRules !== undefined && schema.crossFieldRules.length > 0)
      Object.assign(output, crossFieldKeywords(schema.crossFieldRules));
  }

  private numericKeywords(schema: NumericBounds, output: JsonSchemaObject): void {
    if (schema.minimum !== undefined) output.minimum = schema.minimum;
    if (schema.exclusiveMinimum !== undefined) output.exclusiveMinimum = schema.exclusiveMinimum;
    if (schema.maximum !== undefined) output.maximum = schema.maximum;
    if (schema.exclusiveMaximum !== undefined) output.exclusiveMaximum = schema.exclusiveMaximum;
    if (schema.multipleOf !== undefined) output.multipleOf = schema.multipleOf;
  }
}

/** One parameter schema as JSON Schema. */
export function paramToJsonSchema(schema: ParamSchema): JsonSchemaObject {
  return new JsonSchemaExporter(undefined).convert(schema, '', 0);
}

/**
 * A tool's parameters (or any object schema) as a draft 2020-12 object schema, ready for a provider's
 * `parameters` / `input_schema` / MCP `inputSchema`.
 */
export function toJsonSchema(
  input: ToolDefinition | ObjectSchema,
  options: JsonSchemaExportOptions = {},
): JsonSchemaObject {
  const definition = isToolDefinition(input) ? input : undefined;
  const schema = definition ? definition.parameters : (input as ObjectSchema);
  const converted = new JsonSchemaExporter(definition?.name ?? schema.name).convert(schema, '', 0);
  return options.includeDialect ? { $schema: JSON_SCHEMA_DIALECT, ...converted } : converted;
}
