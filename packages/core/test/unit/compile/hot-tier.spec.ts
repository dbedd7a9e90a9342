import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { PersonaToolExecutor, ToolRegistry, silentLogger } from '@toolwright/core';
import { canonicalCheck, NOT_ACCEPTED, type CanonicalCheck } from '@toolwright/core/compile/canonical-check';
import { configureHotTier, DEFAULT_HOT_TIER } from '@toolwright/core/compile/hot-tier';
import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { objectSchema, textFor, type JsonSchema } from '../../support/json-schema-texts';
import { registerSchemaTool } from '../../support/fast-path-executors';
import { seededRandom, type SeededRandom } from '../../support/seeded-random';

/** A small window for the tests: a tool taking 1/8 of 64 calls (8) is hot. */
const WINDOW = 64;

function schemaFor(index: number): Record<string, unknown> {
  return {
    type: 'object',
    properties: { [`amount${index}`]: { type: 'integer', minimum: 0 }, [`note${index}`]: { type: 'string' } },
    required: [`amount${index}`],
  };
}

function executorWith(tools: number): PersonaToolExecutor {
  const registry = new ToolRegistry({ logger: silentLogger });
  for (let index = 0; index < tools; index++)
    registry.registerJsonSchemaTool({ name: `tool_${index}`, parameters: schemaFor(index) }, (params) => params);
  return new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
}

function call(executor: PersonaToolExecutor, index: number, value = index) {
  return executor.execute({ id: `c${index}`, name: `tool_${index}`, arguments: `{"amount${index}":${value}}` });
}

function isHot(executor: PersonaToolExecutor, tool: string): boolean {
  return executor.generatedCode(tool)!.includes('hot check (running)');
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  configureHotTier(DEFAULT_HOT_TIER);
});

describe('the hot tier (decision 0031)', () => {
  it('specializes a tool that takes a large share of the calls, after the call that made it hot returned', async () => {
    configureHotTier({ window: WINDOW });
    const executor = executorWith(3);
    const results = [];
    // Synchronous calls (their results not awaited yet): the threshold is crossed inside this loop.
    for (let index = 0; index < WINDOW / 8 + 2; index++) results.push(call(executor, 0));
    expect(isHot(executor, 'tool_0')).toBe(false);
    await Promise.all(results);
    await turn();
    expect(isHot(executor, 'tool_0')).toBe(true);
    expect(isHot(executor, 'tool_1')).toBe(false);
    // The specialized check answers as before: a valid call, and a refused one (the normalizer's refusal).
    expect(await call(executor, 0, 7)).toMatchObject({ ok: true, value: { amount0: 7 } });
    expect(await call(executor, 0, -1)).toMatchObject({ ok: false });
  });

  it('specializes between calls awaited in a loop that never lets the event loop turn', async () => {
    configureHotTier({ window: WINDOW });
    const executor = executorWith(2);
    for (let index = 0; index < WINDOW + WINDOW / 8; index++) await call(executor, 1);
    expect(isHot(executor, 'tool_1')).toBe(true);
  });

  it('specializes nothing in a round-robin over 50 tools', async () => {
    configureHotTier({ window: WINDOW });
    const executor = executorWith(50);
    for (let round = 0; round < 20; round++) {
      for (let index = 0; index < 50; index++) await call(executor, index);
      await turn();
    }
    for (let index = 0; index < 50; index++) expect(isHot(executor, `tool_${index}`)).toBe(false);
  });

  it('specializes at most maxTools checks, and none with mode never', async () => {
    configureHotTier({ window: WINDOW, maxTools: 2 });
    const executor = executorWith(4);
    for (let index = 0; index < 4; index++) {
      for (let repeat = 0; repeat < WINDOW; repeat++) await call(executor, index);
      await turn();
    }
    expect([0, 1, 2, 3].map((index) => isHot(executor, `tool_${index}`))).toEqual([true, true, false, false]);

    configureHotTier({ window: WINDOW, mode: 'never' });
    const other = executorWith(1);
    for (let repeat = 0; repeat < 4 * WINDOW; repeat++) await call(other, 0);
    await turn();
    expect(isHot(other, 'tool_0')).toBe(false);
  });

  it('keeps every check on the walk in a process that compiles no code from strings, and answers every call', () => {
    // A real Node process with code generation from strings disallowed (as a content security policy would).
    const script = `
      require('reflect-metadata');
      const { configureHotTier } = require('./src/compile/hot-tier');
      configureHotTier({ window: 64 });
      const { PersonaToolExecutor, ToolRegistry, silentLogger } = require('./src');
      const registry = new ToolRegistry({ logger: silentLogger });
      registry.registerJsonSchemaTool(
        { name: 't', parameters: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } },
        (params) => params,
      );
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
      (async () => {
        let ok = 0;
        for (let round = 0; round < 4; round++) {
          for (let index = 0; index < 64; index++) ok += (await executor.execute({ id: 'c', name: 't', arguments: '{"a":1}' })).ok ? 1 : 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        console.log(JSON.stringify({ ok, hot: executor.generatedCode('t').includes('hot check (running)') }));
      })();`;
    const output = execFileSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '-r', 'ts-node/register/transpile-only', '-e', script],
      { cwd: path.join(__dirname, '../../..'), encoding: 'utf8' },
    );
    expect(JSON.parse(output)).toEqual({ ok: 256, hot: false });
  }, 120_000);

  it("gives each executor a tier of its own: one executor's hot tools take no place of another's", async () => {
    configureHotTier({ window: WINDOW, maxTools: 1 });
    const first = executorWith(1);
    const second = executorWith(1);
    // Interleaved calls: with one tier for the process, the first tool to get hot would take the only place.
    for (let repeat = 0; repeat < WINDOW; repeat++) {
      await call(first, 0);
      await call(second, 0);
    }
    await turn();
    expect(isHot(first, 'tool_0')).toBe(true);
    expect(isHot(second, 'tool_0')).toBe(true);
  });

  it('keeps the count of keys and strings in each check, walked or hot, across interleaved calls', () => {
    const parameters = registeredParameters({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'string' } } },
    });
    for (const specialize of [false, true]) {
      const first = canonicalCheck(parameters, DEFAULT_LIMITS, 'first');
      const second = canonicalCheck(parameters, DEFAULT_LIMITS, 'second');
      if (specialize) expect(first.specialize() && second.specialize()).toBe(true);
      expect(first.accept({ a: 'x', b: ['y', 'z'] })).not.toBe(NOT_ACCEPTED);
      expect(second.accept({ a: 'x' })).not.toBe(NOT_ACCEPTED);
      // Two keys and three strings; one key and one string.
      expect([first.keysAndStrings, second.keysAndStrings]).toEqual([5, 2]);
    }
  });

  it('keeps a check whose source is beyond the budget on the shared walk', () => {
    configureHotTier({ maxSourceLength: 100 });
    const check = canonicalCheck(registeredParameters(schemaFor(0)), DEFAULT_LIMITS, 'big');
    expect(check.specialize()).toBe(false);
    expect(check.specialized).toBe(false);
  });
});

