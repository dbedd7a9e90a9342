import 'reflect-metadata';
import {
  ToolParam,
  buildObjectSchema,
  type ObjectSchema,
  type ParamSchema,
  type PropertyDefinition,
} from '@toolwright/core';
import { dtoForSchema } from '@toolwright/core/internal';
import { plainValidation } from '../decorators/plain-validation';

const property = (
  name: string,
  schema: ParamSchema,
  required = true,
  extra: Partial<PropertyDefinition> = {},
): PropertyDefinition => ({
  name,
  schema,
  required,
  aliases: [],
  ...extra,
});

describe('dtoForSchema: JSON-Schema-shaped and compact tools validate through the same class-validator path', () => {
  it('returns the decorated DTO when the schema came from a class', () => {
    class Params {
      @ToolParam() name!: string;
    }
    expect(dtoForSchema(buildObjectSchema(Params))).toBe(Params);
  });

  it('synthesizes one class per schema object, named after the schema', () => {
    const schema: ObjectSchema = {
      kind: 'object',
      name: 'math.factorial',
      properties: [property('number', { kind: 'int' })],
      additionalProperties: false,
    };
    const dto = dtoForSchema(schema);
    expect(dto.name).toBe('math.factorial');
    expect(dtoForSchema(schema)).toBe(dto);
    expect(dtoForSchema({ ...schema })).not.toBe(dto);
    expect(dtoForSchema({ kind: 'object', properties: [], additionalProperties: false }).name).toBe('Parameters');
  });

  describe('a hand-written schema with every kind', () => {
    const option: ObjectSchema = {
      kind: 'object',
      name: 'Option',
      properties: [
        property('label', { kind: 'string', minLength: 1 }),
        property('proposedBy', { kind: 'string' }, false),
      ],
      additionalProperties: false,
    };
    const schema: ObjectSchema = {
      kind: 'object',
      name: 'everything',
      properties: [
        property('text', { kind: 'string', maxLength: 5, pattern: '^[a-z]*$' }),
        property('count', { kind: 'int', minimum: 1, maximum: 9 }),
        property('ratio', { kind: 'float', exclusiveMinimum: 0, multipleOf: 0.5 }, false),
        property('flag', { kind: 'bool' }, false),
        property('day', { kind: 'date' }, false),
        property('at', { kind: 'datetime', nullable: true }, false),
        property('color', { kind: 'string', enum: ['red', 'green'] }, false),
        property('options', { kind: 'array', items: option, minItems: 2 }, false),
        property('main', option, false),
        property('tags', { kind: 'array', items: { kind: 'string' }, uniqueItems: true }, false),
        property('matrix', { kind: 'array', items: { kind: 'array', items: { kind: 'float' } } }, false),
        property('metadata', { kind: 'object', properties: [], additionalProperties: true }, false),
        property('scores', { kind: 'object', properties: [], additionalProperties: { kind: 'int' } }, false),
        property('payload', { kind: 'any' }, false),
        property('idOrName', { kind: 'union', variants: [{ kind: 'int' }, { kind: 'string', minLength: 2 }] }, false),
        property('maybeList', { kind: 'array', items: { kind: 'string', nullable: true } }, false),
        property('session', { kind: 'string' }, false, { context: 'session_id' }),
      ],
      additionalProperties: false,
    };
    const valid = {
      text: 'abc',
      count: 3,
      ratio: 1.5,
      flag: false,
      day: '2026-11-21',
      at: null,
      color: 'red',
      options: [{ label: 'a' }, { label: 'b', proposedBy: 'me' }],
      main: { label: 'x' },
      tags: ['a', 'b'],
      matrix: [[1.5], []],
      metadata: { anything: [1, { deep: true }] },
      scores: { alice: 3 },
      payload: [null, 'x'],
      idOrName: 42,
      maybeList: ['a', null],
      session: 's-1',
    };

    it('accepts valid input (optional values may be absent)', () => {
      const dto = dtoForSchema(schema);
      expect(plainValidation(dto, valid)).toStrictEqual({});
      expect(plainValidation(dto, { text: '', count: 1 })).toStrictEqual({});
      expect(plainValidation(dto, { ...valid, idOrName: 'ab' })).toStrictEqual({});
    });

    it.each([
      ['a missing required value', { count: undefined }, { count: ['isDefined', 'isInt', 'min', 'max'] }],
      ['a too long string', { text: 'abcdef' }, { text: ['maxLength'] }],
      ['a string off the pattern', { text: 'ABC' }, { text: ['matches'] }],
      ['an int over the maximum', { count: 10 }, { count: ['max'] }],
      ['a float at the exclusive minimum', { ratio: 0 }, { ratio: ['exclusiveMinimum'] }],
      ['a float off multipleOf', { ratio: 0.7 }, { ratio: ['multipleOf'] }],
      ['a string for a bool', { flag: 'true' }, { flag: ['isBoolean'] }],
      ['a bad date', { day: '21.11.2026' }, { day: ['isDateOnly'] }],
      ['a date-time without offset', { at: '2026-11-21T10:00' }, { at: ['isOffsetDateTime'] }],
      ['a value outside the enum', { color: 'blue' }, { color: ['isIn'] }],
      ['too few objects', { options: [{ label: 'a' }] }, { options: ['arrayMinSize'] }],
      ['a bad nested element', { options: [{ label: '' }, { label: 'b' }] }, { 'options.0.label': ['minLength'] }],
      ['an unknown nested key', { main: { label: 'x', extra: 1 } }, { 'main.extra': ['whitelistValidation'] }],
      ['duplicate items', { tags: ['a', 'a'] }, { tags: ['arrayUnique'] }],
      ['a bad element of a nested array', { matrix: [['x']] }, { matrix: ['matchesSchema'] }],
      ['a free-form object given an array', { metadata: [1] }, { metadata: ['isObject'] }],
      ['an extra value of the wrong type', { scores: { alice: 'x' } }, { scores: ['matchesSchema'] }],
      ['a value matching no union variant', { idOrName: 'a' }, { idOrName: ['matchesSchema'] }],
      ['a value of no variant type', { idOrName: true }, { idOrName: ['matchesSchema'] }],
      ['a non-null bad element in a nullable-element array', { maybeList: [1] }, { maybeList: ['matchesSchema'] }],
      ['an unknown key', { surprise: 1 }, { surprise: ['whitelistValidation'] }],
    ] as const)('rejects %s, naming the property', (_case, patch, expected) => {
      expect(plainValidation(dtoForSchema(schema), { ...valid, ...patch })).toStrictEqual(expected);
    });
  });

  it('a nullable required value accepts null, not absence', () => {
    const dto = dtoForSchema({
      kind: 'object',
      properties: [property('note', { kind: 'string', nullable: true })],
      additionalProperties: false,
    });
    expect(plainValidation(dto, { note: null })).toStrictEqual({});
    expect(plainValidation(dto, {})).toStrictEqual({ note: ['isDefined', 'isString'] });
  });

  it('a tool without parameters accepts {} (forbidUnknownValues) and refuses unknown keys', () => {
    const dto = dtoForSchema({ kind: 'object', name: 'ping', properties: [], additionalProperties: false });
    expect(plainValidation(dto, {})).toStrictEqual({});
    expect(plainValidation(dto, { x: 1 })).toStrictEqual({ x: ['whitelistValidation'] });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'refuses a parameter named %s (class-validator cannot validate it) with a DefinitionError',
    (name) => {
      expect(() =>
        dtoForSchema({
          kind: 'object',
          name: 'evil',
          properties: [property(name, { kind: 'string' })],
          additionalProperties: false,
        }),
      ).toThrow(
        `evil.${name}: is a reserved name that cannot be a parameter: every object inherits it from Object.prototype, so class-transformer and class-validator cannot tell it from a value. Fix: rename the parameter.`,
      );
    },
  );
});
