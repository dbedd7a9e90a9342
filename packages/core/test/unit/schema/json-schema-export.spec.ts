import 'reflect-metadata';
import type { ObjectSchema, ParamSchema, ToolDefinition } from '@toolwright/core';
import { paramToJsonSchema, toJsonSchema } from '../../../src/schema/json-schema-export';

const parameters: ObjectSchema = {
  kind: 'object',
  description: 'Search parameters',
  properties: [
    {
      name: 'query',
      schema: {
        kind: 'string',
        description: 'What to look for',
        minLength: 1,
        maxLength: 200,
        pattern: '^[^<>]*$',
        examples: ['coffee'],
      },
      required: true,
      aliases: ['q', 'search'],
    },
    {
      name: 'limit',
      schema: { kind: 'int', minimum: 1, maximum: 50, default: 10, multipleOf: 1 },
      required: false,
      aliases: [],
    },
    { name: 'session_id', schema: { kind: 'string' }, required: true, aliases: [], context: 'session_id' },
    { name: 'content', schema: { kind: 'string' }, required: true, aliases: [], extract: 'content' },
    { name: 'token', schema: { kind: 'string', format: 'password' }, required: true, aliases: [], sensitive: true },
  ],
  additionalProperties: false,
};

const definition: ToolDefinition = {
  name: 'search/run',
  description: 'Run a search',
  parameters,
  options: {},
  source: { kind: 'json-schema', schema: {} },
};