const SEED = 31_2026;
const SCHEMAS = 400;
const VALUES_PER_SCHEMA = 25;
const SMALL_LIMITS: PipelineLimits = { ...DEFAULT_LIMITS, maxDepth: 3, maxArrayItems: 4 };

function registeredParameters(schema: JsonSchema) {
  return registerSchemaTool(schema)!.getEntry('fused_tool')!.definition.parameters;
}

/** A value for a tool: one of its own (mostly accepted), one damaged by an edit, or another tool's (mostly refused). */
function valueFor(random: SeededRandom, schema: JsonSchema, other: JsonSchema): unknown {
  const source = random.chance(0.2) ? other : schema;
  let text = textFor(random, source);
  if (random.chance(0.25)) {
    const at = random.below(text.length);
    text = text.slice(0, at) + random.pick(['1', '"', 'null', '-', '0.5', ' ']) + text.slice(at + 1);
  }
  try {
    return JSON.parse(text);
  } catch {
    return random.pick([null, [], 'text', 1, true, {}]);
  }
}

/** The check's three answers on a value: accepted or not, the bound, and the count of keys and strings. */
function answers(check: CanonicalCheck, value: unknown): string {
  const bound = check.accept(value);
  return bound === NOT_ACCEPTED ? 'refused' : `bound ${bound} count ${check.keysAndStrings}`;
}

describe('a hot check against the shared walk of the same records', () => {
  it(`answers the same (acceptance, bound, count) on ${SCHEMAS * VALUES_PER_SCHEMA} seeded values (seed ${SEED})`, () => {
    configureHotTier({ mode: 'never' });
    const random = seededRandom(SEED);
    const mismatches: string[] = [];
    const tally = { values: 0, accepted: 0, refused: 0 };
    let previous: JsonSchema = objectSchema(random, 1);
    for (let index = 0; index < SCHEMAS; index++) {
      const schema = objectSchema(random, 1);
      const registry = registerSchemaTool(schema);
      if (registry === undefined) continue;
      const parameters = registry.getEntry('fused_tool')!.definition.parameters;
      const limits = random.chance(0.2) ? SMALL_LIMITS : DEFAULT_LIMITS;
      const walked = canonicalCheck(parameters, limits, `tool_${index}`);
      const hot = canonicalCheck(parameters, limits, `tool_${index}`);
      expect(hot.specialize()).toBe(true);
      expect(walked.specialized).toBe(false);
      for (let count = 0; count < VALUES_PER_SCHEMA; count++) {
        const value = valueFor(random, schema, previous);
        const expected = answers(walked, value);
        const actual = answers(hot, value);
        tally.values++;
        if (expected === 'refused') tally.refused++;
        else tally.accepted++;
        if (actual !== expected && mismatches.length < 5)
          mismatches.push(`${JSON.stringify(value)}: hot ${actual}, walk ${expected}\n${hot.source().source}`);
      }
      previous = schema;
    }
    expect(mismatches).toEqual([]);
    // Both answers are exercised, each many times.
    expect(tally.accepted).toBeGreaterThan(tally.values / 10);
    expect(tally.refused).toBeGreaterThan(tally.values / 10);
  });
});
