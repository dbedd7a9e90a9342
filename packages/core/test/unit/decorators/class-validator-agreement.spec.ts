import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ArrayOf, DateOnly, DateTime, FromContext, ToolParam, buildObjectSchema } from '@toolwright/core';
import { PLAIN_VALIDATION_OPTIONS as OPTIONS, plainValidation } from './plain-validation';

describe('plain class-validator agrees with the decorators', () => {
  class Item {
    @ToolParam() label!: string;
    @ToolParam({ required: false }) note?: string;
  }
  class AgreementParams {
    @ToolParam({ minLength: 2, maxLength: 5, pattern: '^[a-z]+$' }) code!: string;
    @ToolParam({ type: 'int', min: 1, max: 10 }) count!: number;
    @ToolParam({ type: 'float', exclusiveMin: 0, exclusiveMax: 1, multipleOf: 0.25 }) ratio!: number;
    @ToolParam({ required: false }) flag?: boolean;
    @ToolParam({ enum: ['a', 'b'] }) letter!: string;
    @DateTime() at!: string;
    @DateOnly() day!: string;
    @ArrayOf('string', { minItems: 1, maxItems: 2, uniqueItems: true, maxLength: 3 }) tags!: string[];
    @ArrayOf(() => Item, { minItems: 1 }) items!: Item[];
    @ToolParam({ type: () => Item, nullable: true }) main!: Item | null;
    @ToolParam({ type: 'object', required: false }) meta?: Record<string, unknown>;
    @ToolParam({ type: 'any', required: false }) anything?: unknown;
    @ArrayOf('array<int>', { required: false }) matrix?: number[][];
    @ToolParam({ type: 'array<datetime>', required: false }) instants?: string[];
    @FromContext('session_id') sessionId?: string;
    @FromContext('handler_config') config?: Record<string, unknown>;
  }
  const valid = {
    code: 'abc',
    count: 3,
    ratio: 0.5,
    letter: 'a',
    at: '2026-11-21T09:00:00+01:00',
    day: '2026-02-28',
    tags: ['x', 'yz'],
    items: [{ label: 'first' }],
    main: { label: 'main', note: 'n' },
    meta: { any: ['thing'] },
    anything: [1, 'two'],
    matrix: [[1, 2], [3]],
    instants: ['2026-11-21T08:00:00Z'],
    sessionId: 's-1',
    config: { depth: 2 },
  };
  // Toolwright applies its class-validator rules when a DTO is built (registration builds it), not when decorating.
  beforeAll(() => buildObjectSchema(AgreementParams));

  it('accepts a valid value of every kind (context fields are whitelisted)', () => {
    expect(plainValidation(AgreementParams, valid)).toStrictEqual({});
    expect(plainValidation(AgreementParams, { ...valid, main: null, flag: null, meta: undefined })).toStrictEqual({});
  });

  it.each([
    [
      'a missing required string',
      { code: undefined },
      { code: ['isDefined', 'isString', 'minLength', 'maxLength', 'matches'] },
    ],
    ['a too short string', { code: 'a' }, { code: ['minLength'] }],
    ['a too long string', { code: 'abcdef' }, { code: ['maxLength'] }],
    ['a string off the pattern', { code: 'AB' }, { code: ['matches'] }],
    ['a fraction for an int', { count: 1.5 }, { count: ['isInt'] }],
    ['an int under min', { count: 0 }, { count: ['min'] }],
    ['an int over max', { count: 11 }, { count: ['max'] }],
    ['a numeric string for an int', { count: '3' }, { count: ['isInt', 'min', 'max'] }],
    ['a float at the exclusive minimum', { ratio: 0 }, { ratio: ['exclusiveMinimum'] }],
    ['a float at the exclusive maximum', { ratio: 1 }, { ratio: ['exclusiveMaximum'] }],
    ['a float off multipleOf', { ratio: 0.3 }, { ratio: ['multipleOf'] }],
    [
      'NaN for a float',
      { ratio: Number.NaN },
      { ratio: ['isNumber', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] },
    ],
    ['a string for a bool', { flag: 'yes' }, { flag: ['isBoolean'] }],
    ['a value outside the enum', { letter: 'c' }, { letter: ['isIn'] }],
    ['a date-time without offset', { at: '2026-11-21T09:00:00' }, { at: ['isOffsetDateTime'] }],
    ['a date-time that does not exist', { at: '2026-02-30T09:00:00Z' }, { at: ['isOffsetDateTime'] }],
    ['a date with a time', { day: '2026-02-28T00:00:00Z' }, { day: ['isDateOnly'] }],
    ['a date that does not exist', { day: '2026-02-29' }, { day: ['isDateOnly'] }],
    ['an empty array under minItems', { tags: [] }, { tags: ['arrayMinSize'] }],
    ['an array over maxItems', { tags: ['a', 'b', 'c'] }, { tags: ['arrayMaxSize'] }],
    ['duplicate items with uniqueItems', { tags: ['a', 'a'] }, { tags: ['arrayUnique'] }],
    ['an element too long', { tags: ['abcd'] }, { tags: ['maxLength'] }],
    ['an element of the wrong type', { tags: [1] }, { tags: ['isString', 'maxLength'] }],
    [
      'a string where an array belongs',
      { tags: 'a' },
      { tags: ['isArray', 'arrayMinSize', 'arrayMaxSize', 'arrayUnique'] },
    ],
    ['a nested DTO element with a wrong field', { items: [{ label: 5 }] }, { 'items.0.label': ['isString'] }],
    [
      'a nested DTO element with an unknown field',
      { items: [{ label: 'x', extra: 1 }] },
      { 'items.0.extra': ['whitelistValidation'] },
    ],
    [
      'a string where a nested DTO element belongs',
      { items: ['x'] },
      { items: ['isObject'], 'items.0': ['nestedValidation'] },
    ],
    ['a nested DTO missing a required field', { main: { note: 'n' } }, { 'main.label': ['isDefined', 'isString'] }],
    ['an array where a nested DTO belongs', { main: [{ label: 'x' }] }, { main: ['isObject'] }],
    ['a free-form object given a string', { meta: 'x' }, { meta: ['isObject'] }],
    ['an array of arrays with a bad element', { matrix: [[1, 'x']] }, { matrix: ['matchesSchema'] }],
    [
      'an array of date-times with a bad element',
      { instants: ['2026-11-21T08:00:00Z', 'tomorrow'] },
      { instants: ['isOffsetDateTime'] },
    ],
    ['an unknown property', { extra: true }, { extra: ['whitelistValidation'] }],
    ['a context field of the wrong type', { config: 'x' }, { config: ['isObject'] }],
  ] as const)('rejects %s, on the right property', (_case, patch, expected) => {
    expect(plainValidation(AgreementParams, { ...valid, ...patch })).toStrictEqual(expected);
  });

  it('a nullable required property accepts null but not absence; an optional one accepts both', () => {
    expect(plainValidation(AgreementParams, { ...valid, main: undefined })).toStrictEqual({
      main: ['isDefined', 'isObject'],
    });
    expect(plainValidation(AgreementParams, { ...valid, main: null })).toStrictEqual({});
    expect(
      plainValidation(AgreementParams, { ...valid, flag: undefined, anything: null, main: { label: 'x', note: null } }),
    ).toStrictEqual({});
  });

  it('a required `any` value must be present; anything else goes', () => {
    class AnyParams {
      @ToolParam({ type: 'any' }) value!: unknown;
    }
    buildObjectSchema(AnyParams);
    expect(plainValidation(AnyParams, { value: { deep: [1] } })).toStrictEqual({});
    expect(plainValidation(AnyParams, {})).toStrictEqual({ value: ['isDefined'] });
  });

  it('a property typed Date receives a Date from a valid string, and the string is still checked', () => {
    class WhenParams {
      @DateTime() start!: Date;
      @DateOnly({ required: false }) day?: Date;
    }
    buildObjectSchema(WhenParams);
    const instance = plainToInstance(WhenParams, { start: '2026-11-21T09:00:00+01:00', day: '2026-11-21' });
    expect(instance.start).toBeInstanceOf(Date);
    expect(instance.start.toISOString()).toBe('2026-11-21T08:00:00.000Z');
    expect(instance.day?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(validateSync(instance, OPTIONS)).toStrictEqual([]);
    expect(plainValidation(WhenParams, { start: '2026-11-21T09:00:00' })).toStrictEqual({
      start: ['isOffsetDateTime'],
    });
  });

  it('an inherited optional property made required by a subclass is required for class-validator too', () => {
    class BaseParams {
      @ToolParam({ required: false }) name?: string;
    }
    class StrictParams extends BaseParams {
      @ToolParam() declare name: string;
    }
    buildObjectSchema(BaseParams);
    buildObjectSchema(StrictParams);
    expect(plainValidation(BaseParams, {})).toStrictEqual({});
    expect(plainValidation(StrictParams, {})).toStrictEqual({ name: ['isDefined', 'isString'] });
  });

  it('a DTO without parameters accepts {} with forbidUnknownValues once built (class-validator refuses a class without rules)', () => {
    class EmptyParams {}
    expect(plainValidation(EmptyParams, {})).toStrictEqual({ undefined: ['unknownValue'] });
    expect(buildObjectSchema(EmptyParams)).toStrictEqual({
      kind: 'object',
      name: 'EmptyParams',
      properties: [],
      additionalProperties: false,
      dto: EmptyParams,
    });
    expect(plainValidation(EmptyParams, {})).toStrictEqual({});
    expect(plainValidation(EmptyParams, { extra: 1 })).toStrictEqual({ extra: ['whitelistValidation'] });
  });
});
