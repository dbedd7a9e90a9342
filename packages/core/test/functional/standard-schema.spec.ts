import 'reflect-metadata';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { z } from 'zod';
import {
  ArrayOf,
  DefinitionError,
  FromContext,
  PersonaToolExecutor,
  silentLogger,
  toStandardSchema,
  ToolParam,
  ToolRegistry,
} from '@toolwright/core';

class MeetingParams {
  @ToolParam({ description: 'Meeting title', minLength: 1 }) title!: string;
  @ArrayOf('string', { minItems: 1 }) attendees!: string[];
  @ToolParam({ type: 'int', min: 5, max: 480 }) durationMinutes!: number;
  @FromContext('session_id', { required: true }) sessionId!: string;
}

describe('toStandardSchema(Dto)', () => {
  const schema = toStandardSchema(MeetingParams, { context: { sessionId: 'trusted-1' } });

  it('is a Standard Schema v1 of vendor toolwright', () => {
    expect(schema['~standard'].version).toBe(1);
    expect(schema['~standard'].vendor).toBe('toolwright');
  });

  it("validates with toolwright's repairs and answers with the DTO instance, context from the trusted context only", async () => {
    const result = await schema['~standard'].validate({
      title: 'Standup',
      attendees: '["ana@example.com"]',
      duration_minutes: '30',
      session_id: 'forged-by-the-input',
    });
    expect(result.issues).toBeUndefined();
    if (result.issues !== undefined) return;
    expect(result.value).toBeInstanceOf(MeetingParams);
    // The model's own (repaired) arguments are the value's keys and JSON; the trusted session is there for the handler,
    // but not enumerable, so whatever stores the value as the call's input never sends it back to a model.
    expect(result.value).toEqual(
      Object.assign(new MeetingParams(), {
        title: 'Standup',
        attendees: ['ana@example.com'],
        durationMinutes: 30,
      }),
    );
    expect(result.value.sessionId).toBe('trusted-1');
    expect(Object.keys(result.value)).toEqual(['title', 'attendees', 'durationMinutes']);
    expect(JSON.stringify(result.value)).not.toContain('trusted-1');
    expect(JSON.stringify({ ...result.value })).not.toContain('trusted-1');
    expect(JSON.stringify(structuredClone(result.value))).not.toContain('trusted-1');
    // Text works too (what a model sends), read as the executor reads it.
    const fromText = await schema['~standard'].validate(
      "{'title': 'Retro', 'attendees': ['cy'], 'durationMinutes': 45,}",
    );
    expect(fromText.issues).toBeUndefined();
  });

  it('answers with issues carrying paths and the messages the model would read', async () => {
    const result = await schema['~standard'].validate({ title: '', attendees: [1, {}], durationMinutes: 2 });
    expect(result.issues).toBeDefined();
    const issues = result.issues!.map((issue) => ({ path: issue.path, message: issue.message }));
    expect(issues.map((issue) => issue.path)).toEqual([['title'], ['attendees', 1], ['durationMinutes']]);
    expect(issues[2]!.message).toMatch(/^"durationMinutes" must be an integer >= 5 and <= 480, but received 2/);
  });

  it('never expects a context field: without a context a required one fails with the reason, not as input', async () => {
    const bare = toStandardSchema(MeetingParams);
    const result = await bare['~standard'].validate({
      title: 'x',
      attendees: ['a'],
      durationMinutes: 5,
      sessionId: 's',
    });
    expect(result.issues?.[0]?.message).toMatch(/cannot run in this session/);
  });

  it('exposes the Standard JSON Schema interface (draft 2020-12 and draft 7), without context fields', () => {
    const input = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    expect(Object.keys(input['properties'] as object)).toEqual(['title', 'attendees', 'durationMinutes']);
    expect(schema['~standard'].jsonSchema.input({ target: 'draft-07' })).toEqual(input);
    expect(() => schema['~standard'].jsonSchema.input({ target: 'openapi-3.0' })).toThrow(/draft-2020-12 or draft-07/);
  });

  it('writes draft 7 dependencies for dependentRequired', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: 'ship',
        parameters: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
          dependentRequired: { street: ['city'] },
        },
      },
      (params) => params,
    );
    const shipping = toStandardSchema(registry, 'ship');
    expect(shipping['~standard'].jsonSchema.input({ target: 'draft-07' })).toMatchObject({
      dependencies: { street: ['city'] },
    });
    expect(shipping['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toMatchObject({
      dependentRequired: { street: ['city'] },
    });
  });

  it('toStandardSchema(registry, tool) validates a registered tool; an unknown tool is a DefinitionError', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerCompact({ command_name: 'count', parameters: [{ name: 'n', type: 'int' }] }, (params) => params);
    const count = toStandardSchema(registry, 'count');
    expect(await count['~standard'].validate({ n: '7' })).toEqual({ value: { n: 7 } });
    expect(() => toStandardSchema(registry, 'nope')).toThrow(DefinitionError);
  });
});

