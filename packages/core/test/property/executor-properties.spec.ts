import 'reflect-metadata';
import fc from 'fast-check';
import {
  Command,
  FromContext,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ToolResult,
} from '@toolwright/core';
import { objectSchema, plausibleValueFor, type JsonSchema } from './arbitraries';

/**
 * Issue 3's property tests (fast-check, fixed seeds, >= 1,000 runs each; TOOLWRIGHT_PROPERTY_RUNS raises them).
 */
const RUNS = Math.max(1000, Number(process.env['TOOLWRIGHT_PROPERTY_RUNS'] ?? 1000));
const TYPED_CODES = new Set([
  'UNKNOWN_TOOL',
  'MALFORMED_ARGUMENTS',
  'INVALID_ARGUMENTS',
  'PERMISSION_DENIED',
  'TIMEOUT',
  'CANCELLED',
  'HANDLER_ERROR',
  'SERVICE_UNAVAILABLE',
]);

function pythonRepr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string')
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as object)
    .map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`)
    .join(', ')}}`;
}

function typeOf(schema: JsonSchema | undefined): string | undefined {
  const type = schema?.['type'];
  return Array.isArray(type)
    ? (type as string[]).find((candidate) => candidate !== 'null')
    : (type as string | undefined);
}

/** Numbers and booleans as strings, arrays as JSON text, at any depth (as models send them). */
function stringly(value: unknown, schema: JsonSchema | undefined): unknown {
  const type = typeOf(schema);
  if ((type === 'integer' || type === 'number') && typeof value === 'number') return String(value);
  if (type === 'boolean' && typeof value === 'boolean') return value ? 'true' : 'False';
  if (type === 'array' && Array.isArray(value))
    return JSON.stringify(value.map((item) => stringly(item, schema?.['items'] as JsonSchema)));
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const properties = (schema?.['properties'] ?? {}) as Record<string, JsonSchema>;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stringly(item, properties[key])]));
  }
  return value;
}

const LOSSLESS: ReadonlyArray<[string, (value: Record<string, unknown>, schema: JsonSchema) => unknown]> = [
  ['object', (value) => value],
  ['double-encoded', (value) => JSON.stringify(JSON.stringify(value))],
  ['fenced-block', (value) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``],
  ['python-literals', (value) => pythonRepr(value)],
  ['trailing-comma', (value) => JSON.stringify(value).replace(/}$/, ',}')],
  ['repeated-object', (value) => JSON.stringify(value).repeat(2)],
  ['stringly-typed', (value, schema) => JSON.stringify(stringly(value, schema))],
  [
    'upper-case-keys',
    (value) =>
      JSON.stringify(Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toUpperCase(), item]))),
  ],
];

