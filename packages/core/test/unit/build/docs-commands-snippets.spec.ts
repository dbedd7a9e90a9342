import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { buildObjectSchema, toJsonSchema } from '@toolwright/core';
import { dtoForSchema } from '@toolwright/core/internal';
import {
  BookHotelParams,
  InviteParams,
  SearchContactsParams,
  countParamsError,
  registry,
  runtimeTools,
} from '../../../../../docs/snippets/commands';
import { plainValidation } from '../decorators/plain-validation';

describe('docs/commands-and-parameters.md snippets run as documented', () => {
  it('the composition root registers the three commands under their exact names', () => {
    expect(registry.list().map((definition) => definition.name)).toStrictEqual([
      'decision/propose',
      'get_calendar_events',
      'hotel/book',
    ]);
    expect(registry.get('hotel/book')?.options).toStrictEqual({
      tags: ['travel'],
      permissions: ['booking'],
      aliases: ['book_hotel'],
    });
  });

  it('decision/propose and get_calendar_events export as documented', () => {
    expect(registry.toJsonSchema('decision/propose')).toEqual({
      type: 'object',
      properties: {
        question: { type: 'string', description: 'The question to decide' },
        options: {
          type: 'array',
          description: 'The options, at least two',
          items: {
            type: 'object',
            properties: {
              label: { type: 'string', description: 'Short name of the option' },
              description: { type: 'string', description: 'What choosing it means' },
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
    expect(registry.toJsonSchema('get_calendar_events')).toEqual({
      type: 'object',
      properties: {
        resolved_datetimes: {
          type: 'array',
          description: 'Date-times already resolved to ISO-8601 with an offset',
          items: { type: 'string', format: 'date-time' },
        },
      },
      required: ['resolved_datetimes'],
      additionalProperties: false,
    });
  });

  it('the every-option DTO builds the IR the options table describes', () => {
    const schema = buildObjectSchema(BookHotelParams);
    expect(schema.properties.map((property) => [property.name, property.required])).toStrictEqual([
      ['guestName', true],
      ['guests', false],
      ['room', false],
      ['arrival', true],
      ['departure', false],
      ['billing', true],
      ['requests', false],
      ['card', false],
      ['budget', false],
      ['notes', false],
      ['email', false],
      ['persona', false],
    ]);
    const byName = Object.fromEntries(schema.properties.map((property) => [property.name, property]));
    expect(byName['guestName']).toStrictEqual({
      name: 'guestName',
      schema: {
        kind: 'string',
        description: 'Guest name',
        minLength: 2,
        maxLength: 80,
        lengthCount: 'class-validator',
      },
      required: true,
      aliases: ['guest', 'name'],
    });
    expect(byName['room']?.schema).toStrictEqual({ kind: 'string', enum: ['standard', 'deluxe'], default: 'standard' });
    expect(byName['card']).toMatchObject({ sensitive: true, schema: { kind: 'string', pattern: '^[0-9]{16}$' } });
    expect(byName['budget']?.schema).toStrictEqual({
      kind: 'float',
      exclusiveMinimum: 0,
      nullable: true,
      policy: 'strict',
    });
    expect(byName['notes']).toMatchObject({ extract: 'content', required: false });
    expect(byName['email']?.schema).toStrictEqual({ kind: 'string', format: 'email' });
    expect(byName['persona']).toMatchObject({ context: 'persona' });
    const exported = toJsonSchema(schema);
    expect(Object.keys(exported.properties ?? {})).not.toContain('persona');
    expect(exported.required).toStrictEqual(['guestName', 'arrival', 'billing']);
  });

  it('the every-option DTO validates with plain class-validator and hands the handler a Date', () => {
    const valid = {
      guestName: 'Ana',
      arrival: '2026-12-01T15:00:00+01:00',
      billing: { city: 'Paris' },
      email: 'ana@example.com',
    };
    expect(plainValidation(BookHotelParams, valid)).toStrictEqual({});
    expect(plainToInstance(BookHotelParams, valid).arrival).toBeInstanceOf(Date);
    expect(plainValidation(BookHotelParams, { ...valid, email: 'not-an-email', guests: 11 })).toStrictEqual({
      guests: ['max'],
      email: ['isEmail'],
    });
  });

  it('inheritance and plain class-validator DTOs', () => {
    expect(
      buildObjectSchema(SearchContactsParams).properties.map((property) => [property.name, property.schema]),
    ).toStrictEqual([
      ['page', { kind: 'int', minimum: 1, default: 1 }],
      ['size', { kind: 'int', minimum: 1, maximum: 50, default: 10 }],
      ['query', { kind: 'string', description: 'Text to search for' }],
    ]);
    expect(buildObjectSchema(InviteParams).properties).toStrictEqual([
      { name: 'email', schema: { kind: 'string', format: 'email' }, required: true, aliases: [] },
      {
        name: 'name',
        schema: {
          kind: 'string',
          description: 'Display name',
          minLength: 2,
          maxLength: 40,
          lengthCount: 'class-validator',
        },
        required: true,
        aliases: [],
      },
    ]);
  });

  it('runtime tools register under their documented names and validate through synthesized DTOs', () => {
    const tools = runtimeTools();
    expect(tools.list().map((definition) => [definition.name, definition.source.kind])).toStrictEqual([
      ['filesystem.read_file', 'json-schema'],
      ['get_calendar_events', 'compact'],
    ]);
    const readFile = tools.get('filesystem.read_file');
    expect(readFile && plainValidation(dtoForSchema(readFile.parameters), { path: '/tmp/x' })).toStrictEqual({});
    expect(readFile && plainValidation(dtoForSchema(readFile.parameters), {})).toStrictEqual({
      path: ['isDefined', 'isString'],
    });
  });

  it('the documented definition error', () => {
    expect(countParamsError()).toBe(
      "CountParams.count: is a number, and a number can be an integer or a float. Fix: say `type: 'int'` or `type: 'float'` in the decorator options.",
    );
  });
});
