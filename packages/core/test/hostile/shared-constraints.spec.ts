import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import {
  ArrayOf,
  buildObjectSchema,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
} from '@toolwright/core';
import { getValidatorMetadata } from '@toolwright/core/internal';

const PLAIN = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

function flatten(errors: readonly ValidationError[]): string[] {
  return errors.flatMap((error) => [...Object.values(error.constraints ?? {}), ...flatten(error.children ?? [])]);
}

function messages(dto: new () => object, plain: Record<string, unknown>): string[] {
  return flatten(validateSync(plainToInstance(dto, plain), PLAIN));
}

describe("toolwright's class-validator rules share one constraint class per rule kind", () => {
  it('two DTOs with the same rule kinds use the same constraint classes, each rule with its own bounds and message', () => {
    class ShortParams {}
    ToolParam({ type: 'string', minLength: 3 })(ShortParams.prototype, 'name');
    ToolParam({ type: 'array<int>', min: 1, required: false })(ShortParams.prototype, 'counts');
    class LongParams {}
    ToolParam({ type: 'string', minLength: 5 })(LongParams.prototype, 'name');
    ToolParam({ type: 'array<int>', min: 10, required: false })(LongParams.prototype, 'counts');
    buildObjectSchema(ShortParams);
    buildObjectSchema(LongParams);
    const classes = (dto: Function) =>
      getValidatorMetadata(dto)
        .filter((rule) => rule.appliedByToolwright && rule.constraintClass !== undefined)
        .map((rule) => [rule.name, rule.constraintClass]);
    const short = classes(ShortParams);
    expect(short.map(([name]) => name)).toStrictEqual([
      'isDefined',
      'isString',
      'minLength',
      'isArray',
      'isInt',
      'min',
    ]);
    expect(classes(LongParams)).toStrictEqual(short);
    expect(short.every(([, constraintClass], index) => classes(LongParams)[index]?.[1] === constraintClass)).toBe(true);

    expect(messages(ShortParams, { name: 'abcd', counts: [1, 2] })).toStrictEqual([]);
    expect(messages(LongParams, { name: 'abcd', counts: [1, 2] })).toStrictEqual([
      'name must be longer than or equal to 5 characters',
      'each value in counts must not be less than 10',
    ]);
    expect(messages(ShortParams, { name: 'ab', counts: [0] })).toStrictEqual([
      'name must be longer than or equal to 3 characters',
      'each value in counts must not be less than 1',
    ]);
  });

  it('nested DTOs built for many commands validate each with its own rules', () => {
    const dtos = [1, 2, 3].map((minimum) => {
      class Item {}
      ToolParam({ type: 'int', min: minimum })(Item.prototype, 'weight');
      class Params {}
      ArrayOf(() => Item, { minItems: minimum })(Params.prototype, 'items');
      buildObjectSchema(Params);
      return Params;
    });
    expect(dtos.map((dto) => messages(dto, { items: [{ weight: 2 }, { weight: 2 }] }))).toStrictEqual([
      [],
      [],
      ['items must contain at least 3 elements', 'weight must not be less than 3', 'weight must not be less than 3'],
    ]);
  });

  it('releasing the DTO of a removed JSON-Schema tool keeps the shared constraint classes the other tools use', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const parameters = (bound: number) => ({
      type: 'object',
      properties: { query: { type: 'string', minLength: bound }, limit: { type: 'integer', exclusiveMinimum: bound } },
      required: ['query'],
      additionalProperties: false,
    });
    registry.registerJsonSchemaTool(
      { name: 'first', description: 'first', parameters: parameters(2) },
      async () => 'ok',
    );
    registry.registerJsonSchemaTool(
      { name: 'second', description: 'second', parameters: parameters(3) },
      async () => 'ok',
    );
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
    expect(await executor.execute({ id: 'a', name: 'first', arguments: { query: 'abc', limit: 3 } })).toMatchObject({
      ok: true,
    });
    expect(await executor.execute({ id: 'b', name: 'second', arguments: { query: 'abc', limit: 4 } })).toMatchObject({
      ok: true,
    });
    registry.unregister('first');
    const refused = await executor.execute({ id: 'c', name: 'second', arguments: { query: 'ab', limit: 3 } });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        issues: [
          expect.objectContaining({ path: 'query', rule: 'minLength' }),
          expect.objectContaining({ path: 'limit', rule: 'exclusiveMinimum' }),
        ],
      },
    });
  });
});
