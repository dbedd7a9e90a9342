import 'reflect-metadata';
import {
  PersonaToolExecutor,
  ToolRegistry,
  silentLogger,
  type CoercionPolicy,
  type ToolResult,
} from '@toolwright/core';
import {
  generateBoundedAcceptFunction,
  NOT_ACCEPTED,
  type BoundedAcceptFunction,
} from '@toolwright/core/compile/accept-generator';
import { inspectParsedValue } from '@toolwright/core/pipeline/information-loss';
import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { parseArguments, parseCheckedArguments } from '@toolwright/core/pipeline/parse-arguments';
import { callTargetFor, type CallTarget } from '@toolwright/core/pipeline/unwrap-call';
import type { ObjectSchema } from '@toolwright/core/types/schema';
import { seededRandom, type SeededRandom } from '../support/seeded-random';
import { showValue } from '../support/show-value';
import { TextRecordingLogger } from '../support/recording-logger';

/**
 * Issue 12, the fused-parse-check decision's differential test: the parse step with the canonical check folded into it
 * (`parseCheckedArguments`: the generated check measures the length bound decision 0019's walk measured, and a compact
 * accepted text is decided by it without that walk) against the two steps as they were (`parseArguments`, then the
 * check on its result when the value is the pipeline's own). Over random JSON Schema tools (nested objects and arrays,
 * nullable values, bounds, enums, date-times, numbers without bounds, hostile and envelope-like property names) and
 * random texts for them (compact and spaced, duplicate keys at every depth with equal and other values, integers beyond
 * 2^53, escapes in keys and strings, wrapped calls, prototype keys, double encoding, fences, broken JSON), under each
 * policy and two sets of limits: the same value, transformations, `owned` and answer of the check, or the same error.
 * Wherever the check accepts JSON.parse's value its bound is exactly the walk's. A subset also runs through executors
 * with and without the canonical check (results and log records byte for byte).
 */

const SEED = 0x2020_1226;
const SCHEMAS = 1_100;
const TEXTS_PER_SCHEMA = 30;
const EXECUTOR_TEXTS_PER_SCHEMA = 4;
const TOOL = 'fused_tool';
const SMALL_LIMITS: PipelineLimits = { ...DEFAULT_LIMITS, maxDepth: 3, maxArrayItems: 4 };
const POLICIES: readonly CoercionPolicy[] = ['strict', 'safe', 'lenient'];

type Random = SeededRandom;
type JsonSchema = Record<string, unknown>;

const NAMES = [
  'a',
  'id',
  'when',
  'title',
  'count',
  'ratio',
  'tags',
  '',
  'items',
  'x'.repeat(40),
  'ké',
  'emoji 😀',
  'say "hi"',
  'back\\slash',
  'new\nline',
  'tab\tkey',
  'name',
  'arguments',
  'parameters',
  'function',
  'type',
  '__proto__',
  'constructor',
  'prototype',
];
const STRINGS = [
  '',
  'x',
  'hello',
  'Quarterly planning',
  'a"b',
  'back\\slash',
  'new\nline',
  'é',
  '😀',
  '2026-01-31T09:00:00+01:00',
  '2026-02-30',
  '2026-01-31',
];
const INTEGERS = [0, 7, 9, 10, 45, 99, 100, -1, -9, -10, -99, -100, 123456, 9007199254740991, -9007199254740991];
const FLOATS = [0.5, 1.25, -7.5, 3, 1e20, -1e20, 1e300, 9007199254740992, 0.1];
/** Integer literals JSON.parse rounds (or does not), written as the model would. */
const BIG_LITERALS = [
  '9007199254740993',
  '-9007199254740993',
  '12345678901234567890',
  '9007199254740992',
  '1e16',
  '123456789012345678901234567890',
];

