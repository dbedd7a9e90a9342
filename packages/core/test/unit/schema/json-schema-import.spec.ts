import 'reflect-metadata';
import { DefinitionError, type ParamSchema } from '@toolwright/core';
import { toJsonSchema } from '../../../src/schema/json-schema-export';
import { definitionFromJsonSchema } from '../../../src/schema/json-schema-tool';
import { fromJsonSchema } from '../../../src/schema/json-schema-import';
import { type JsonSchemaImportOptions } from '../../../src/schema/json-schema-limits';
import { REFUSED_KEYWORDS } from '../../../src/schema/json-schema-types';
import { cpuMillisecondsOf } from '../../support/cpu-time';

function errorOf(action: () => unknown): DefinitionError {
  try {
    action();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('expected a DefinitionError, nothing was thrown');
}

/** The IR of one property schema, imported inside a root object. */
function importProperty(schema: unknown, options: JsonSchemaImportOptions = {}): ParamSchema {
  return fromJsonSchema({ type: 'object', properties: { value: schema } }, options).properties[0]!.schema;
}

/** export(import(schema)) */
function roundTrip(schema: unknown): unknown {
  return toJsonSchema(fromJsonSchema(schema));
}

describe('fromJsonSchema: one keyword at a time (exact IR)', () => {
  const cases: ReadonlyArray<readonly [string, unknown, ParamSchema]> = [
    ['type string', { type: 'string' }, { kind: 'string' }],
    ['type integer', { type: 'integer' }, { kind: 'int' }],
    ['type number', { type: 'number' }, { kind: 'float' }],
    ['type boolean', { type: 'boolean' }, { kind: 'bool' }],
    ['type array without items', { type: 'array' }, { kind: 'array', items: { kind: 'any' } }],
    [
      'type object without properties (a map)',
      { type: 'object' },
      { kind: 'object', properties: [], additionalProperties: true },
    ],
    ['type null', { type: 'null' }, { kind: 'any', enum: [null] }],
    ['no keyword at all', {}, { kind: 'any' }],
    ['the schema true', true, { kind: 'any' }],
    ['type [string, null]', { type: ['string', 'null'] }, { kind: 'string', nullable: true }],
    ['OpenAPI nullable', { type: 'integer', nullable: true }, { kind: 'int', nullable: true }],
    [
      'a nullable type whose enum leaves null out refuses null',
      { type: ['integer', 'null'], enum: [1, 2] },
      { kind: 'int', enum: [1, 2] },
    ],
    [
      'a nullable type whose enum lists null',
      { type: ['integer', 'null'], enum: [1, null] },
      { kind: 'int', nullable: true, enum: [1, null] },
    ],
    [
      'type [string, integer]',
      { type: ['string', 'integer'], minLength: 2, minimum: 0, description: 'id' },
      {
        kind: 'union',
        variants: [
          { kind: 'string', minLength: 2 },
          { kind: 'int', minimum: 0 },
        ],
        description: 'id',
      },
    ],
    ['type [integer, number] (integer is a number)', { type: ['integer', 'number'] }, { kind: 'float' }],
    [
      'type [string, integer, null]',
      { type: ['string', 'integer', 'null'] },
      { kind: 'union', variants: [{ kind: 'string' }, { kind: 'int' }], nullable: true },
    ],
    ['format date', { type: 'string', format: 'date' }, { kind: 'date' }],
    ['format date-time', { type: 'string', format: 'date-time' }, { kind: 'datetime' }],
    ['nullable date-time', { type: ['string', 'null'], format: 'date-time' }, { kind: 'datetime', nullable: true }],
    ['another format stays on the string', { type: 'string', format: 'email' }, { kind: 'string', format: 'email' }],
    [
      'string lengths and pattern',
      { type: 'string', minLength: 1, maxLength: 9, pattern: '^[a-z]+$' },
      { kind: 'string', minLength: 1, maxLength: 9, pattern: '^[a-z]+$' },
    ],
    [
      'numeric bounds',
      { type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: -1, exclusiveMaximum: 2, multipleOf: 0.5 },
      { kind: 'float', minimum: 0, maximum: 1, exclusiveMinimum: -1, exclusiveMaximum: 2, multipleOf: 0.5 },
    ],
    [
      'draft-4 exclusiveMinimum: true',
      { type: 'integer', minimum: 0, exclusiveMinimum: true },
      { kind: 'int', exclusiveMinimum: 0 },
    ],
    [
      'draft-4 exclusiveMaximum: false',
      { type: 'integer', maximum: 9, exclusiveMaximum: false },
      { kind: 'int', maximum: 9 },
    ],
    ['draft-4 exclusiveMaximum: true without maximum', { type: 'integer', exclusiveMaximum: true }, { kind: 'int' }],
    [
      'array keywords',
      { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 4, uniqueItems: true },
      { kind: 'array', items: { kind: 'string' }, minItems: 2, maxItems: 4, uniqueItems: true },
    ],
    ['enum', { type: 'string', enum: ['a', 'b'] }, { kind: 'string', enum: ['a', 'b'] }],
    ['const', { type: 'string', const: 'a' }, { kind: 'string', enum: ['a'] }],
    ['const inside the enum', { type: 'string', enum: ['a', 'b'], const: 'b' }, { kind: 'string', enum: ['b'] }],
    ['const null', { const: null }, { kind: 'any', enum: [null] }],
    ['enum without type: strings', { enum: ['a', 'b'] }, { kind: 'string', enum: ['a', 'b'] }],
    ['enum without type: integers and a fraction', { enum: [1, 2.5] }, { kind: 'float', enum: [1, 2.5] }],
    [
      'enum without type: a string or null',
      { enum: ['a', null] },
      { kind: 'string', nullable: true, enum: ['a', null] },
    ],
    ['enum without type: mixed types', { enum: ['a', 1, true] }, { kind: 'any', enum: ['a', 1, true] }],
    [
      'enum values that do not match the type are kept as written',
      { type: 'integer', enum: ['1', '2', 'dontcare'] },
      { kind: 'int', enum: ['1', '2', 'dontcare'] },
    ],
    [
      'annotations',
      { type: 'string', title: 'T', description: 'D', default: 'x', examples: ['y', 'z'] },
      { kind: 'string', title: 'T', description: 'D', default: 'x', examples: ['y', 'z'] },
    ],
    [
      'a default that does not match the type is kept as written',
      { type: 'boolean', default: 'False' },
      { kind: 'bool', default: 'False' },
    ],
    [
      'additionalProperties true',
      { type: 'object', properties: {}, additionalProperties: true },
      { kind: 'object', properties: [], additionalProperties: true },
    ],
    [
      'additionalProperties {} is true',
      { type: 'object', additionalProperties: {} },
      { kind: 'object', properties: [], additionalProperties: true },
    ],
    [
      'additionalProperties schema',
      { type: 'object', additionalProperties: { type: 'integer' } },
      { kind: 'object', properties: [], additionalProperties: { kind: 'int' } },
    ],
    [
      'nested properties without additionalProperties are open, as JSON Schema reads them (the arguments object itself is closed)',
      { type: 'object', properties: { a: { type: 'string' } } },
      {
        kind: 'object',
        properties: [{ name: 'a', schema: { kind: 'string' }, required: false, aliases: [] }],
        additionalProperties: true,
      },
    ],
    [
      'unevaluatedProperties reads as additionalProperties',
      { type: 'object', properties: {}, unevaluatedProperties: { type: 'string' } },
      { kind: 'object', properties: [], additionalProperties: { kind: 'string' } },
    ],
    [
      'unevaluatedProperties next to additionalProperties is moot',
      { type: 'object', additionalProperties: false, unevaluatedProperties: true },
      { kind: 'object', properties: [], additionalProperties: false },
    ],
    [
      'typeless properties are an object',
      { properties: { a: {} } },
      {
        kind: 'object',
        properties: [{ name: 'a', schema: { kind: 'any' }, required: false, aliases: [] }],
        additionalProperties: true,
      },
    ],
    ['typeless items are an array', { items: { type: 'integer' } }, { kind: 'array', items: { kind: 'int' } }],
    ['typeless minLength is a string', { minLength: 3 }, { kind: 'string', minLength: 3 }],
    ['typeless minimum is a number', { minimum: 3 }, { kind: 'float', minimum: 3 }],
    [
      'a keyword for another type has no effect (JSON Schema applies it to arrays only)',
      { type: 'integer', minItems: 5, maxItems: 100 },
      { kind: 'int' },
    ],
    ['format on a number is an annotation', { type: 'integer', format: 'int64' }, { kind: 'int' }],
    [
      'a refused keyword for another type has no effect',
      { type: 'string', minProperties: 1, contains: { type: 'string' } },
      { kind: 'string' },
    ],
    [
      'prefixItems that constrain nothing',
      { type: 'array', prefixItems: [{}, true], items: { type: 'string' } },
      { kind: 'array', items: { kind: 'string' } },
    ],
    [
      'ignored annotations',
      {
        type: 'string',
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:x',
        $comment: 'c',
        $anchor: 'a',
        deprecated: true,
        readOnly: false,
        writeOnly: false,
        contentMediaType: 'text/plain',
        contentEncoding: 'base64',
        optional: true,
        'x-order': 3,
        example: 'e',
      },
      { kind: 'string' },
    ],
  ];

  it.each(cases)('%s', (_name, schema, expected) => {
    expect(importProperty(schema)).toEqual(expected);
  });

  it('reads required names and keeps declaration order', () => {
    expect(
      fromJsonSchema({
        type: 'object',
        properties: { b: { type: 'string' }, a: { type: 'integer' } },
        required: ['a'],
      }),
    ).toEqual({
      kind: 'object',
      properties: [
        { name: 'b', schema: { kind: 'string' }, required: false, aliases: [] },
        { name: 'a', schema: { kind: 'int' }, required: true, aliases: [] },
      ],
      additionalProperties: false,
    });
  });

  it('declares a required name missing from properties as a property of any value (BFCL waste_calculation.calculate)', () => {
    expect(importProperty({ type: 'object', description: 'population', required: ['adults', 'children'] })).toEqual({
      kind: 'object',
      description: 'population',
      properties: [
        { name: 'adults', schema: { kind: 'any' }, required: true, aliases: [] },
        { name: 'children', schema: { kind: 'any' }, required: true, aliases: [] },
      ],
      additionalProperties: true,
    });
    expect(
      importProperty({
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a', 'b'],
        additionalProperties: { type: 'integer' },
      }),
    ).toEqual({
      kind: 'object',
      properties: [
        { name: 'a', schema: { kind: 'string' }, required: true, aliases: [] },
        { name: 'b', schema: { kind: 'int' }, required: true, aliases: [] },
      ],
      additionalProperties: { kind: 'int' },
    });
  });

  it("reads absent additionalProperties as JSON Schema does with additionalPropertiesWhenAbsent: 'allow'", () => {
    const schema = {
      type: 'object',
      properties: {
        url: { type: 'string' },
        data: { type: 'object', properties: { param1: { type: 'string' } } },
        headers: { type: 'object', additionalProperties: false },
      },
    };
    const closed = fromJsonSchema(schema);
    const open = fromJsonSchema(schema, { additionalPropertiesWhenAbsent: 'allow' });
    expect([
      closed.additionalProperties,
      closed.properties.map((property) => (property.schema as { additionalProperties?: unknown }).additionalProperties),
    ]).toEqual([false, [undefined, true, false]]);
    expect([
      open.additionalProperties,
      open.properties.map((property) => (property.schema as { additionalProperties?: unknown }).additionalProperties),
    ]).toEqual([true, [undefined, true, false]]);
    expect(
      definitionFromJsonSchema({ name: 'send', parameters: schema }, { additionalPropertiesWhenAbsent: 'allow' })
        .options,
    ).toEqual({});
  });

  it('reads a root without type ({}) as a free-form object', () => {
    expect(fromJsonSchema({ description: 'anything' })).toEqual({
      kind: 'object',
      properties: [],
      additionalProperties: true,
      description: 'anything',
    });
  });

  it('returns a deeply frozen IR and leaves the input alone', () => {
    const input = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, default: ['a'] } },
    };
    const schema = fromJsonSchema(input);
    const tags = schema.properties[0]!.schema;
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.properties)).toBe(true);
    expect(Object.isFrozen(tags)).toBe(true);
    expect(Object.isFrozen(tags.default)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.properties.tags.default)).toBe(false);
  });

  it('copies a default holding a __proto__ key as an own data key, without touching any prototype', () => {
    const schema = importProperty(JSON.parse('{"type":"object","default":{"__proto__":{"polluted":true}}}'));
    const defaultValue = schema.default as Record<string, unknown>;
    expect(Object.getPrototypeOf(defaultValue)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(defaultValue, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('fromJsonSchema: $ref, allOf, anyOf and oneOf', () => {
  it('resolves $ref to $defs and definitions, naming objects after their definition', () => {
    const schema = fromJsonSchema({
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address' },
        work: { $ref: '#/definitions/Address' },
        zip: { $ref: '#/$defs/Address/properties/zip' },
      },
      required: ['home'],
      $defs: {
        Address: { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['zip'] },
      },
      definitions: { Address: { type: 'object', properties: { zip: { type: 'string' } } } },
    });
    expect(schema.properties.map((property) => property.schema)).toEqual([
      {
        kind: 'object',
        name: 'Address',
        properties: [{ name: 'zip', schema: { kind: 'string', pattern: '^[0-9]{5}$' }, required: true, aliases: [] }],
        additionalProperties: true,
      },
      {
        kind: 'object',
        name: 'Address',
        properties: [{ name: 'zip', schema: { kind: 'string' }, required: false, aliases: [] }],
        additionalProperties: true,
      },
      { kind: 'string', pattern: '^[0-9]{5}$' },
    ]);
  });

  it('lets the siblings of a $ref override its annotations and add constraints', () => {
    expect(
      fromJsonSchema({
        type: 'object',
        properties: { value: { $ref: '#/$defs/Name', description: 'The display name', maxLength: 20 } },
        $defs: { Name: { type: 'string', description: 'A name', minLength: 1, maxLength: 50 } },
      }).properties[0]!.schema,
    ).toEqual({ kind: 'string', description: 'The display name', minLength: 1, maxLength: 20 });
  });

  it('resolves escaped pointers and the root itself', () => {
    const schema = fromJsonSchema({
      type: 'object',
      properties: { a: { $ref: '#/$defs/a~1b' }, b: { $ref: '#/$defs/c~0d' }, c: { $ref: '#/$defs/with%20space' } },
      $defs: { 'a/b': { type: 'integer' }, 'c~d': { type: 'boolean' }, 'with space': { type: 'string' } },
    });
    expect(schema.properties.map((property) => property.schema.kind)).toEqual(['int', 'bool', 'string']);
  });

  it('reads $ref at the root', () => {
    expect(fromJsonSchema({ $ref: '#/$defs/Params', $defs: { Params: { type: 'object', properties: {} } } })).toEqual({
      kind: 'object',
      name: 'Params',
      properties: [],
      additionalProperties: false,
    });
  });

  it('merges allOf of objects: properties, required and closedness', () => {
    const schema = fromJsonSchema({
      allOf: [
        { $ref: '#/$defs/Base' },
        { type: 'object', properties: { size: { type: 'integer', minimum: 0 } }, required: ['size'] },
      ],
      properties: { size: { maximum: 10 } },
      $defs: {
        Base: { type: 'object', properties: { id: { type: 'string' }, size: { type: 'number' } }, required: ['id'] },
      },
    });
    expect(schema).toEqual({
      kind: 'object',
      name: 'Base',
      properties: [
        { name: 'id', schema: { kind: 'string' }, required: true, aliases: [] },
        { name: 'size', schema: { kind: 'int', minimum: 0, maximum: 10 }, required: true, aliases: [] },
      ],
      additionalProperties: false,
    });
  });

  it('intersects bounds and enums in allOf', () => {
    expect(
      importProperty({
        allOf: [
          { type: 'string', minLength: 2, maxLength: 10, enum: ['ab', 'abc', 'x'] },
          { minLength: 3, maxLength: 20, enum: ['abc', 'ab'] },
        ],
      }),
    ).toEqual({
      kind: 'string',
      minLength: 3,
      maxLength: 10,
      enum: ['ab', 'abc'],
    });
    expect(importProperty({ allOf: [{ type: 'string' }, { format: 'date' }] })).toEqual({ kind: 'date' });
  });

  it('reads anyOf and oneOf as a union', () => {
    expect(
      importProperty({ description: 'A name or an id', anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] }),
    ).toEqual({
      kind: 'union',
      description: 'A name or an id',
      variants: [{ kind: 'string' }, { kind: 'int', minimum: 1 }],
    });
    expect(
      importProperty({
        oneOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: 'boolean' }],
      }),
    ).toEqual({
      kind: 'union',
      variants: [
        {
          kind: 'object',
          properties: [{ name: 'kind', schema: { kind: 'string', enum: ['a'] }, required: true, aliases: [] }],
          additionalProperties: true,
        },
        { kind: 'bool' },
      ],
    });
  });

  it('folds a null alternative into nullable (pydantic Optional[...])', () => {
    expect(importProperty({ anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Nickname' })).toEqual(
      {
        kind: 'string',
        nullable: true,
        default: null,
        title: 'Nickname',
      },
    );
    expect(importProperty({ anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] })).toEqual({
      kind: 'union',
      variants: [{ kind: 'string' }, { kind: 'int' }],
      nullable: true,
    });
    expect(importProperty({ anyOf: [{ type: 'null' }] })).toEqual({ kind: 'any', enum: [null] });
    expect(importProperty({ anyOf: [{ enum: [1, 2] }, { type: 'null' }] })).toEqual({
      kind: 'int',
      enum: [1, 2, null],
      nullable: true,
    });
  });

  it('keeps a one-variant union when annotations would collide, and collapses it otherwise', () => {
    expect(importProperty({ anyOf: [{ type: 'integer' }] })).toEqual({ kind: 'int' });
    expect(
      importProperty({ description: 'outer', anyOf: [{ type: 'integer', description: 'inner' }, { type: 'null' }] }),
    ).toEqual({
      kind: 'union',
      variants: [{ kind: 'int', description: 'inner' }],
      nullable: true,
      description: 'outer',
    });
  });

  it('distributes the node\'s own constraints into each alternative ("at least one of")', () => {
    expect(
      importProperty({
        type: 'object',
        properties: { email: { type: 'string' }, phone: { type: 'string' } },
        anyOf: [{ required: ['email'] }, { required: ['phone'] }],
      }),
    ).toEqual({
      kind: 'union',
      variants: [
        {
          kind: 'object',
          properties: [
            { name: 'email', schema: { kind: 'string' }, required: true, aliases: [] },
            { name: 'phone', schema: { kind: 'string' }, required: false, aliases: [] },
          ],
          additionalProperties: true,
        },
        {
          kind: 'object',
          properties: [
            { name: 'phone', schema: { kind: 'string' }, required: true, aliases: [] },
            { name: 'email', schema: { kind: 'string' }, required: false, aliases: [] },
          ],
          additionalProperties: true,
        },
      ],
    });
  });

  it('applies untyped sibling keywords only to the alternatives of their type', () => {
    expect(importProperty({ anyOf: [{ type: 'string' }, { type: 'integer' }], minLength: 3 })).toEqual({
      kind: 'union',
      variants: [{ kind: 'string', minLength: 3 }, { kind: 'int' }],
    });
  });
});

describe('fromJsonSchema: refusals name the tool, the JSON pointer and the fix', () => {
  const at = { target: 'weather.get' };

  it.each([...REFUSED_KEYWORDS.keys()])('refuses %s', (keyword) => {
    const refusal = REFUSED_KEYWORDS.get(keyword)!;
    const error = errorOf(() => fromJsonSchema({ type: 'object', properties: { city: { [keyword]: {} } } }, at));
    expect(error.message).toBe(
      `weather.get.#/properties/city/${keyword}: The keyword '${keyword}' ${refusal.reason}; toolwright refuses it rather than drop the constraint. Fix: ${refusal.fix}`,
    );
    expect(error.target).toBe('weather.get');
    expect(error.property).toBe(`#/properties/city/${keyword}`);
  });

  it.each([
    [
      { type: 'object', properties: { city: { type: 'string', not: { const: 'x' } } } },
      "weather.get.#/properties/city/not: The keyword 'not' excludes values by a schema; toolwright refuses it rather than drop the constraint. Fix: Express the allowed values positively (enum, pattern, bounds), or validate in the handler.",
    ],
    [
      { type: 'object', properties: { city: { type: 'string', maxlength: 3 } } },
      'weather.get.#/properties/city/maxlength: The keyword \'maxlength\' is not a JSON Schema keyword toolwright knows, so it may constrain values in a way that would be lost. Fix: If it is only an annotation, list it in the import option annotationKeywords (or prefix it with "x-"); if it is a misspelling, correct it.',
    ],
    [
      { type: 'object', properties: { tags: { type: 'array', items: [{ type: 'string' }] } } },
      'weather.get.#/properties/tags/items: The keyword "items" is an array (a draft-7 tuple), which constrains items by position; toolwright refuses it rather than drop the constraint. Fix: Describe the elements with one "items" schema (an anyOf of the element types if they differ), or use an object with named properties.',
    ],
    [
      {
        type: 'object',
        properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] } },
      },
      'weather.get.#/properties/point/prefixItems: The keyword \'prefixItems\' constrains items by position (a tuple); toolwright refuses it rather than drop the constraint. Fix: Describe the elements with one "items" schema (an anyOf of the element types if they differ), or use an object with named properties.',
    ],
    [
      { type: 'object', properties: { city: { type: 'dict' } } },
      'weather.get.#/properties/city/type: Unknown JSON Schema type \'dict\'. Fix: "dict" is a BFCL or programming-language type name: write "object" (JSON Schema types: string, integer, number, boolean, object, array, null).',
    ],
    [
      { type: 'object', properties: { city: { type: 'any' } } },
      'weather.get.#/properties/city/type: Unknown JSON Schema type \'any\'. Fix: "any" is a BFCL or programming-language type name: write no "type" at all (JSON Schema types: string, integer, number, boolean, object, array, null).',
    ],
    [
      { type: 'object', properties: { city: { type: 'text' } } },
      "weather.get.#/properties/city/type: Unknown JSON Schema type 'text'. Fix: Use one of: string, integer, number, boolean, object, array, null.",
    ],
    [
      { type: 'object', properties: { city: { type: [] } } },
      "weather.get.#/properties/city/type: The keyword 'type' must be a type name or a non-empty array of type names, received []. Fix: Give a type name or a non-empty array of type names.",
    ],
    [
      { type: 'object', properties: { city: false } },
      'weather.get.#/properties/city: The schema `false` accepts no value at all, so no call could ever be valid here. Fix: Remove the property (or the items) it describes, or give a schema that accepts something.',
    ],
    [
      { type: 'object', properties: { city: 'string' } },
      'weather.get.#/properties/city: Expected a JSON Schema (an object or a boolean), received \'string\'. Fix: Give a JSON Schema object such as { "type": "string" }.',
    ],
    [
      { type: 'object', properties: { city: { minLength: 1, minimum: 0 } } },
      'weather.get.#/properties/city: The schema has no "type" but has keywords for several types (string, number). Fix: Add "type" (a type name, or an array of type names).',
    ],
    [
      { type: 'object', properties: { city: { enum: [{ name: 'Paris' }] } } },
      'weather.get.#/properties/city/enum: The enum value {"name":"Paris"} is an object or an array; toolwright enums hold strings, numbers, booleans and null. Fix: Use scalar enum values, or describe the allowed objects with a schema (anyOf of objects).',
    ],
    [
      { type: 'object', properties: { city: { enum: [] } } },
      'weather.get.#/properties/city/enum: The enum is empty, so no value is allowed. Fix: List at least one allowed value, or remove the enum.',
    ],
    [
      { type: 'object', properties: { city: { enum: ['a'], const: 'b' } } },
      "weather.get.#/properties/city/const: The const value 'b' is not in the enum, so no value is allowed. Fix: Remove the const or the enum, or make them agree.",
    ],
    [
      { type: 'object', properties: { city: { type: 'string', pattern: '([a-z' } } },
      'weather.get.#/properties/city/pattern: The pattern \'([a-z\' is not a valid ECMAScript regular expression (Invalid regular expression: /([a-z/u: Unterminated character class). Fix: Give a pattern that compiles with new RegExp(pattern, "u").',
    ],
    [
      { type: 'object', properties: { city: { type: 'string', format: 'date', pattern: '^2026' } } },
      "weather.get.#/properties/city: A string with format 'date' cannot also carry pattern: toolwright checks date values by their format. Fix: Remove pattern (the format already fixes the shape), or drop the format and keep a plain string pattern.",
    ],
    [
      { type: 'object', properties: { city: { type: 'string', minLength: -1 } } },
      "weather.get.#/properties/city/minLength: The keyword 'minLength' must be a non-negative integer, received -1. Fix: Give a non-negative integer.",
    ],
    [
      { type: 'object', properties: { n: { type: 'number', multipleOf: 0 } } },
      "weather.get.#/properties/n/multipleOf: The keyword 'multipleOf' must be a number greater than 0, received 0. Fix: Give a number greater than 0.",
    ],
    [
      { type: 'object', properties: { n: { type: 'number', maximum: 'ten' } } },
      "weather.get.#/properties/n/maximum: The keyword 'maximum' must be a finite number, received 'ten'. Fix: Give a finite number.",
    ],
    [
      { type: 'object', properties: { n: { type: 'integer', description: 7 } } },
      "weather.get.#/properties/n/description: The keyword 'description' must be a string, received 7. Fix: Give a string.",
    ],
    [
      { type: 'object', properties: {}, required: 'city' },
      "weather.get.#/required: The keyword 'required' must be an array of property names, received 'city'. Fix: Give an array of property names.",
    ],
    [
      { type: 'object', properties: {}, required: ['city'], additionalProperties: false },
      'weather.get.#/required: The property \'city\' is required but not declared in "properties", and "additionalProperties" is false, so no object can be valid. Fix: Declare \'city\' under "properties", or remove it from "required".',
    ],
    [
      { type: 'object', properties: { constructor: { type: 'string' } } },
      "weather.get.#/properties/constructor: The property name 'constructor' is reserved: it can never be set safely on a JavaScript object. Fix: Rename the property.",
    ],
    [
      { type: 'object', properties: {}, required: ['prototype'] },
      "weather.get.#/required: The property name 'prototype' is reserved: it can never be set safely on a JavaScript object. Fix: Rename the property.",
    ],
    [
      { type: 'object', properties: { a: { $ref: 'https://example.com/address.json' } } },
      'weather.get.#/properties/a/$ref: The $ref \'https://example.com/address.json\' is not a local JSON pointer ("#", "#/$defs/Name", "#/definitions/Name", ...). Fix: Bundle the referenced schema into "$defs" and refer to it as "#/$defs/Name".',
    ],
    [
      { type: 'object', properties: { a: { $ref: '#address' } } },
      'weather.get.#/properties/a/$ref: The $ref \'#address\' is not a local JSON pointer ("#", "#/$defs/Name", "#/definitions/Name", ...). Fix: Bundle the referenced schema into "$defs" and refer to it as "#/$defs/Name".',
    ],
    [
      { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } },
      'weather.get.#/properties/a/$ref: The $ref \'#/$defs/Missing\' points to nothing in this schema. Fix: Add the definition under "$defs", or correct the reference.',
    ],
    [
      { type: 'object', properties: { a: { $ref: '#/$defs/toString' } }, $defs: {} },
      'weather.get.#/properties/a/$ref: The $ref \'#/$defs/toString\' points to nothing in this schema. Fix: Add the definition under "$defs", or correct the reference.',
    ],
    [
      { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { type: 'integer' }] } } },
      'weather.get.#/properties/a: The subschemas combined here (allOf, or a $ref with sibling keywords) conflict: a value cannot be both string and int. Fix: Make the combined subschemas agree, or merge them by hand into one schema.',
    ],
    [
      { type: 'object', properties: { a: { allOf: [{ type: 'string', pattern: 'a' }, { pattern: 'b' }] } } },
      "weather.get.#/properties/a: The subschemas combined here (allOf, or a $ref with sibling keywords) conflict: pattern 'a' and pattern 'b' differ. Fix: Make the combined subschemas agree, or merge them by hand into one schema.",
    ],
    [
      { type: 'object', properties: { a: { allOf: [{ enum: ['x'] }, { enum: ['y'] }] } } },
      'weather.get.#/properties/a: The subschemas combined here (allOf, or a $ref with sibling keywords) conflict: the enums have no value in common. Fix: Make the combined subschemas agree, or merge them by hand into one schema.',
    ],
    [
      { type: 'object', properties: { a: { allOf: [] } } },
      "weather.get.#/properties/a/allOf: The keyword 'allOf' must be a non-empty array of schemas, received []. Fix: Give a non-empty array of schemas.",
    ],
    [
      { type: 'object', properties: { a: { anyOf: [{ type: 'string' }], oneOf: [{ type: 'string' }] } } },
      'weather.get.#/properties/a: The schema has both "anyOf" and "oneOf"; their combination cannot be represented as one union. Fix: Combine the alternatives into a single "anyOf" (or "oneOf").',
    ],
    [
      { type: 'string' },
      'weather.get.#: Tool parameters must be an object schema, but this schema describes a string. Fix: Wrap the value in an object: { "type": "object", "properties": { "value": <schema> }, "required": ["value"] }.',
    ],
    [
      { anyOf: [{ type: 'object' }, { type: 'string' }] },
      'weather.get.#: Tool parameters must be an object schema, but this schema describes a choice between several schemas (anyOf/oneOf). Fix: Wrap the value in an object: { "type": "object", "properties": { "value": <schema> }, "required": ["value"] }.',
    ],
  ])('refuses %j', (schema, message) => {
    expect(errorOf(() => fromJsonSchema(schema, at)).message).toBe(message);
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses the property name %s (parsed from JSON, where __proto__ is an own key)',
    (name) => {
      const schema = JSON.parse(`{"type":"object","properties":{"${name}":{"type":"string"}}}`);
      expect(errorOf(() => fromJsonSchema(schema, at)).message).toBe(
        `weather.get.#/properties/${name}: The property name '${name}' is reserved: it can never be set safely on a JavaScript object. Fix: Rename the property.`,
      );
    },
  );

  it('refuses a recursive $ref, naming the chain', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    };
    expect(errorOf(() => fromJsonSchema(schema, at)).message).toBe(
      "weather.get.#/$defs/Node/properties/children/items/$ref: The $ref '#/$defs/Node' is recursive (#/$defs/Node -> #/$defs/Node); the tool IR is a tree and cannot describe unbounded nesting. " +
        'Fix: Unroll the recursion to the depth the tool needs (a separate definition per level, the last without the recursive property), or declare the recursive property as a free-form object ({ "type": "object" }) if the tool validates it itself.',
    );
    expect(
      errorOf(() => fromJsonSchema({ type: 'object', properties: { self: { $ref: '#' } } }, at)).message,
    ).toContain("The $ref '#' is recursive (#)");
    expect(
      errorOf(() =>
        fromJsonSchema({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' }, at),
      ).message,
    ).toContain('is recursive (#/$defs/A -> #/$defs/B -> #/$defs/A)');
  });

  it('refuses a $ref chain longer than maxRefDepth, and accepts one within it', () => {
    const definitions: Record<string, unknown> = { D0: { type: 'string' } };
    for (let index = 1; index <= 5; index += 1) definitions[`D${index}`] = { $ref: `#/$defs/D${index - 1}` };
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/D5' } }, $defs: definitions };
    expect(fromJsonSchema(schema).properties[0]!.schema).toEqual({ kind: 'string' });
    expect(errorOf(() => fromJsonSchema(schema, { ...at, limits: { maxRefDepth: 4 } })).message).toBe(
      'weather.get.#/$defs/D2/$ref: The chain of $ref expansions (#/$defs/D5 -> #/$defs/D4 -> #/$defs/D3 -> #/$defs/D2 -> #/$defs/D1) is longer than the limit of 4. ' +
        'Fix: Inline some definitions, or raise limits.maxRefDepth for this trusted schema.',
    );
  });

  it('accepts keywords the caller declares as annotations', () => {
    const schema = { type: 'object', properties: { city: { type: 'string', markdownDescription: '**city**' } } };
    expect(() => fromJsonSchema(schema)).toThrow(
      "The keyword 'markdownDescription' is not a JSON Schema keyword toolwright knows",
    );
    expect(fromJsonSchema(schema, { annotationKeywords: ['markdownDescription'] }).properties[0]!.schema).toEqual({
      kind: 'string',
    });
  });
});