describe('paramToJsonSchema', () => {
  const cases: ReadonlyArray<readonly [string, ParamSchema, unknown]> = [
    [
      'string with every keyword',
      {
        kind: 'string',
        title: 'Name',
        description: 'd',
        minLength: 2,
        maxLength: 5,
        pattern: 'a+',
        format: 'email',
        default: 'ab',
        examples: ['abc'],
        enum: ['ab', 'abc'],
      },
      {
        type: 'string',
        format: 'email',
        title: 'Name',
        description: 'd',
        enum: ['ab', 'abc'],
        minLength: 2,
        maxLength: 5,
        pattern: 'a+',
        default: 'ab',
        examples: ['abc'],
      },
    ],
    [
      'int with every bound',
      { kind: 'int', minimum: 0, exclusiveMinimum: -1, maximum: 10, exclusiveMaximum: 11, multipleOf: 2 },
      { type: 'integer', minimum: 0, exclusiveMinimum: -1, maximum: 10, exclusiveMaximum: 11, multipleOf: 2 },
    ],
    ['float', { kind: 'float', minimum: 0.5 }, { type: 'number', minimum: 0.5 }],
    ['bool', { kind: 'bool', default: false }, { type: 'boolean', default: false }],
    ['date', { kind: 'date' }, { type: 'string', format: 'date' }],
    [
      'datetime',
      { kind: 'datetime', description: 'when' },
      { type: 'string', format: 'date-time', description: 'when' },
    ],
    [
      'array with item bounds',
      { kind: 'array', items: { kind: 'int' }, minItems: 1, maxItems: 3, uniqueItems: true },
      { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3, uniqueItems: true },
    ],
    ['any', { kind: 'any', description: 'anything' }, { description: 'anything' }],
    ['nullable any (any already includes null)', { kind: 'any', nullable: true }, {}],
    ['nullable string', { kind: 'string', nullable: true }, { type: ['string', 'null'] }],
    ['nullable date', { kind: 'date', nullable: true }, { type: ['string', 'null'], format: 'date' }],
    [
      'nullable enum lists null',
      { kind: 'string', nullable: true, enum: ['a', 'b'] },
      { type: ['string', 'null'], enum: ['a', 'b', null] },
    ],
    [
      'nullable enum that already lists null',
      { kind: 'string', nullable: true, enum: ['a', null] },
      { type: ['string', 'null'], enum: ['a', null] },
    ],
    [
      'union',
      { kind: 'union', description: 'id', variants: [{ kind: 'string' }, { kind: 'int', minimum: 1 }] },
      { description: 'id', anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
    ],
    [
      'nullable union adds a null variant',
      { kind: 'union', nullable: true, variants: [{ kind: 'string' }, { kind: 'int' }] },
      { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
    ],
    [
      'nullable union with a nullable variant',
      { kind: 'union', nullable: true, variants: [{ kind: 'string', nullable: true }, { kind: 'int' }] },
      { anyOf: [{ type: ['string', 'null'] }, { type: 'integer' }] },
    ],
    [
      'free-form map',
      { kind: 'object', properties: [], additionalProperties: true },
      { type: 'object', properties: {}, additionalProperties: true },
    ],
    [
      'map of numbers',
      { kind: 'object', properties: [], additionalProperties: { kind: 'float' } },
      { type: 'object', properties: {}, additionalProperties: { type: 'number' } },
    ],
    [
      'nullable object',
      { kind: 'object', nullable: true, properties: [], additionalProperties: false },
      { type: ['object', 'null'], properties: {}, additionalProperties: false },
    ],
  ];

  it.each(cases)('exports %s exactly, keys in the fixed order', (_name, schema, expected) => {
    const exported = paramToJsonSchema(schema);
    expect(exported).toEqual(expected);
    expect(JSON.stringify(exported)).toBe(JSON.stringify(expected));
  });
});

describe('toJsonSchema', () => {
  const expected = {
    type: 'object',
    description: 'Search parameters',
    properties: {
      query: {
        type: 'string',
        description: 'What to look for',
        minLength: 1,
        maxLength: 200,
        pattern: '^[^<>]*$',
        examples: ['coffee'],
      },
      limit: { type: 'integer', minimum: 1, maximum: 50, multipleOf: 1, default: 10 },
      content: { type: 'string' },
      // A format toolwright does not check (`password`) is never advertised.
      token: { type: 'string' },
    },
    required: ['query', 'token'],
    additionalProperties: false,
  };

  it('exports a definition: context fields absent, extracted fields optional, aliases and sensitivity not exported', () => {
    const exported = toJsonSchema(definition);
    expect(exported).toEqual(expected);
    expect(JSON.stringify(exported)).toBe(JSON.stringify(expected));
    expect(JSON.stringify(exported)).not.toContain('session_id');
  });

  it('exports an object schema the same way as the definition that holds it', () => {
    expect(toJsonSchema(parameters)).toEqual(toJsonSchema(definition));
  });

  it('writes $schema only when asked', () => {
    const exported = toJsonSchema(definition, { includeDialect: true });
    expect(Object.keys(exported)[0]).toBe('$schema');
    expect(exported.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(toJsonSchema(definition).$schema).toBeUndefined();
  });

  it('drops a nested context field too', () => {
    const nested: ObjectSchema = {
      kind: 'object',
      properties: [
        {
          name: 'job',
          required: true,
          aliases: [],
          schema: {
            kind: 'object',
            properties: [
              { name: 'job_id', schema: { kind: 'string' }, required: true, aliases: [], context: 'job_id' },
              { name: 'step', schema: { kind: 'int' }, required: true, aliases: [] },
            ],
            additionalProperties: false,
          },
        },
      ],
      additionalProperties: false,
    };
    expect(toJsonSchema(nested)).toEqual({
      type: 'object',
      properties: {
        job: {
          type: 'object',
          properties: { step: { type: 'integer' } },
          required: ['step'],
          additionalProperties: false,
        },
      },
      required: ['job'],
      additionalProperties: false,
    });
  });

  it('returns fresh, mutable objects that share nothing with the frozen IR', () => {
    const defaultValue = Object.freeze({ unit: 'celsius', ranges: Object.freeze([1, 2]) });
    const schema: ObjectSchema = Object.freeze({
      kind: 'object',
      properties: Object.freeze([
        Object.freeze({
          name: 'settings',
          schema: Object.freeze({ kind: 'any', default: defaultValue }),
          required: false,
          aliases: Object.freeze([]),
        }),
      ]),
      additionalProperties: false,
    });
    const exported = toJsonSchema(schema);
    const exportedDefault = exported.properties!['settings']!.default as { unit: string; ranges: number[] };
    expect(exportedDefault).toEqual({ unit: 'celsius', ranges: [1, 2] });
    expect(exportedDefault).not.toBe(defaultValue);
    exportedDefault.ranges.push(3);
    expect(defaultValue.ranges).toEqual([1, 2]);
  });

  it('keeps a property named like an Object.prototype member as an own key', () => {
    const exported = toJsonSchema({
      kind: 'object',
      properties: [{ name: 'toString', schema: { kind: 'string' }, required: true, aliases: [] }],
      additionalProperties: false,
    });
    expect(Object.prototype.hasOwnProperty.call(exported.properties, 'toString')).toBe(true);
    expect(exported.required).toEqual(['toString']);
  });

  it('refuses an IR that contains itself instead of overflowing the stack', () => {
    const properties: Array<{ name: string; schema: ParamSchema; required: boolean; aliases: string[] }> = [];
    const cyclic: ObjectSchema = { kind: 'object', name: 'Node', properties, additionalProperties: false };
    properties.push({ name: 'child', schema: cyclic, required: false, aliases: [] });
    expect(() => toJsonSchema(cyclic)).toThrow(
      'Node.#' +
        '/properties/child'.repeat(129) +
        ': The parameter schema nests deeper than 128 levels (a DTO that contains itself?).',
    );
  });
});