function scalarSchema(random: Random): JsonSchema {
  switch (random.below(9)) {
    case 0:
      return { type: 'string' };
    case 1:
      return { type: 'string', maxLength: 1 + random.below(12), ...(random.chance(0.3) ? { minLength: 1 } : {}) };
    case 2:
      return { type: 'string', enum: ['low', 'high', 'a"b', 'x'].slice(0, 1 + random.below(4)) };
    case 3:
      return random.chance(0.5)
        ? { type: 'integer' }
        : { type: 'integer', minimum: -100 + random.below(100), maximum: random.below(200) };
    case 4:
      return random.chance(0.6) ? { type: 'number' } : { type: 'number', minimum: -10, maximum: 1000 };
    case 5:
      return { type: 'boolean' };
    case 6:
      return { type: 'string', format: 'date-time' };
    case 7:
      return { type: 'string', format: 'date' };
    default:
      return { type: 'integer', enum: [1, 2, 3, 10] };
  }
}

function schemaFor(random: Random, depth: number): JsonSchema {
  const roll = random.below(depth >= 3 ? 6 : 10);
  let schema: JsonSchema;
  if (roll < 6) schema = scalarSchema(random);
  else if (roll < 8)
    schema = {
      type: 'array',
      items: schemaFor(random, depth + 1),
      ...(random.chance(0.3) ? { maxItems: 2 + random.below(4) } : {}),
    };
  else schema = objectSchema(random, depth + 1);
  if (random.chance(0.15) && typeof schema['type'] === 'string') schema = { ...schema, type: [schema['type'], 'null'] };
  return schema;
}