describe('executor properties', () => {
  it('valid arguments survive every lossless malformation unchanged', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        objectSchema(2).chain((schema) => fc.tuple(fc.constant(schema), plausibleValueFor(schema))),
        async ([schema, candidate]) => {
          fc.pre(typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate));
          const registry = new ToolRegistry({ logger: silentLogger });
          registry.registerJsonSchemaTool({ name: 'tool', parameters: schema }, async (params) => params);
          const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
          const baseline = await executor.execute({ id: 'b', name: 'tool', arguments: JSON.stringify(candidate) });
          fc.pre(baseline.ok);
          // The baseline's value is what the executor made of the arguments; sent again as JSON it must come back unchanged.
          const valid = baseline.value as Record<string, unknown>;
          const again = await executor.execute({ id: 'a', name: 'tool', arguments: JSON.stringify(valid) });
          expect(again).toMatchObject({ ok: true, value: valid });
          for (const [name, malform] of LOSSLESS) {
            const result = await executor.execute({
              id: name,
              name: 'tool',
              arguments: malform(valid, schema) as string,
            });
            expect({ name, ok: result.ok, value: result.ok ? result.value : result.error.message }).toEqual({
              name,
              ok: true,
              value: valid,
            });
          }
          checked++;
        },
      ),
      { seed: 4242, numRuns: RUNS, endOnFailure: true },
    );
    expect(checked).toBe(RUNS);
  }, 60_000);

  describe('hostile payloads', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: 'tool',
        parameters: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            meta: { type: 'object' },
            list: { type: 'array', items: { type: 'object', properties: { toString: { type: 'string' } } } },
            free: {},
          },
        },
      },
      async (params) => params,
    );
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
    const snapshot = () => prototypes.map((proto) => Object.getOwnPropertyNames(proto).sort().join(','));
    const before = snapshot();
    const hostileKey = fc.oneof(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        'valueOf',
        'hasOwnProperty',
        'title',
        'meta',
        'list',
        'free',
        '__defineGetter__',
        'isPrototypeOf',
      ),
      fc.string({ maxLength: 6 }),
    );
    const hostileValue = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
      ),
    })).value;

    function expectTyped(result: ToolResult): void {
      expect(result.ok || TYPED_CODES.has(result.error.code)).toBe(true);
      if (!result.ok) expect(result.error.message).not.toMatch(/at .*\.(ts|js):\d+|TypeError|RangeError/);
    }

    it('produce only typed errors and never pollute a prototype', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(hostileKey, hostileValue, { maxKeys: 6 }),
          fc.boolean(),
          async (payload, asText) => {
            // As JSON text, `__proto__` arrives as an own key, the way a model's payload does.
            const text = JSON.stringify(payload);
            const result = await executor.execute({
              id: 'h',
              name: 'tool',
              arguments: asText ? text : JSON.parse(text),
            });
            expectTyped(result);
            expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
            expect(snapshot()).toEqual(before);
            if (result.ok) {
              const value = result.value as Record<string, unknown>;
              expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
              expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(false);
            }
          },
        ),
        { seed: 1337, numRuns: RUNS },
      );
    }, 60_000);

    it.each([100, 1_000, 10_000, 100_000])(
      'nested %i levels deep: a typed error, never a RangeError',
      async (depth) => {
        const arrays = `{"meta": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
        const objects = `{"meta": ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
        const unclosed = `{"free": ${'{"__proto__":'.repeat(depth)}`;
        for (const text of [arrays, objects, unclosed]) {
          const result = await executor.execute({ id: 'd', name: 'tool', arguments: text });
          expect(result.ok).toBe(false);
          expectTyped(result);
        }
        let nested: Record<string, unknown> = {};
        const root = { meta: nested };
        for (let level = 0; level < depth; level++) nested = nested['__proto__x'] = {};
        const direct = await executor.execute({ id: 'o', name: 'tool', arguments: root });
        expect(direct.ok).toBe(false);
        expectTyped(direct);
        expect(snapshot()).toEqual(before);
      },
      60_000,
    );
  });

  describe('trusted context', () => {
    const seen: Array<{ sessionId?: unknown; jobId?: unknown }> = [];
    class Params {
      @ToolParam({ required: false }) title?: string;
      @FromContext('session_id') sessionId?: string;
      @FromContext('job_id') jobId?: string;
    }
    @Command({ name: 'ctx', description: 'Context', params: Params })
    class ContextCommand {
      execute(params: Params) {
        seen.push({ sessionId: params.sessionId, jobId: params.jobId });
        return 'done';
      }
    }
    const executor = new PersonaToolExecutor(ToolRegistry.from([ContextCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const contextKey = fc.constantFrom(
      'session_id',
      'sessionId',
      'SessionId',
      'SESSION-ID',
      'session.id',
      'job_id',
      'jobId',
      'JOB_ID',
      'flow_step_id',
      'persona',
      'handler_config',
      'source_url',
    );
    const modelValue = fc.oneof(
      fc.string({ maxLength: 8 }).map((text) => `model-${text}`),
      fc.integer(),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })),
    );

    it('no generated payload ever puts a model value into a context field', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.oneof(contextKey, fc.constantFrom('title', 'nested')),
            fc.oneof(modelValue, fc.dictionary(contextKey, modelValue, { maxKeys: 3 })),
            { maxKeys: 5 },
          ),
          fc.option(
            fc.string({ maxLength: 6 }).map((text) => `trusted-${text}`),
            { nil: undefined },
          ),
          fc.boolean(),
          async (payload, trustedSession, asText) => {
            seen.length = 0;
            const result = await executor.execute(
              { id: 'c', name: 'ctx', arguments: asText ? JSON.stringify(payload) : payload },
              trustedSession === undefined ? {} : { sessionId: trustedSession, jobId: 'trusted-job' },
            );
            if (result.ok) {
              expect(seen).toHaveLength(1);
              expect(seen[0]!.sessionId).toBe(trustedSession);
              expect(seen[0]!.jobId).toBe(trustedSession === undefined ? undefined : 'trusted-job');
            } else {
              expect(seen).toHaveLength(0);
            }
          },
        ),
        { seed: 7, numRuns: RUNS },
      );
    }, 60_000);
  });
});