describe('fromJsonSchema: limits for untrusted schemas', () => {
  function nested(depth: number, wrap: (inner: unknown) => unknown, leaf: unknown = { type: 'string' }): unknown {
    let schema: unknown = leaf;
    for (let level = 0; level < depth; level += 1) schema = wrap(schema);
    return schema;
  }

  it.each([
    ['properties', (inner: unknown) => ({ type: 'object', properties: { a: inner } })],
    ['items', (inner: unknown) => ({ type: 'array', items: inner })],
    ['allOf', (inner: unknown) => ({ allOf: [inner] })],
    ['anyOf', (inner: unknown) => ({ anyOf: [inner] })],
    ['additionalProperties', (inner: unknown) => ({ type: 'object', additionalProperties: inner })],
  ])('refuses a schema nested 100,000 deep through %s with a DefinitionError, not a RangeError', (_name, wrap) => {
    const schema = { type: 'object', properties: { a: nested(100_000, wrap) } };
    let error: Error | undefined;
    const cpu = cpuMillisecondsOf(() => (error = errorOf(() => fromJsonSchema(schema, { target: 'deep' }))));
    expect(error?.message).toMatch(
      /^deep\.#\/properties\/a(\/[^ ]+)?: The schema nests deeper than the limit of 32 levels\. Fix: Flatten the schema, or raise limits\.maxDepth for this trusted schema\.$/,
    );
    expect(cpu).toBeLessThan(1_000);
  });

  it('refuses a default value nested 100,000 deep', () => {
    const schema = { type: 'object', properties: { a: { default: nested(100_000, (inner) => [inner], 1) } } };
    expect(errorOf(() => fromJsonSchema(schema)).message).toBe(
      'JSON Schema.#/properties/a/default: The schema nests deeper than the limit of 32 levels. Fix: Flatten the schema, or raise limits.maxDepth for this trusted schema.',
    );
  });

  it('refuses a cyclic JavaScript object as too deep', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema['properties'] as Record<string, unknown>)['self'] = schema;
    expect(errorOf(() => fromJsonSchema(schema)).message).toContain('nests deeper than the limit of 32 levels');
  });

  it('accepts exactly maxDepth levels', () => {
    expect(() =>
      fromJsonSchema(nested(32, (inner) => ({ type: 'object', properties: { a: inner } }), { type: 'object' })),
    ).not.toThrow();
    expect(() =>
      fromJsonSchema(nested(33, (inner) => ({ type: 'object', properties: { a: inner } }), { type: 'object' })),
    ).toThrow('nests deeper');
  });

  it('refuses more than maxNodes properties', () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 10_001; index += 1) properties[`p${index}`] = { type: 'string' };
    expect(errorOf(() => fromJsonSchema({ type: 'object', properties })).message).toBe(
      'JSON Schema.#/properties/p9999: The schema has more than 10000 nodes (schemas, enum values, defaults and examples, with every $ref expanded). Fix: Simplify the schema, or raise limits.maxNodes for this trusted schema.',
    );
  });

  it('counts enum values and default values against maxNodes', () => {
    expect(() =>
      fromJsonSchema({
        type: 'object',
        properties: { a: { enum: Array.from({ length: 20_000 }, (_, index) => index) } },
      }),
    ).toThrow('more than 10000 nodes');
    expect(() =>
      fromJsonSchema({ type: 'object', properties: { a: { default: Array.from({ length: 20_000 }, () => 0) } } }),
    ).toThrow('more than 10000 nodes');
  });

  it('stops a "billion laughs" of $refs by counting every expansion', () => {
    const definitions: Record<string, unknown> = { L0: { type: 'string' } };
    for (let level = 1; level <= 14; level += 1) {
      definitions[`L${level}`] = {
        type: 'object',
        properties: { a: { $ref: `#/$defs/L${level - 1}` }, b: { $ref: `#/$defs/L${level - 1}` } },
      };
    }
    const cpu = cpuMillisecondsOf(() =>
      expect(() => fromJsonSchema({ $ref: '#/$defs/L14', $defs: definitions })).toThrow('more than 10000 nodes'),
    );
    expect(cpu).toBeLessThan(1_000);
  });

  it('refuses a pattern longer than maxPatternLength', () => {
    expect(errorOf(() => importProperty({ type: 'string', pattern: 'a'.repeat(1_001) })).message).toBe(
      'JSON Schema.#/properties/value/pattern: The pattern is 1001 characters long, more than the limit of 1000. Fix: Shorten the pattern, or raise limits.maxPatternLength for this trusted schema.',
    );
    expect(
      importProperty({ type: 'string', pattern: 'a'.repeat(1_001) }, { limits: { maxPatternLength: 2_000 } }),
    ).toEqual({ kind: 'string', pattern: 'a'.repeat(1_001) });
  });

  it('accepts a pattern valid only without the u flag', () => {
    expect(() => new RegExp('^[a-z]+\\-[0-9]+$', 'u')).toThrow();
    expect(importProperty({ type: 'string', pattern: '^[a-z]+\\-[0-9]+$' })).toEqual({
      kind: 'string',
      pattern: '^[a-z]+\\-[0-9]+$',
    });
  });

  it.each(['(a+)+$', '^(a*)*b', '(\\w+\\s?)*$', '^((ab)*c)+$', '(?:x{2,})+'])(
    'refuses the ReDoS pattern %s from an untrusted schema only',
    (pattern) => {
      expect(
        errorOf(() => importProperty({ type: 'string', pattern }, { untrusted: true, target: 'remote.tool' })).message,
      ).toBe(
        `remote.tool.#/properties/value/pattern: The pattern '${pattern}' nests a quantifier inside a quantified group (star height above 1), which can take exponential time on hostile input (ReDoS). ` +
          'Fix: Rewrite the pattern without a repeated group that itself repeats (e.g. "^a+$" instead of "^(a+)+$"), or import the schema as trusted.',
      );
      expect(importProperty({ type: 'string', pattern })).toEqual({ kind: 'string', pattern });
    },
  );

  it('accepts ordinary patterns from an untrusted schema', () => {
    for (const pattern of [
      '^[a-z]+$',
      '^\\d{4}-\\d{2}-\\d{2}$',
      '^(ab)+$',
      '^(a?)+$',
      '^[(a+)+]$',
      '^\\(a+\\)+$',
      '^(?<year>\\d{4})$',
    ]) {
      expect(importProperty({ type: 'string', pattern }, { untrusted: true })).toEqual({ kind: 'string', pattern });
    }
  });
});

