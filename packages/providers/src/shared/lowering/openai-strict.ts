/**
 * OpenAI strict mode (Structured Outputs for function tools; also used for Mistral's `strict`):
 * - every property is required; an optional property becomes nullable (`type: [T, "null"]`, `null` added to an
 *   `enum`, or a `{type: "null"}` variant) and carries a marker sentence ("send null to omit it");
 * - `additionalProperties: false` on every object (a free-form map cannot be expressed: its schema is moved into the
 *   description and lint reports it);
 * - keywords strict mode rejects (composition, `default`, the keywords OpenAI's `toStrictJsonSchema` refuses,
 *   formats outside the supported list) move into the description note;
 * - `oneOf` becomes `anyOf`.
 * On the way back, `stripStrictNulls` turns the nulls of originally optional properties into "absent".
 */
import type { Transformation } from '@toolwright/core';
import { withoutDocumentKeywords } from './policies';
import {
  OPTIONAL_NULLABLE_MARKER,
  OPTIONAL_NULL_MARKER,
  joinDescription,
  moveKeywordsToNote,
  addToNote,
  splitNote,
} from '../description-notes';
import {
  acceptsNull,
  cloneJson,
  isJsonSchema,
  isObjectSchema,
  isPlainObject,
  mapChildSchemas,
  propertiesOf,
  requiredOf,
  resolveLocalReference,
  schemaTypes,
  type JsonSchema,
} from '../json-schema';

/** String formats strict mode accepts. */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords strict mode (or the SDK's `toStrictJsonSchema`) rejects; moved into the description. */
export const OPENAI_STRICT_UNSUPPORTED_KEYWORDS: readonly string[] = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  'contains',
  'minContains',
  'maxContains',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'uniqueItems',
  'default',
];

export function lowerOpenAIStrict(schema: JsonSchema): JsonSchema {
  return lowerNode(cloneJson(schema));
}

function lowerNode(node: JsonSchema): JsonSchema {
  moveKeywordsToNote(node, OPENAI_STRICT_UNSUPPORTED_KEYWORDS);
  if (typeof node['format'] === 'string' && !OPENAI_STRICT_FORMATS.has(node['format']))
    moveKeywordsToNote(node, ['format']);
  if (Array.isArray(node['oneOf'])) {
    if (node['anyOf'] === undefined) {
      node['anyOf'] = node['oneOf'];
      delete node['oneOf'];
    } else {
      moveKeywordsToNote(node, ['oneOf']);
    }
  }
  if (isObjectSchema(node) && node['additionalProperties'] !== false) {
    if (node['additionalProperties'] !== undefined) moveKeywordsToNote(node, ['additionalProperties']);
    node['additionalProperties'] = false;
  }

  mapChildSchemas(node, (child) => lowerNode(child));

  if (isObjectSchema(node)) {
    const required = new Set(requiredOf(node));
    const properties: Record<string, unknown> = {};
    for (const [name, property] of propertiesOf(node)) {
      properties[name] = required.has(name) ? property : optionalToNullable(property);
    }
    node['properties'] = properties;
    node['required'] = Object.keys(properties);
  }
  return node;
}

/** Makes a lowered optional property required-but-nullable, with its marker sentence. */
function optionalToNullable(property: JsonSchema): JsonSchema {
  if (acceptsNull(property)) {
    return withMarker(property, OPTIONAL_NULLABLE_MARKER);
  }
  const types = schemaTypes(property);
  if (types.length > 0 && property['const'] === undefined) {
    property['type'] = [...types, 'null'];
    if (Array.isArray(property['enum'])) property['enum'] = [...(property['enum'] as unknown[]), null];
    return withMarker(property, OPTIONAL_NULL_MARKER);
  }
  if (Array.isArray(property['anyOf'])) {
    property['anyOf'] = [...(property['anyOf'] as unknown[]), { type: 'null' }];
    return withMarker(property, OPTIONAL_NULL_MARKER);
  }
  const { description, ...rest } = property;
  const wrapped: JsonSchema = { anyOf: [rest, { type: 'null' }] };
  if (typeof description === 'string') wrapped['description'] = description;
  return withMarker(wrapped, OPTIONAL_NULL_MARKER);
}

/** Inserts a marker sentence before the note (the note stays last so it can be found). */
function withMarker(schema: JsonSchema, marker: string): JsonSchema {
  const { text, note } = splitNote(typeof schema['description'] === 'string' ? schema['description'] : undefined);
  schema['description'] = joinDescription(text, marker);
  if (Object.keys(note).length > 0) addToNote(schema, note);
  return schema;
}

/**
 * Removes the `null` values of properties that are optional in the canonical schema and do not accept null,
 * recursively (nested objects, array items, local `$ref`s). Returns the arguments (a copy when anything changed)
 * and one Transformation per removed value.
 */
export function stripStrictNulls(
  argumentsObject: Record<string, unknown>,
  canonical: JsonSchema,
): { arguments: Record<string, unknown>; transformations: Transformation[] } {
  const transformations: Transformation[] = [];
  const result = stripValue(argumentsObject, canonical, canonical, '', transformations, 0);
  return { arguments: result as Record<string, unknown>, transformations };
}

function stripValue(
  value: unknown,
  schema: JsonSchema,
  root: JsonSchema,
  path: string,
  transformations: Transformation[],
  depth: number,
): unknown {
  if (depth > 64) return value;
  const reference = schema['$ref'];
  if (typeof reference === 'string') {
    const target = resolveLocalReference(root, reference);
    return target ? stripValue(value, target, root, path, transformations, depth + 1) : value;
  }
  if (Array.isArray(value)) {
    const items = schema['items'];
    if (!isJsonSchema(items)) return value;
    let changed = false;
    const mapped = value.map((item, index) => {
      const next = stripValue(item, items, root, `${path}[${index}]`, transformations, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? mapped : value;
  }
  if (!isPlainObject(value) || !isObjectSchema(schema)) return value;
  const required = new Set(requiredOf(schema));
  const properties = new Map(propertiesOf(schema));
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = properties.get(key);
    if (!propertySchema) continue;
    const propertyPath = path === '' ? key : `${path}.${key}`;
    if (item === null && !required.has(key) && !acceptsNull(propertySchema)) {
      copy ??= { ...value };
      delete copy[key];
      transformations.push({ path: propertyPath, rule: 'strict-null-to-absent', from: null, to: undefined });
      continue;
    }
    const next = stripValue(item, propertySchema, root, propertyPath, transformations, depth + 1);
    if (next !== item) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** The `parameters` both OpenAI APIs (Chat Completions and Responses) get for a canonical schema. */
export function lowerOpenAIParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  const parameters = withoutDocumentKeywords(canonical);
  return options.strict ? lowerOpenAIStrict(parameters) : parameters;
}