function objectSchema(random: Random, depth: number): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const count = 1 + random.below(depth === 1 ? 7 : 4);
  for (let index = 0; index < count; index++) {
    const name = random.chance(0.6) ? random.pick(NAMES.slice(0, 8)) : random.pick(NAMES);
    if (Object.prototype.hasOwnProperty.call(properties, name)) continue;
    Object.defineProperty(properties, name, {
      value: schemaFor(random, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (random.chance(0.5)) required.push(name);
  }
  return {
    type: 'object',
    properties,
    required,
    ...(random.chance(0.2) ? { additionalProperties: random.chance(0.5) } : {}),
  };
}

/** A value for a schema, usually valid. */
function valueFor(random: Random, schema: JsonSchema, depth: number): unknown {
  let type = schema['type'];
  if (Array.isArray(type)) {
    if (random.chance(0.25)) return null;
    type = type[0];
  }
  if (random.chance(0.03)) return random.pick<unknown>(['x', 1, null, true, [], {}]);
  if (Array.isArray(schema['enum'])) return random.pick(schema['enum'] as unknown[]);
  switch (type) {
    case 'string':
      if (schema['format'] === 'date-time')
        return random.pick(['2026-01-31T09:00:00+01:00', '2026-11-26T16:05:00Z', '2026-01-31 09:00']);
      if (schema['format'] === 'date') return random.pick(['2026-01-31', '2026-02-29', '2024-02-29']);
      return random.pick(STRINGS);
    case 'integer':
      return random.pick(INTEGERS);
    case 'number':
      return random.chance(0.5) ? random.pick(FLOATS) : random.pick(INTEGERS);
    case 'boolean':
      return random.chance(0.5);
    case 'array': {
      const items: unknown[] = [];
      const count = random.chance(0.1) ? 5 : random.below(4);
      for (let index = 0; index < count; index++)
        items.push(valueFor(random, schema['items'] as JsonSchema, depth + 1));
      return items;
    }
    default: {
      const properties = schema['properties'] as Record<string, JsonSchema>;
      const required = schema['required'] as string[];
      const value: Record<string, unknown> = {};
      for (const name of Object.keys(properties)) {
        if (!required.includes(name) && random.chance(0.35)) continue;
        Object.defineProperty(value, name, {
          value: valueFor(random, properties[name]!, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (random.chance(0.03)) value[random.pick(['extra', '__proto__', 'constructor', 'Title'])] = 1;
      return value;
    }
  }
}

/** How one text is written. */
interface Style {
  readonly spaced: boolean;
  /** Chance of a member written twice (the first copy JSON.parse drops). */
  readonly duplicates: number;
  readonly bigIntegers: number;
  readonly escapes: number;
  /** Chance of an object written with a first member JSON.parse drops that is as short as can be (`"":0,`). */
  readonly tight: number;
}

/** A string literal, sometimes with a character written as a \u escape or `/` as `\/`. */
function stringText(random: Random, text: string, style: Style): string {
  const literal = JSON.stringify(text);
  if (text.length === 0 || !random.chance(style.escapes)) return literal;
  // `\/` is `/`: the value gains a slash, the text a backslash.
  if (random.chance(0.2)) return `"\\/${literal.slice(1)}`;
  const at = random.below(text.length);
  const code = text.charCodeAt(at);
  return (
    JSON.stringify(text.slice(0, at)).slice(0, -1) +
    `\\u${code.toString(16).padStart(4, '0')}` +
    JSON.stringify(text.slice(at + 1)).slice(1)
  );
}

function write(random: Random, value: unknown, style: Style): string {
  const gap = () => (style.spaced && random.chance(0.7) ? random.pick([' ', '\n  ', '\t']) : '');
  if (typeof value === 'string') return stringText(random, value, style);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && random.chance(style.bigIntegers)) return random.pick(BIG_LITERALS);
    return JSON.stringify(value);
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => `${gap()}${write(random, item, style)}`).join(',')}${gap()}]`;
  const members: string[] = [];
  const keys = Object.keys(value);
  if (keys.length > 0 && random.chance(style.tight)) {
    // The dropped copy of the shortest key, with the shortest value: the text is only `"":0,` (5 characters) longer
    // than the value's bound when that key is `""`, so a bound one too high takes it for lossless.
    const shortest = keys.reduce((best, key) => (key.length < best.length ? key : best));
    members.push(`${JSON.stringify(shortest)}:0`);
  }
  for (const key of keys) {
    const inner = (value as Record<string, unknown>)[key];
    const member = () => `${gap()}${stringText(random, key, style)}${gap()}:${gap()}${write(random, inner, style)}`;
    if (random.chance(style.duplicates)) {
      // The copy JSON.parse drops: the same value, or a short or long other one.
      const dropped = random.pick<unknown>([
        inner,
        0,
        1,
        '',
        'other value',
        [1, 2],
        { a: 1 },
        null,
        12345678901234567890,
      ]);
      members.push(
        random.chance(0.5) ? `${stringText(random, key, style)}:${write(random, dropped, style)}` : member(),
      );
    }
    members.push(member());
  }
  return `{${members.join(',')}${gap()}}`;
}

function textFor(random: Random, schema: JsonSchema): string {
  const value = valueFor(random, schema, 1);
  const roll = random.below(10);
  const style: Style = {
    spaced: roll >= 7,
    duplicates: random.chance(0.3) ? 0.15 : 0,
    bigIntegers: random.chance(0.15) ? 0.3 : 0,
    escapes: random.chance(0.15) ? 0.2 : 0,
    tight: roll < 7 && random.chance(0.3) ? 0.5 : 0,
  };
  let text = write(random, value, style);
  switch (random.below(25)) {
    case 0:
      text = `{"name":${JSON.stringify(random.chance(0.7) ? TOOL : 'other_tool')},"arguments":${text}}`;
      break;
    case 1:
      text = `{"name":"${TOOL}","arguments":${JSON.stringify(text)}}`;
      break;
    case 2:
      text = `{"id":"call_1","type":"function","function":{"name":"${TOOL}","arguments":${JSON.stringify(text)}}}`;
      break;
    case 3:
      text = JSON.stringify(text);
      break;
    case 4:
      text = `\`\`\`json\n${text}\n\`\`\``;
      break;
    case 5:
      text = ` ${text}\n`;
      break;
    case 6:
      text = `[${text}]`;
      break;
    case 7: {
      const at = random.below(text.length + 1);
      text = text.slice(0, at) + text.slice(at + 1);
      break;
    }
    case 8:
      text = text.replace(/}$/, ',"__proto__":{"polluted":1}}');
      break;
    default:
  }
  return text;
}

