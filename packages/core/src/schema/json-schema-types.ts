import type { EnumValue } from '../types/schema';

/** The JSON Schema dialect toolwright reads and writes. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export type JsonSchemaTypeName = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export const JSON_SCHEMA_TYPE_NAMES: readonly JsonSchemaTypeName[] = Object.freeze([
  'string',
  'integer',
  'number',
  'boolean',
  'object',
  'array',
  'null',
]);

/**
 * The JSON Schema toolwright exports: the draft 2020-12 subset tools use. Every object the exporter returns is
 * fresh and mutable (provider adapters may lower it further); keys are written in one fixed order.
 */
export interface JsonSchemaObject {
  $schema?: string;
  type?: JsonSchemaTypeName | JsonSchemaTypeName[];
  format?: string;
  title?: string;
  description?: string;
  enum?: EnumValue[];
  properties?: Record<string, JsonSchemaObject>;
  required?: string[];
  additionalProperties?: boolean | JsonSchemaObject;
  items?: JsonSchemaObject;
  anyOf?: JsonSchemaObject[];
  oneOf?: JsonSchemaObject[];
  /** Cross-field rules on the arguments object only (see cross-field-keywords.ts). */
  allOf?: JsonSchemaObject[];
  not?: JsonSchemaObject;
  dependentRequired?: Record<string, string[]>;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  default?: unknown;
  examples?: unknown[];
}

/** A JSON pointer segment (RFC 6901): `~` -> `~0`, `/` -> `~1`. */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Property names that can never be set safely on a plain JavaScript object. */
export const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

// ---------------------------------------------------------------------------------------------------------------
// Keyword policy of the importer. Every keyword falls in exactly one table; anything in none is refused.
// ---------------------------------------------------------------------------------------------------------------

/** The kind of value a keyword constrains. A keyword for another type than the declared ones has no effect. */
export type KeywordFamily = 'any' | 'object' | 'array' | 'string' | 'number';

/** Keywords the importer reads into the IR, with the values they apply to. */
export const SUPPORTED_KEYWORDS: ReadonlyMap<string, KeywordFamily> = new Map<string, KeywordFamily>([
  ['type', 'any'],
  ['enum', 'any'],
  ['const', 'any'],
  ['default', 'any'],
  ['examples', 'any'],
  ['description', 'any'],
  ['title', 'any'],
  ['nullable', 'any'],
  ['$ref', 'any'],
  ['$defs', 'any'],
  ['definitions', 'any'],
  ['allOf', 'any'],
  ['anyOf', 'any'],
  ['oneOf', 'any'],
  ['properties', 'object'],
  ['required', 'object'],
  ['additionalProperties', 'object'],
  ['unevaluatedProperties', 'object'],
  ['items', 'array'],
  ['prefixItems', 'array'],
  ['minItems', 'array'],
  ['maxItems', 'array'],
  ['uniqueItems', 'array'],
  ['format', 'string'],
  ['minLength', 'string'],
  ['maxLength', 'string'],
  ['pattern', 'string'],
  ['minimum', 'number'],
  ['maximum', 'number'],
  ['exclusiveMinimum', 'number'],
  ['exclusiveMaximum', 'number'],
  ['multipleOf', 'number'],
]);

/**
 * Keywords that only annotate or identify a schema: they never make a value invalid, so ignoring them loses
 * nothing a validator would check. Keys starting with `x-` (OpenAPI extensions) are annotations too.
 */
export const IGNORED_ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$comment',
  '$vocabulary',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  // OpenAPI: a hint for code generators; oneOf/anyOf carries the constraint.
  'discriminator',
  // OpenAPI 3.0's singular example.
  'example',
  'externalDocs',
  'xml',
  // BFCL's non-standard per-property flag (the `required` list is authoritative).
  'optional',
]);

/** Keywords that constrain values in ways the IR cannot hold: refused, with the reason and the fix. */
export const REFUSED_KEYWORDS: ReadonlyMap<
  string,
  { readonly family: KeywordFamily; readonly reason: string; readonly fix: string }
> = new Map([
  [
    'not',
    {
      family: 'any',
      reason: 'excludes values by a schema',
      fix: 'Express the allowed values positively (enum, pattern, bounds), or validate in the handler.',
    },
  ],
  [
    'if',
    {
      family: 'any',
      reason: 'makes constraints conditional',
      fix: 'Split the variants into anyOf of complete schemas, or validate in the handler.',
    },
  ],
  [
    'then',
    {
      family: 'any',
      reason: 'makes constraints conditional',
      fix: 'Split the variants into anyOf of complete schemas, or validate in the handler.',
    },
  ],
  [
    'else',
    {
      family: 'any',
      reason: 'makes constraints conditional',
      fix: 'Split the variants into anyOf of complete schemas, or validate in the handler.',
    },
  ],
  [
    '$dynamicRef',
    { family: 'any', reason: 'resolves references at validation time', fix: 'Use a static "$ref" to "#/$defs/Name".' },
  ],
  [
    '$recursiveRef',
    { family: 'any', reason: 'resolves references at validation time', fix: 'Use a static "$ref" to "#/$defs/Name".' },
  ],
  [
    'patternProperties',
    {
      family: 'object',
      reason: 'constrains properties by name pattern',
      fix: 'Declare the properties by name, or use "additionalProperties" with one schema for all extra keys.',
    },
  ],
  [
    'propertyNames',
    {
      family: 'object',
      reason: 'constrains property names',
      fix: 'Declare the properties by name, or validate the keys in the handler.',
    },
  ],
  [
    'minProperties',
    {
      family: 'object',
      reason: 'bounds the number of properties',
      fix: 'Mark the needed properties as required instead.',
    },
  ],
  [
    'maxProperties',
    {
      family: 'object',
      reason: 'bounds the number of properties',
      fix: 'Declare the allowed properties with additionalProperties: false instead.',
    },
  ],
  [
    'dependentRequired',
    {
      family: 'object',
      reason: 'makes properties required depending on others',
      fix: 'Split the variants into anyOf of objects with their own "required" lists.',
    },
  ],
  [
    'dependentSchemas',
    {
      family: 'object',
      reason: 'applies schemas depending on present properties',
      fix: 'Split the variants into anyOf of complete object schemas.',
    },
  ],
  [
    'dependencies',
    {
      family: 'object',
      reason: 'makes properties or schemas depend on others',
      fix: 'Split the variants into anyOf of objects with their own "required" lists.',
    },
  ],
  [
    'unevaluatedItems',
    {
      family: 'array',
      reason: 'constrains items other subschemas did not evaluate',
      fix: 'Use "items" with one schema for every element.',
    },
  ],
  [
    'contains',
    {
      family: 'array',
      reason: 'requires some item to match a schema',
      fix: 'Describe every element with "items", or validate in the handler.',
    },
  ],
  [
    'minContains',
    {
      family: 'array',
      reason: 'bounds how many items match "contains"',
      fix: 'Describe every element with "items", or validate in the handler.',
    },
  ],
  [
    'maxContains',
    {
      family: 'array',
      reason: 'bounds how many items match "contains"',
      fix: 'Describe every element with "items", or validate in the handler.',
    },
  ],
  [
    'additionalItems',
    {
      family: 'array',
      reason: 'constrains the items after a draft-7 tuple',
      fix: 'Describe the elements with one "items" schema (an anyOf of the element types if they differ).',
    },
  ],
]);