describe('registry.registerStandardSchemaTool', () => {
  const seen: unknown[] = [];
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerStandardSchemaTool(
    {
      name: 'zod_order',
      description: 'An order (zod 4)',
      schema: z
        .object({ sku: z.string().min(1), quantity: z.number().int().min(1), express: z.boolean().optional() })
        .refine((order) => order.sku !== 'RECALLED', { message: 'this product was recalled', path: ['sku'] })
        .transform((order) => ({ ...order, total: order.quantity * 2 })),
    },
    (params) => {
      seen.push(params);
      return params;
    },
  );
  registry.registerStandardSchemaTool(
    {
      name: 'valibot_order',
      schema: toStandardJsonSchema(
        v.object({
          sku: v.pipe(v.string(), v.minLength(1)),
          quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
          email: v.pipe(v.string(), v.email()),
        }),
      ),
    },
    (params) => {
      seen.push(params);
      return params;
    },
  );
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

  beforeEach(() => {
    seen.length = 0;
  });

  it('runs a zod 4 schema through the executor: repairs first, then zod, and the handler gets zod’s output', async () => {
    const result = await executor.execute({
      id: 'z1',
      name: 'zod_order',
      arguments: '{"SKU": "A-1", "quantity": "3"}',
    });
    expect(result).toMatchObject({ ok: true, value: { sku: 'A-1', quantity: 3, total: 6 } });
    expect(result.transformations.map((change) => change.rule)).toEqual(
      expect.arrayContaining(['key-case', 'string-to-integer']),
    );
    expect(seen).toEqual([{ sku: 'A-1', quantity: 3, total: 6 }]);
  });

  it('refuses in the pipeline what the JSON Schema says, and with zod’s own check what only zod says', async () => {
    const invalid = await executor.execute({ id: 'z2', name: 'zod_order', arguments: { sku: '', quantity: 0 } });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', retryable: true } });
    if (!invalid.ok) expect(invalid.error.issues.map((issue) => issue.path)).toEqual(['sku', 'quantity']);
    const recalled = await executor.execute({
      id: 'z3',
      name: 'zod_order',
      arguments: { sku: 'RECALLED', quantity: 1 },
    });
    expect(recalled.ok).toBe(false);
    if (recalled.ok) return;
    expect(recalled.error.code).toBe('INVALID_ARGUMENTS');
    expect(recalled.error.issues).toEqual([
      expect.objectContaining({ path: 'sku', message: 'this product was recalled' }),
    ]);
    expect(recalled.error.message).toContain('this product was recalled');
    expect(seen).toEqual([]);
  });

  it('runs a valibot schema (toStandardJsonSchema) through the executor', async () => {
    const ok = await executor.execute({
      id: 'v1',
      name: 'valibot_order',
      arguments: '{"sku": "B-2", "quantity": "2", "email": "ana@example.com"}',
    });
    expect(ok).toMatchObject({ ok: true, value: { sku: 'B-2', quantity: 2, email: 'ana@example.com' } });
    const bad = await executor.execute({
      id: 'v2',
      name: 'valibot_order',
      arguments: { sku: 'B-2', quantity: 2, email: 'not-an-email' },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!bad.ok) expect(bad.error.issues[0]!.path).toBe('email');
  });

  it('refuses a schema that is not a Standard JSON Schema', () => {
    expect(() =>
      registry.registerStandardSchemaTool({ name: 'x', schema: { '~standard': { version: 1 } } as never }, () => 1),
    ).toThrow(/not a Standard Schema that exposes JSON Schema/);
  });
});