function failure(error: unknown): string {
  const thrown = error as Error & { issues?: unknown };
  return `error ${thrown.constructor.name} ${thrown.message} ${showValue(thrown.issues)}`;
}

/** The fused step's outcome, and whether it decided without the old steps (its frozen empty transformations). */
function fused(run: () => ReturnType<typeof parseCheckedArguments>): { outcome: string; direct: boolean } {
  try {
    const parsed = run();
    return {
      outcome: `ok ${showValue(parsed.value)} owned=${parsed.owned} accepted=${parsed.accepted} ${showValue(parsed.transformations)}`,
      direct: Object.isFrozen(parsed.transformations),
    };
  } catch (error) {
    return { outcome: failure(error), direct: false };
  }
}

/** The two steps as they were: the parse step, then the canonical check on a value it owns. */
function twoSteps(run: () => ReturnType<typeof parseArguments>, accept: BoundedAcceptFunction): string {
  try {
    const parsed = run();
    const accepted = parsed.owned && accept(parsed.value, new Float64Array(1)) !== NOT_ACCEPTED;
    return `ok ${showValue(parsed.value)} owned=${parsed.owned} accepted=${accepted} ${showValue(parsed.transformations)}`;
  } catch (error) {
    return failure(error);
  }
}

function resultText(result: ToolResult): string {
  const { durationMs: _durationMs, ...rest } = result;
  return showValue(rest);
}

interface Tool {
  readonly parameters: ObjectSchema;
  readonly target: CallTarget;
  readonly accept: Map<PipelineLimits, BoundedAcceptFunction>;
}

function registered(schema: JsonSchema): Tool | undefined {
  const registry = new ToolRegistry({ logger: silentLogger });
  try {
    registry.registerJsonSchemaTool({ name: TOOL, parameters: schema }, (params) => params);
  } catch {
    return undefined;
  }
  const definition = registry.getEntry(TOOL)!.definition;
  return {
    parameters: definition.parameters,
    target: callTargetFor(definition, (name) => name === TOOL),
    accept: new Map(
      [DEFAULT_LIMITS, SMALL_LIMITS].map((limits) => [
        limits,
        generateBoundedAcceptFunction(definition.parameters, limits),
      ]),
    ),
  };
}

