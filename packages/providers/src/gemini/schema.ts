/**
 * Gemini's `parameters`: the OpenAPI 3.0 subset `Schema` (§4.1a). Upper-case `type`; `nullable: true` instead of
 * type arrays; `enum` only on strings (with `format: "enum"`); no `additionalProperties`, `$ref`, `const`,
 * `oneOf`, `allOf`, `not`, `exclusive*`, `multipleOf`, `uniqueItems`, `examples`; int64 keywords (`minItems`, ...)
 * as strings; `propertyOrdering` keeps the declaration order (properties are otherwise sorted). What cannot be said
 * moves into the description note; `fromGeminiSchema` undoes all of it.
 */
import { moveKeywordsToNote } from '../shared/description-notes';
import { inlineLocalReferences } from '../shared/lowering/keyword-policy';
import { withoutDocumentKeywords } from '../shared/lowering/policies';
import { undoLowering } from '../shared/lowering/reverse';
import { isJsonSchema, isPlainObject, propertiesOf, schemaTypes, type JsonSchema } from '../shared/json-schema';

/**
 * The values of `@google/genai`'s `Type` enum, spelled out so this package's declarations never import the optional
 * SDK (the enum's values are these strings; a test checks they stay equal).
 */
export type GeminiType = 'TYPE_UNSPECIFIED' | 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/** Gemini's `Schema` (OpenAPI subset). */
export interface GeminiSchema {
  type?: GeminiType;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  minItems?: string;
  maxItems?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string;
  maxProperties?: string;
  propertyOrdering?: string[];
  minLength?: string;
  maxLength?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: GeminiSchema[];
  default?: unknown;
  example?: unknown;
}

/** The keywords the `Schema` proto has. */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'propertyOrdering',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
]);

/** int64 keywords: strings in proto JSON (the SDK types them as strings). */
const INT64_KEYWORDS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

/** Formats kept per type (§4.1a: stick to `date-time` and `enum` for strings). */
const GEMINI_FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['date-time', 'enum']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};

const UPPER_TYPES: Readonly<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

function isNullVariant(schema: unknown): boolean {
  return (
    isJsonSchema(schema) &&
    schema['type'] === 'null' &&
    Object.keys(schema).every((keyword) => keyword === 'type' || keyword === 'description')
  );
}

/** A canonical JSON Schema as Gemini's `parameters`. */
export function toGeminiSchema(canonical: JsonSchema): GeminiSchema {
  return lowerNode(inlineLocalReferences(withoutDocumentKeywords(canonical)));
}

function lowerNode(input: JsonSchema): JsonSchema {
  let node: JsonSchema = { ...input };
  if (Array.isArray(node['oneOf']) && node['anyOf'] === undefined) {
    node['anyOf'] = node['oneOf'];
    delete node['oneOf'];
  }
  if ('const' in node) {
    if (typeof node['const'] === 'string' && node['enum'] === undefined) {
      node['enum'] = [node['const']];
      delete node['const'];
    } else {
      moveKeywordsToNote(node, ['const']);
    }
  }

  let types = schemaTypes(node);
  let nullable = node['nullable'] === true;
  if (types.includes('null')) {
    nullable = true;
    types = types.filter((type) => type !== 'null');
  }
  if (Array.isArray(node['anyOf'])) {
    const variants = node['anyOf'] as unknown[];
    const others = variants.filter((variant) => !isNullVariant(variant));
    if (others.length < variants.length) nullable = true;
    const only = others[0];
    if (others.length === 1 && types.length === 0 && isJsonSchema(only)) {
      // anyOf [X, null] is X, nullable.
      const { anyOf: _anyOf, ...rest } = node;
      node = { ...only, ...rest };
      if (typeof only['description'] === 'string' && typeof rest['description'] !== 'string')
        node['description'] = only['description'];
      types = schemaTypes(node).filter((type) => type !== 'null');
      if (schemaTypes(node).includes('null')) nullable = true;
    } else {
      node['anyOf'] = others;
    }
  }
  if (Array.isArray(node['enum']) && (node['enum'] as unknown[]).includes(null)) {
    nullable = true;
    node['enum'] = (node['enum'] as unknown[]).filter((value) => value !== null);
  }

  if (types.length === 1) {
    node['type'] = types[0];
  } else if (types.length > 1) {
    // A multi-type array becomes anyOf of single types (what the SDK's own conversion does).
    delete node['type'];
    node['anyOf'] = types.map((type) => splitVariant(node, type));
    for (const keyword of ['items', 'properties', 'required']) delete node[keyword];
  } else if (nullable && node['anyOf'] === undefined) {
    node['type'] = 'null';
  } else {
    delete node['type'];
  }
  if (nullable && node['type'] !== 'null') node['nullable'] = true;
  else delete node['nullable'];

  const values = node['enum'];
  if (Array.isArray(values)) {
    if (values.every((value) => typeof value === 'string')) {
      if (node['type'] === 'string' && node['format'] === undefined) node['format'] = 'enum';
    } else {
      moveKeywordsToNote(node, ['enum']);
    }
  }
  if (node['additionalProperties'] === false) delete node['additionalProperties'];
  const type = typeof node['type'] === 'string' ? node['type'] : undefined;
  if (typeof node['format'] === 'string' && node['format'] !== 'enum') {
    const allowed = type ? GEMINI_FORMATS[type] : undefined;
    if (!allowed?.has(node['format'])) moveKeywordsToNote(node, ['format']);
  }
  moveKeywordsToNote(
    node,
    Object.keys(node).filter((keyword) => !GEMINI_SCHEMA_KEYWORDS.has(keyword)),
  );
  for (const keyword of INT64_KEYWORDS) {
    if (typeof node[keyword] === 'number') node[keyword] = String(node[keyword]);
  }

  if (isPlainObject(node['properties'])) {
    const properties: Record<string, unknown> = {};
    for (const [name, property] of propertiesOf(node)) properties[name] = lowerNode(property);
    node['properties'] = properties;
    const names = Object.keys(properties);
    if (names.length > 1) node['propertyOrdering'] = names;
  }
  if (isJsonSchema(node['items'])) node['items'] = lowerNode(node['items']);
  if (Array.isArray(node['anyOf']))
    node['anyOf'] = (node['anyOf'] as unknown[]).map((variant) =>
      isJsonSchema(variant) ? lowerNode(variant) : variant,
    );
  if (type) node['type'] = UPPER_TYPES[type] ?? type.toUpperCase();
  return node;
}