describe('definitionFromJsonSchema', () => {
  const proposeSchema = {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'What to decide' },
      options: {
        type: 'array',
        description: 'The choices to propose',
        minItems: 2,
        items: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            description: { type: 'string' },
            proposedBy: { type: 'string', description: 'Who proposed it' },
          },
          required: ['label', 'description'],
          additionalProperties: false,
        },
      },
    },
    required: ['question', 'options'],
    additionalProperties: false,
  };

  it('imports the seed decision/propose tool: exact IR, name kept as written', () => {
    const definition = definitionFromJsonSchema({
      name: 'decision/propose',
      description: 'Propose a decision',
      parameters: proposeSchema,
    });
    expect(definition).toEqual({
      name: 'decision/propose',
      description: 'Propose a decision',
      parameters: {
        kind: 'object',
        properties: [
          { name: 'question', schema: { kind: 'string', description: 'What to decide' }, required: true, aliases: [] },
          {
            name: 'options',
            required: true,
            aliases: [],
            schema: {
              kind: 'array',
              description: 'The choices to propose',
              minItems: 2,
              items: {
                kind: 'object',
                properties: [
                  { name: 'label', schema: { kind: 'string' }, required: true, aliases: [] },
                  { name: 'description', schema: { kind: 'string' }, required: true, aliases: [] },
                  {
                    name: 'proposedBy',
                    schema: { kind: 'string', description: 'Who proposed it' },
                    required: false,
                    aliases: [],
                  },
                ],
                additionalProperties: false,
              },
            },
          },
        ],
        additionalProperties: false,
      },
      options: {},
      source: { kind: 'json-schema', schema: proposeSchema },
    });
    expect(definition.source.kind === 'json-schema' && definition.source.schema).toBe(proposeSchema);
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(proposeSchema)).toBe(false);
  });

  it('exports decision/propose back to the same JSON Schema (JSON Schema -> IR -> JSON Schema)', () => {
    const exported = toJsonSchema(definitionFromJsonSchema({ name: 'decision/propose', parameters: proposeSchema }));
    expect(exported).toEqual({
      type: 'object',
      properties: {
        question: { type: 'string', description: 'What to decide' },
        options: {
          type: 'array',
          description: 'The choices to propose',
          items: {
            type: 'object',
            properties: {
              label: { type: 'string' },
              description: { type: 'string' },
              proposedBy: { type: 'string', description: 'Who proposed it' },
            },
            required: ['label', 'description'],
            additionalProperties: false,
          },
          minItems: 2,
        },
      },
      required: ['question', 'options'],
      additionalProperties: false,
    });
  });

  it('accepts MCP inputSchema, a namespace, and moves title and annotations into the options', () => {
    const definition = definitionFromJsonSchema(
      {
        name: 'read_file',
        title: 'Read a file',
        description: 'Reads a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        annotations: { readOnlyHint: true },
      },
      { namespace: 'filesystem', untrusted: true, limits: { maxDepth: 8 }, timeoutMs: 2_000 },
    );
    expect(definition.name).toBe('filesystem.read_file');
    expect(definition.options).toEqual({ title: 'Read a file', annotations: { readOnlyHint: true }, timeoutMs: 2_000 });
    expect(definition.parameters.properties.map((property) => [property.name, property.required])).toEqual([
      ['path', true],
    ]);
  });

  it("lets the caller's options override the declaration's title", () => {
    expect(definitionFromJsonSchema({ name: 't', title: 'Server title' }, { title: 'Mine' }).options).toEqual({
      title: 'Mine',
    });
  });

  it('reads a missing schema as a tool without parameters', () => {
    const definition = definitionFromJsonSchema({ name: 'ping' });
    expect(definition.parameters).toEqual({ kind: 'object', properties: [], additionalProperties: false });
    expect(definition.source).toEqual({ kind: 'json-schema', schema: { type: 'object', properties: {} } });
    expect(toJsonSchema(definition)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('accepts parameters and inputSchema together when they are equal, and refuses them when they differ', () => {
    const schema = { type: 'object', properties: {} };
    expect(() => definitionFromJsonSchema({ name: 'a', parameters: schema, inputSchema: { ...schema } })).not.toThrow();
    expect(
      errorOf(() => definitionFromJsonSchema({ name: 'a', parameters: schema, inputSchema: { type: 'object' } }))
        .message,
    ).toBe(
      'a.parameters: The declaration has both "parameters" and "inputSchema", and they differ. Fix: Give the schema once, as "parameters" or as "inputSchema" (MCP).',
    );
  });

  it.each([
    [
      undefined,
      'JSON Schema tool declaration.name: The JSON Schema tool declaration has an invalid name undefined. Fix: Give a non-empty name string without leading or trailing spaces or control characters.',
    ],
    [
      '',
      "JSON Schema tool declaration.name: The JSON Schema tool declaration has an invalid name ''. Fix: Give a non-empty name string without leading or trailing spaces or control characters.",
    ],
    [
      'bad\nname',
      "JSON Schema tool declaration.name: The JSON Schema tool declaration has an invalid name 'bad\nname'. Fix: Give a non-empty name string without leading or trailing spaces or control characters.",
    ],
  ])('refuses the tool name %j', (name, message) => {
    expect(errorOf(() => definitionFromJsonSchema({ name } as never)).message).toBe(message);
  });

  it('refuses a declaration that is not an object, and a non-string description', () => {
    expect(errorOf(() => definitionFromJsonSchema('tool' as never)).message).toBe(
      'JSON Schema tool declaration: A JSON Schema tool declaration must be an object, received \'tool\'. Fix: Give { "name", "description", "parameters" } (or MCP\'s { "name", "description", "inputSchema" }).',
    );
    expect(errorOf(() => definitionFromJsonSchema({ name: 'a', description: 1 } as never)).message).toBe(
      "a.description: The keyword 'description' must be a string, received 1. Fix: Give a string.",
    );
  });

  it('names the namespaced tool in schema errors', () => {
    expect(
      errorOf(() =>
        definitionFromJsonSchema(
          { name: 'x', inputSchema: { type: 'object', properties: { a: { not: {} } } } },
          { namespace: 'srv' },
        ),
      ).target,
    ).toBe('srv.x');
  });
});

describe('JSON Schema -> IR -> JSON Schema is stable', () => {
  const schemas: ReadonlyArray<readonly [string, unknown]> = [
    [
      'every scalar keyword',
      {
        type: 'object',
        title: 'Everything',
        description: 'All the keywords',
        properties: {
          name: {
            type: 'string',
            title: 'Name',
            description: 'd',
            minLength: 1,
            maxLength: 20,
            pattern: '^[A-Z]',
            format: 'email',
            default: 'A@b.c',
            examples: ['X@y.z'],
          },
          count: {
            type: 'integer',
            minimum: 0,
            maximum: 10,
            exclusiveMinimum: -1,
            exclusiveMaximum: 11,
            multipleOf: 2,
            default: 2,
          },
          ratio: { type: 'number', minimum: 0.5 },
          enabled: { type: 'boolean', default: false },
          day: { type: 'string', format: 'date' },
          at: { type: ['string', 'null'], format: 'date-time' },
          color: { type: 'string', enum: ['red', 'green'] },
          fixed: { const: 42 },
          maybe: { type: ['integer', 'null'], enum: [1, 2] },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5, uniqueItems: true },
          anything: {},
          map: { type: 'object', additionalProperties: { type: 'number' } },
          free: { type: 'object' },
          choice: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
          variant: {
            oneOf: [
              { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
              { type: 'object', properties: { b: { type: 'integer' } } },
            ],
          },
        },
        required: ['name', 'count'],
      },
    ],
    [
      'draft-4 and OpenAPI spellings',
      {
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1, exclusiveMinimum: true, nullable: true },
          s: { type: 'string', nullable: true, enum: ['a'] },
        },
        definitions: { unused: { type: 'string' } },
      },
    ],
    [
      'pydantic output',
      {
        $defs: {
          Item: {
            properties: { sku: { title: 'Sku', type: 'string' }, qty: { default: 1, title: 'Qty', type: 'integer' } },
            required: ['sku'],
            title: 'Item',
            type: 'object',
          },
        },
        properties: {
          items: { items: { $ref: '#/$defs/Item' }, title: 'Items', type: 'array' },
          note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
          parent: { anyOf: [{ $ref: '#/$defs/Item' }, { type: 'null' }], default: null },
        },
        required: ['items'],
        title: 'Order',
        type: 'object',
      },
    ],
    [
      'zod output',
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1 },
          units: { default: 'metric', type: 'string', enum: ['metric', 'imperial'] },
          days: { type: 'integer', exclusiveMinimum: 0, maximum: 16 },
        },
        required: ['city', 'units'],
        additionalProperties: false,
      },
    ],
    [
      'allOf and $ref siblings',
      {
        type: 'object',
        allOf: [{ $ref: '#/$defs/Base' }, { properties: { extra: { type: 'boolean' } } }],
        $defs: {
          Base: { type: 'object', properties: { id: { type: 'string', description: 'base' } }, required: ['id'] },
        },
        properties: { id: { description: 'override' } },
      },
    ],
  ];

  it.each(schemas)('%s', (_name, schema) => {
    const once = roundTrip(schema);
    const twice = roundTrip(once);
    expect(twice).toEqual(once);
    expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
  });

  it('exports pydantic output as the equivalent schema with $refs inlined and null folded', () => {
    expect(roundTrip(schemas[2]![1])).toEqual({
      type: 'object',
      title: 'Order',
      properties: {
        items: {
          type: 'array',
          title: 'Items',
          items: {
            type: 'object',
            title: 'Item',
            properties: { sku: { type: 'string', title: 'Sku' }, qty: { type: 'integer', title: 'Qty', default: 1 } },
            required: ['sku'],
            additionalProperties: true,
          },
        },
        note: { type: ['string', 'null'], title: 'Note', default: null },
        parent: {
          type: ['object', 'null'],
          title: 'Item',
          properties: { sku: { type: 'string', title: 'Sku' }, qty: { type: 'integer', title: 'Qty', default: 1 } },
          required: ['sku'],
          additionalProperties: true,
          default: null,
        },
      },
      required: ['items'],
      additionalProperties: false,
    });
  });
});
