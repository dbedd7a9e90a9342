import 'reflect-metadata';
import { DefinitionError, type CompactDeclaration } from '@toolwright/core';
import { definitionFromCompact, formatTypeExpression, parseTypeExpression } from '../../../src/schema/compact-grammar';
import { toJsonSchema, paramToJsonSchema } from '../../../src/schema/json-schema-export';
import { definitionFromJsonSchema } from '../../../src/schema/json-schema-tool';

function errorOf(action: () => unknown): DefinitionError {
  try {
    action();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('expected a DefinitionError, nothing was thrown');
}

describe('parseTypeExpression', () => {
  const scalars = [
    ['string', { kind: 'string' }, { type: 'string' }],
    ['int', { kind: 'int' }, { type: 'integer' }],
    ['float', { kind: 'float' }, { type: 'number' }],
    ['bool', { kind: 'bool' }, { type: 'boolean' }],
    ['date', { kind: 'date' }, { type: 'string', format: 'date' }],
    ['datetime', { kind: 'datetime' }, { type: 'string', format: 'date-time' }],
  ] as const;

  it.each(scalars)('parses %s and exports it with the seed 001 mapping', (expression, ir, jsonSchema) => {
    const schema = parseTypeExpression(expression);
    expect(schema).toEqual(ir);
    expect(paramToJsonSchema(schema)).toEqual(jsonSchema);
    expect(Object.isFrozen(schema)).toBe(true);
  });

  const arraySpellings = (element: string): string[] => [
    `array<${element}>`,
    `array[${element}]`,
    `${element}[]`,
    ` array < ${element} > `,
    `${element} [ ]`,
    `array [ ${element} ]`,
  ];

  it.each(scalars)('parses every array spelling of %s to the same IR and JSON Schema', (element, ir, jsonSchema) => {
    for (const expression of arraySpellings(element)) {
      const schema = parseTypeExpression(expression);
      expect(schema).toEqual({ kind: 'array', items: ir });
      expect(paramToJsonSchema(schema)).toEqual({ type: 'array', items: jsonSchema });
      expect(formatTypeExpression(schema)).toBe(`array<${element}>`);
    }
  });

  it('tolerates whitespace around a scalar', () => {
    expect(parseTypeExpression('  datetime\t')).toEqual({ kind: 'datetime' });
  });

  it.each([
    ['array<array<int>>'],
    ['array[array[int]]'],
    ['int[][]'],
    ['array<int[]>'],
    ['array<int>[]'],
    ['array[ string ] [ ]'],
  ])('refuses the nested array %s, saying what to do instead', (expression) => {
    const error = errorOf(() => parseTypeExpression(expression, { target: 'ReportParams', property: 'rows' }));
    expect(error.message).toBe(
      `ReportParams.rows: Nested arrays ('${expression}') are not supported by the compact grammar. ` +
        'Fix: Declare the tool with a JSON Schema (registerJsonSchemaTool) to describe an array of arrays, or use an array of objects (@ArrayOf(() => Row)).',
    );
    expect(error.target).toBe('ReportParams');
    expect(error.property).toBe('rows');
  });

  it('refuses a deeply nested array at the second level, without recursing further', () => {
    const expression = `${'array<'.repeat(20)}int${'>'.repeat(20)}`;
    expect(errorOf(() => parseTypeExpression(expression)).message).toContain('Nested arrays');
  });

  it.each([
    ['integer', 'int'],
    ['Int', 'int'],
    ['STRING', 'string'],
    ['number', 'float'],
    ['boolean', 'bool'],
    ['date-time', 'datetime'],
    ['DateTime', 'datetime'],
  ])('refuses %s with a hint to write %s', (name, suggestion) => {
    const error = errorOf(() => parseTypeExpression(name, { target: 'Params', property: 'count' }));
    expect(error.message).toBe(
      `Params.count: Unknown type '${name}' in the type expression '${name}'. ` +
        `Fix: Use '${suggestion}' (type names are lower-case and spelled as in the grammar: string, int, float, bool, date, datetime, array<T> (also written array[T] or T[])).`,
    );
  });

  it('refuses an unknown name inside an array, listing the valid types', () => {
    expect(errorOf(() => parseTypeExpression('array<uuid>')).message).toBe(
      "Unknown type 'uuid' in the type expression 'array<uuid>'. Fix: Use one of: string, int, float, bool, date, datetime, array<T> (also written array[T] or T[]).",
    );
  });

  it.each([
    ['', 'The type expression is empty.'],
    ['   ', 'The type expression is empty.'],
    ['array', "The type expression 'array' has 'array' without an element type."],
    ['array[]', "The type expression 'array[]' has 'array' without an element type."],
    ['array<int', "Expected '>' but found the end of the expression in the type expression 'array<int'."],
    ['array<int]', "Expected '>' but found ']' at position 9 in the type expression 'array<int]'."],
    ['array<>', "Expected a type name but found '>' at position 6 in the type expression 'array<>'."],
    [
      'int string',
      "Expected the end of the expression but found 'string' at position 4 in the type expression 'int string'.",
    ],
    ['int[', "Expected ']' but found the end of the expression in the type expression 'int['."],
    ['string?', "Unexpected character '?' at position 6 of the type expression 'string?'."],
    ['<int>', "Expected a type name but found '<' at position 0 in the type expression '<int>'."],
  ])('refuses the malformed expression %j', (expression, message) => {
    expect(errorOf(() => parseTypeExpression(expression)).message).toMatch(
      new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} Fix: `),
    );
  });

  it('refuses an overlong expression before parsing it', () => {
    expect(errorOf(() => parseTypeExpression('int'.padEnd(500, ' x'))).message).toContain(
      'is longer than 200 characters',
    );
  });
});

describe('formatTypeExpression', () => {
  it('spells what the grammar can say, and nothing else', () => {
    expect(formatTypeExpression({ kind: 'int', description: 'how many' })).toBe('int');
    expect(formatTypeExpression({ kind: 'int', minimum: 1 })).toBeUndefined();
    expect(formatTypeExpression({ kind: 'array', items: { kind: 'string', format: 'email' } })).toBeUndefined();
    expect(formatTypeExpression({ kind: 'array', items: { kind: 'array', items: { kind: 'int' } } })).toBeUndefined();
    expect(formatTypeExpression({ kind: 'object', properties: [], additionalProperties: true })).toBeUndefined();
    expect(formatTypeExpression({ kind: 'any' })).toBeUndefined();
  });
});

describe('definitionFromCompact', () => {
  const calendar: CompactDeclaration = {
    command_name: 'get_calendar_events',
    description: 'List calendar events at the given instants.',
    parameters: [
      {
        name: 'resolved_datetimes',
        type: 'array<datetime>',
        required: true,
        description: 'ISO-8601 instants with offsets',
      },
      { name: 'calendar_id', type: 'string', required: false },
      { name: 'limit', type: 'int' },
    ],
  };

  it('builds the seed get_calendar_events definition: exact IR', () => {
    const definition = definitionFromCompact(calendar, { timeoutMs: 5_000 });
    expect(definition).toEqual({
      name: 'get_calendar_events',
      description: 'List calendar events at the given instants.',
      parameters: {
        kind: 'object',
        properties: [
          {
            name: 'resolved_datetimes',
            schema: { kind: 'array', items: { kind: 'datetime' }, description: 'ISO-8601 instants with offsets' },
            required: true,
            aliases: [],
          },
          { name: 'calendar_id', schema: { kind: 'string' }, required: false, aliases: [] },
          { name: 'limit', schema: { kind: 'int' }, required: true, aliases: [] },
        ],
        additionalProperties: false,
      },
      options: { timeoutMs: 5_000 },
      source: { kind: 'compact', declaration: calendar },
    });
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.parameters.properties[0]!.schema)).toBe(true);
    expect(Object.isFrozen(calendar)).toBe(false);
  });

  it('exports get_calendar_events as the exact JSON Schema (compact -> IR -> JSON Schema)', () => {
    expect(toJsonSchema(definitionFromCompact(calendar))).toEqual({
      type: 'object',
      properties: {
        resolved_datetimes: {
          type: 'array',
          description: 'ISO-8601 instants with offsets',
          items: { type: 'string', format: 'date-time' },
        },
        calendar_id: { type: 'string' },
        limit: { type: 'integer' },
      },
      required: ['resolved_datetimes', 'limit'],
      additionalProperties: false,
    });
  });

  it('round-trips every grammar type and alias: compact -> IR -> JSON Schema -> IR -> JSON Schema', () => {
    const types = ['string', 'int', 'float', 'bool', 'date', 'datetime'];
    const expressions = types.flatMap((type) => [type, `array<${type}>`, `array[${type}]`, `${type}[]`]);
    const declaration: CompactDeclaration = {
      command_name: 'every_type',
      parameters: expressions.map((type, index) => ({
        name: `p${index}`,
        type,
        required: index % 2 === 0,
        description: type,
      })),
    };
    const exported = toJsonSchema(definitionFromCompact(declaration));
    expect(Object.keys(exported.properties!)).toHaveLength(24);
    expect(exported.properties!['p3']).toEqual({ type: 'array', description: 'string[]', items: { type: 'string' } });
    expect(exported.properties!['p22']).toEqual({
      type: 'array',
      description: 'array[datetime]',
      items: { type: 'string', format: 'date-time' },
    });
    const reimported = definitionFromJsonSchema({
      name: 'every_type',
      parameters: exported as Record<string, unknown>,
    });
    expect(toJsonSchema(reimported)).toEqual(exported);
    expect(reimported.parameters.properties.map((property) => formatTypeExpression(property.schema))).toEqual(
      types.flatMap((type) => [type, `array<${type}>`, `array<${type}>`, `array<${type}>`]),
    );
  });

  it('accepts a declaration without parameters as a tool that takes none', () => {
    const definition = definitionFromCompact({ command_name: 'ping' } as CompactDeclaration);
    expect(definition.parameters).toEqual({ kind: 'object', properties: [], additionalProperties: false });
    expect(definition.description).toBe('');
  });

  it.each([
    [null, 'compact declaration: A compact declaration must be an object, received null.'],
    [{ parameters: [] }, 'compact declaration.command_name: The compact declaration has no command_name.'],
    [{ command_name: '' }, "compact declaration.command_name: The compact declaration has an invalid command_name ''."],
    [
      { command_name: ' padded ' },
      "compact declaration.command_name: The compact declaration has an invalid command_name ' padded '.",
    ],
    [{ command_name: 42 }, 'compact declaration.command_name: The compact declaration has an invalid command_name 42.'],
    [
      { command_name: 'x', parameters: {} },
      "compact declaration 'x'.parameters: Expected an array of parameter declarations, received {}.",
    ],
    [
      { command_name: 'x', description: 3, parameters: [] },
      "compact declaration 'x'.description: Expected a string, received 3.",
    ],
    [
      { command_name: 'x', parameters: [], handler: 'y' },
      "compact declaration 'x'.handler: Unknown field 'handler': the compact format has only command_name, description, parameters.",
    ],
    [
      { command_name: 'x', parameters: ['a'] },
      "compact declaration 'x'.parameters[0]: Expected an object { name, type, required, description }, received 'a'.",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'a', type: 'string', enum: ['b'] }] },
      "compact declaration 'x'.parameters[0].enum: Unknown field 'enum': the compact format has only name, type, required, description.",
    ],
    [
      { command_name: 'x', parameters: [{ type: 'string' }] },
      "compact declaration 'x'.parameters[0].name: The parameter name undefined is not valid.",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'two words', type: 'string' }] },
      "compact declaration 'x'.parameters[0].name: The parameter name 'two words' is not valid.",
    ],
    [
      { command_name: 'x', parameters: [{ name: '9lives', type: 'string' }] },
      "compact declaration 'x'.parameters[0].name: The parameter name '9lives' is not valid.",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'a'.repeat(65), type: 'string' }] },
      `compact declaration 'x'.parameters[0].name: The parameter name '${'a'.repeat(65)}' is not valid.`,
    ],
    [
      { command_name: 'x', parameters: [{ name: '__proto__', type: 'string' }] },
      "compact declaration 'x'.parameters[0].name: The property name '__proto__' is reserved: it can never be set safely on a JavaScript object.",
    ],
    [
      {
        command_name: 'x',
        parameters: [
          { name: 'a', type: 'int' },
          { name: 'b', type: 'int' },
          { name: 'a', type: 'string' },
        ],
      },
      "compact declaration 'x'.parameters[2].name: The parameter name 'a' is declared twice (first at parameters[0]).",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'a' }] },
      "compact declaration 'x'.parameters[0].type: Expected a type expression (string, int, float, bool, date, datetime, array<T> (also written array[T] or T[])), received undefined.",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'a', type: 'int', required: 'yes' }] },
      "compact declaration 'x'.parameters[0].required: Expected true or false, received 'yes'.",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'a', type: 'int', description: 1 }] },
      "compact declaration 'x'.parameters[0].description: Expected a string, received 1.",
    ],
    [
      { command_name: 'x', parameters: [{ name: 'grid', type: 'int[][]' }] },
      "compact declaration 'x'.grid: Nested arrays ('int[][]') are not supported by the compact grammar.",
    ],
  ])('refuses the invalid declaration %j, naming it and the field', (declaration, message) => {
    const error = errorOf(() => definitionFromCompact(declaration as unknown as CompactDeclaration));
    expect(error.message.startsWith(`${message} Fix: `)).toBe(true);
    expect(error.fix).toBeTruthy();
  });

  it('keeps a frozen copy of the declaration as the source, not the caller object', () => {
    const parameters = [{ name: 'when', type: 'date' }];
    const definition = definitionFromCompact({ command_name: 'plan', parameters });
    parameters.push({ name: 'later', type: 'int' });
    expect(definition.source).toEqual({
      kind: 'compact',
      declaration: { command_name: 'plan', parameters: [{ name: 'when', type: 'date' }] },
    });
    expect(definition.parameters.properties).toHaveLength(1);
  });
});