describe('the parse step with the canonical check folded in (decision 0020, fused-parse-check)', () => {
  it(`answers as the two steps did on ${TEXTS_PER_SCHEMA} texts for each of ${SCHEMAS.toLocaleString('en-US')} random tools (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const mismatches: string[] = [];
    const counts = {
      texts: 0,
      direct: 0,
      acceptedAfterSteps: 0,
      bounds: 0,
      unsafe: 0,
      droppedDuplicate: 0,
      droppedAtBound: 0,
      directByQuotes: 0,
      directWithBackslash: 0,
    };
    let tools = 0;
    for (let index = 0; index < SCHEMAS; index++) {
      const schema = objectSchema(random, 1);
      const tool = registered(schema);
      if (tool === undefined) continue;
      tools++;
      for (let call = 0; call < TEXTS_PER_SCHEMA; call++) {
        const text = textFor(random, schema);
        const limits = random.chance(0.2) ? SMALL_LIMITS : DEFAULT_LIMITS;
        const policy = random.pick(POLICIES);
        const accept = tool.accept.get(limits)!;
        const actual = fused(() => parseCheckedArguments(text, policy, limits, tool.target, accept));
        const expected = twoSteps(() => parseArguments(text, policy, limits, tool.target), accept);
        counts.texts++;
        if (actual.direct) counts.direct++;
        else if (actual.outcome.includes('accepted=true')) counts.acceptedAfterSteps++;
        if (actual.outcome !== expected && mismatches.length < 5)
          mismatches.push(`${JSON.stringify(text)} (${policy}):\n  ${actual.outcome}\n  ${expected}`);
        // Wherever the check accepts JSON.parse's value, its bound is the walk's (NaN beyond 2^53).
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          continue;
        }
        const accepted = new Float64Array([-1]);
        const bound = accept(parsed, accepted);
        if (bound === NOT_ACCEPTED) continue;
        const facts = inspectParsedValue(parsed, limits);
        const walk = facts.unsafeNumber ? Number.NaN : facts.minTextLength;
        counts.bounds++;
        if (facts.unsafeNumber) counts.unsafe++;
        if (facts.keys * 2 + facts.strings * 2 < countQuotes(text) && text.indexOf('\\') === -1)
          counts.droppedDuplicate++;
        if (text.length === walk + 5) counts.droppedAtBound++;
        if (actual.direct && !(text.length < walk + 5)) counts.directByQuotes++;
        if (actual.direct && text.includes('\\')) counts.directWithBackslash++;
        if (!Object.is(bound, walk) && mismatches.length < 5)
          mismatches.push(`bound of ${JSON.stringify(text)}: ${bound}, the walk's ${walk}`);
        if (accepted[0] !== facts.keys + facts.strings && mismatches.length < 5)
          mismatches.push(
            `keys and strings of ${JSON.stringify(text)}: ${accepted[0]}, the walk's ${facts.keys + facts.strings}`,
          );
      }
    }
    expect(mismatches).toEqual([]);
    // The generator reaches each case the fused step decides differently from the old steps' order.
    expect(tools).toBeGreaterThan(SCHEMAS * 0.7);
    expect(counts.texts).toBeGreaterThanOrEqual(20_000);
    expect(counts.direct).toBeGreaterThan(3_000);
    expect(counts.acceptedAfterSteps).toBeGreaterThan(300);
    expect(counts.unsafe).toBeGreaterThan(50);
    expect(counts.droppedDuplicate).toBeGreaterThan(200);
    expect(counts.droppedAtBound).toBeGreaterThan(100);
    expect(counts.directByQuotes).toBeGreaterThan(500);
    expect(counts.directWithBackslash).toBeGreaterThan(100);
  });

  it('gives the same results and log records through the executor as the executor without the check', async () => {
    const random = seededRandom(SEED + 1);
    const mismatches: string[] = [];
    let calls = 0;
    for (let index = 0; index < SCHEMAS / 4; index++) {
      const schema = objectSchema(random, 1);
      const logs = [new TextRecordingLogger(showValue), new TextRecordingLogger(showValue)] as const;
      const registries = logs.map(() => {
        const registry = new ToolRegistry({ logger: silentLogger });
        try {
          registry.registerJsonSchemaTool({ name: TOOL, parameters: schema }, (params) => params);
        } catch {
          return undefined;
        }
        return registry;
      });
      if (registries[0] === undefined || registries[1] === undefined) continue;
      const policy = random.pick(POLICIES);
      const fast = new PersonaToolExecutor(registries[0], { logger: logs[0], coercion: policy });
      const reference = new PersonaToolExecutor(registries[1], {
        logger: logs[1],
        coercion: policy,
        canonicalFastPath: false,
      });
      for (let call = 0; call < EXECUTOR_TEXTS_PER_SCHEMA * 4; call++) {
        const text = textFor(random, schema);
        const actual = resultText(await fast.execute({ id: 'c', name: TOOL, arguments: text }));
        const expected = resultText(await reference.execute({ id: 'c', name: TOOL, arguments: text }));
        calls++;
        if (actual !== expected && mismatches.length < 5)
          mismatches.push(`${JSON.stringify(text)}:\n  ${actual}\n  ${expected}`);
      }
      if (logs[0].records.join('\n') !== logs[1].records.join('\n') && mismatches.length < 5)
        mismatches.push(`log records differ for ${JSON.stringify(schema)}`);
    }
    expect(mismatches).toEqual([]);
    expect(calls).toBeGreaterThan(2_000);
  });
});

function countQuotes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count++;
  return count;
}
