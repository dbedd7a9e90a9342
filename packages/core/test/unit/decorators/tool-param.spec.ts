import 'reflect-metadata';
import { ToolParam, buildObjectSchema, type Constructor, type PropertyDefinition } from '@toolwright/core';

function properties(dto: Constructor): readonly PropertyDefinition[] {
  return buildObjectSchema(dto).properties;
}

describe('@ToolParam: the IR of every option', () => {
  it('infers string and bool from TypeScript metadata; required defaults to true; aliases default to []', () => {
    class Params {
      @ToolParam() name!: string;
      @ToolParam() active!: boolean;
    }
    expect(buildObjectSchema(Params)).toStrictEqual({
      kind: 'object',
      name: 'Params',
      properties: [
        { name: 'name', schema: { kind: 'string' }, required: true, aliases: [] },
        { name: 'active', schema: { kind: 'bool' }, required: true, aliases: [] },
      ],
      additionalProperties: false,
      dto: Params,
    });
  });

  it.each([
    ['string', { kind: 'string' }],
    ['int', { kind: 'int' }],
    ['float', { kind: 'float' }],
    ['bool', { kind: 'bool' }],
    ['date', { kind: 'date' }],
    ['datetime', { kind: 'datetime' }],
    ['object', { kind: 'object', properties: [], additionalProperties: true }],
    ['any', { kind: 'any' }],
  ] as const)('type: %p', (type, schema) => {
    class Params {}
    ToolParam({ type })(Params.prototype, 'value');
    expect(properties(Params)).toStrictEqual([{ name: 'value', schema, required: true, aliases: [] }]);
  });

  it.each([
    ['array<datetime>', { kind: 'array', items: { kind: 'datetime' } }],
    ['array[int]', { kind: 'array', items: { kind: 'int' } }],
    ['string[]', { kind: 'array', items: { kind: 'string' } }],
    ['array<bool>', { kind: 'array', items: { kind: 'bool' } }],
  ] as const)('a grammar type: %p', (type, schema) => {
    class Params {}
    ToolParam({ type })(Params.prototype, 'values');
    expect(properties(Params)).toStrictEqual([{ name: 'values', schema, required: true, aliases: [] }]);
  });

  it('annotations: description, title, default, examples, nullable, policy', () => {
    class Params {
      @ToolParam({
        description: 'How many',
        title: 'Count',
        type: 'int',
        default: 3,
        examples: [1, 2],
        nullable: true,
        policy: 'strict',
      })
      count?: number | null;
    }
    expect(properties(Params)).toStrictEqual([
      {
        name: 'count',
        schema: {
          kind: 'int',
          description: 'How many',
          title: 'Count',
          default: 3,
          examples: [1, 2],
          nullable: true,
          policy: 'strict',
        },
        required: false,
        aliases: [],
      },
    ]);
  });

  it('a default makes a parameter optional unless required is said; required: false and required: true', () => {
    class Params {
      @ToolParam({ default: 'asc' }) order!: string;
      @ToolParam({ default: 'x', required: true }) mode!: string;
      @ToolParam({ required: false }) note?: string;
    }
    expect(properties(Params).map(({ name, required }) => [name, required])).toStrictEqual([
      ['order', false],
      ['mode', true],
      ['note', false],
    ]);
  });

  it('numeric bounds: min/max -> minimum/maximum, exclusiveMin/exclusiveMax, multipleOf', () => {
    class Params {
      @ToolParam({ type: 'int', min: 1, max: 10 }) guests!: number;
      @ToolParam({ type: 'float', exclusiveMin: 0, exclusiveMax: 1, multipleOf: 0.25 }) ratio!: number;
    }
    expect(properties(Params)).toStrictEqual([
      { name: 'guests', schema: { kind: 'int', minimum: 1, maximum: 10 }, required: true, aliases: [] },
      {
        name: 'ratio',
        schema: { kind: 'float', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
        required: true,
        aliases: [],
      },
    ]);
  });

  it('string constraints: minLength, maxLength, pattern (string or RegExp), format', () => {
    class Params {
      @ToolParam({ minLength: 2, maxLength: 40, pattern: '^[A-Z]' }) name!: string;
      @ToolParam({ pattern: /^\d{5}$/ }) zip!: string;
      @ToolParam({ format: 'email' }) email!: string;
    }
    expect(properties(Params)).toStrictEqual([
      {
        name: 'name',
        schema: { kind: 'string', minLength: 2, maxLength: 40, lengthCount: 'class-validator', pattern: '^[A-Z]' },
        required: true,
        aliases: [],
      },
      { name: 'zip', schema: { kind: 'string', pattern: '^\\d{5}$' }, required: true, aliases: [] },
      { name: 'email', schema: { kind: 'string', format: 'email' }, required: true, aliases: [] },
    ]);
  });

  it('enum: a list, or a TypeScript enum object (string and numeric, without reverse mappings)', () => {
    enum Color {
      Red = 'red',
      Green = 'green',
    }
    enum Level {
      Low = 1,
      High = 5,
    }
    class Params {
      @ToolParam({ enum: ['standard', 'deluxe'] }) room!: string;
      @ToolParam({ enum: Color }) color!: Color;
      @ToolParam({ type: 'int', enum: Level }) level!: Level;
      @ToolParam({ enum: [true] }) confirm!: boolean;
    }
    expect(properties(Params).map((property) => property.schema)).toStrictEqual([
      { kind: 'string', enum: ['standard', 'deluxe'] },
      { kind: 'string', enum: ['red', 'green'] },
      { kind: 'int', enum: [1, 5] },
      { kind: 'bool', enum: [true] },
    ]);
  });

  it('array options: minItems, maxItems, uniqueItems on a grammar array; value constraints go to the elements', () => {
    class Params {
      @ToolParam({ type: 'array<int>', minItems: 1, maxItems: 3, uniqueItems: true, min: 0, description: 'Ids' })
      ids!: number[];
      @ToolParam({ type: 'string[]', enum: ['a', 'b'], minLength: 1 }) letters!: string[];
    }
    expect(properties(Params).map((property) => property.schema)).toStrictEqual([
      {
        kind: 'array',
        items: { kind: 'int', minimum: 0 },
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        description: 'Ids',
      },
      { kind: 'array', items: { kind: 'string', enum: ['a', 'b'], minLength: 1, lengthCount: 'class-validator' } },
    ]);
  });

  it('aliases, sensitive and extract land on the property definition', () => {
    class Params {
      @ToolParam({ aliases: ['text', 'body'], extract: 'content' }) content?: string;
      @ToolParam({ extract: 'title', required: true }) title!: string;
      @ToolParam({ sensitive: true }) apiKey!: string;
      @ToolParam({ sensitive: false }) plain!: string;
    }
    expect(properties(Params)).toStrictEqual([
      { name: 'content', schema: { kind: 'string' }, required: false, aliases: ['text', 'body'], extract: 'content' },
      { name: 'title', schema: { kind: 'string' }, required: true, aliases: [], extract: 'title' },
      { name: 'apiKey', schema: { kind: 'string' }, required: true, aliases: [], sensitive: true },
      { name: 'plain', schema: { kind: 'string' }, required: true, aliases: [] },
    ]);
  });

  it('a nested DTO by thunk (class order does not matter) or by class; property annotations wrap the nested schema', () => {
    // Typed through an interface: TypeScript's own `design:type` would read the later class too early.
    interface AddressShape {
      city: string;
    }
    class OrderParams {
      @ToolParam({ type: () => Address, description: 'Ship to' }) shipTo!: AddressShape;
      @ToolParam({ type: () => Address, required: false, nullable: true }) billTo?: AddressShape | null;
    }
    class Address {
      @ToolParam() city!: string;
    }
    const address = {
      kind: 'object',
      name: 'Address',
      properties: [{ name: 'city', schema: { kind: 'string' }, required: true, aliases: [] }],
      additionalProperties: false,
      dto: Address,
    };
    expect(properties(OrderParams)).toStrictEqual([
      { name: 'shipTo', schema: { ...address, description: 'Ship to' }, required: true, aliases: [] },
      { name: 'billTo', schema: { ...address, nullable: true }, required: false, aliases: [] },
    ]);
  });

  it('a DTO class given directly (not as a thunk) is accepted too', () => {
    class Tag {
      @ToolParam() label!: string;
    }
    class Params {}
    ToolParam({ type: Tag as never })(Params.prototype, 'tag');
    expect(properties(Params)[0]?.schema).toMatchObject({ kind: 'object', name: 'Tag', dto: Tag });
  });

  it('a Date-typed property may say type: datetime or date', () => {
    class Params {
      @ToolParam({ type: 'datetime' }) at!: Date;
      @ToolParam({ type: 'date' }) on!: Date;
    }
    expect(properties(Params).map((property) => property.schema)).toStrictEqual([
      { kind: 'datetime' },
      { kind: 'date' },
    ]);
  });
});