function splitVariant(node: JsonSchema, type: string): JsonSchema {
  const variant: JsonSchema = { type };
  if (type === 'array' && node['items'] !== undefined) variant['items'] = node['items'];
  if (type === 'object') {
    if (node['properties'] !== undefined) variant['properties'] = node['properties'];
    if (node['required'] !== undefined) variant['required'] = node['required'];
  }
  return variant;
}

/**
 * Gemini's `parameters` back to JSON Schema: lower-case types, `nullable` as `type: [T, "null"]`, `format:
 * "enum"` and `propertyOrdering` removed (properties in that order), int64 strings as numbers, description notes
 * moved back, and object nodes closed (`additionalProperties: false`, what the exporter wrote; other values travel
 * in the note).
 */
export function fromGeminiSchema(schema: GeminiSchema | JsonSchema): JsonSchema {
  // raiseNode builds fresh nodes, so the reverse steps may work in place.
  return undoLowering(raiseNode(schema as JsonSchema), { closeObjects: true, inPlace: true });
}

function raiseNode(input: JsonSchema): JsonSchema {
  const node: JsonSchema = { ...input };
  if (typeof node['type'] === 'string') node['type'] = node['type'].toLowerCase();
  if (node['format'] === 'enum') delete node['format'];
  for (const keyword of INT64_KEYWORDS) {
    if (typeof node[keyword] === 'string' && /^\d+$/.test(node[keyword])) node[keyword] = Number(node[keyword]);
  }
  if (isPlainObject(node['properties'])) {
    const ordering = Array.isArray(node['propertyOrdering'])
      ? (node['propertyOrdering'] as unknown[]).filter((name): name is string => typeof name === 'string')
      : [];
    const entries = new Map(propertiesOf(node));
    const names = [
      ...ordering.filter((name) => entries.has(name)),
      ...[...entries.keys()].filter((name) => !ordering.includes(name)),
    ];
    const properties: Record<string, unknown> = {};
    for (const name of names) properties[name] = raiseNode(entries.get(name) as JsonSchema);
    node['properties'] = properties;
  }
  delete node['propertyOrdering'];
  if (isJsonSchema(node['items'])) node['items'] = raiseNode(node['items']);
  if (Array.isArray(node['anyOf']))
    node['anyOf'] = (node['anyOf'] as unknown[]).map((variant) =>
      isJsonSchema(variant) ? raiseNode(variant) : variant,
    );
  if (node['nullable'] === true) {
    if (typeof node['type'] === 'string') {
      node['type'] = [node['type'], 'null'];
      if (Array.isArray(node['enum'])) node['enum'] = [...(node['enum'] as unknown[]), null];
    } else if (Array.isArray(node['anyOf'])) {
      node['anyOf'] = [...(node['anyOf'] as unknown[]), { type: 'null' }];
    }
  }
  delete node['nullable'];
  return node;
}
