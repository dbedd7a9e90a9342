import 'reflect-metadata';
import fc from 'fast-check';
import { objectSchemaWith, scalarSchemaWith, usuallyValidValueFor, type JsonSchema } from './arbitraries';
import {
  Command,
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ExecutionContext,
  type ToolCall,
  type ToolResult,
} from '@toolwright/core';
import { generateAcceptFunction } from '@toolwright/core/compile/accept-generator';
import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { compileNormalizer, NormalizeState } from '@toolwright/core/pipeline/normalizer';
import { findContextImpostors } from '@toolwright/core/pipeline/context-impostors';
import { TextRecordingLogger } from '../support/recording-logger';

/**
 * Issue 12's differential test: the generated "already valid and canonical?" check lets the executor skip sanitizing,
 * normalizing and the impostor scan. For random JSON Schema tools and random calls (valid ones, and each malformation
 * rule of docs/normalization.md applied to them), the executor with the fast path and the executor without it
 * (`canonicalFastPath: false`: every call through the normalizer) return byte-identical results (value, error,
 * issues, transformations) and log the same records; and wherever the check says yes, the normalizer returns the
 * arguments unchanged with nothing recorded.
 */

const SEED = 1_212_2026;
const SCHEMAS = 1_100;
const CALLS_PER_SCHEMA = 19;
/** Small limits, so the depth and array-size refusals are reached by ordinary random values. */
const LIMITS: Partial<PipelineLimits> = { maxDepth: 4, maxArrayItems: 6 };

/** Random tools, with hostile and look-alike property names among the ordinary ones. */
const TOOL_SCHEMA = objectSchemaWith(2, {
  names: [
    'title',
    'count',
    'ratio',
    'enabled',
    'tags',
    'when',
    'day',
    'address',
    'items',
    'userName',
    'level',
    'session_id',
    'ѕession_id',
    'naïve',
  ],
  scalar: scalarSchemaWith({ enumMembers: ['low', 'High', 'MEDIUM', 'x', 'a b'], extended: true }),
  scalarWeight: 5,
  maxProperties: 5,
  maxItemsUpTo: 8,
  nullableObjects: true,
  additionalProperties: [undefined, undefined, false, true, { type: 'integer' }],
});

/** A value for a schema that is usually valid. */
const callValue = (schema: JsonSchema) => usuallyValidValueFor(schema);

type Json = unknown;

/** The malformations of docs/normalization.md a model makes to one value (keys, values, containers, hostile keys). */
const MUTATIONS: ReadonlyArray<(value: Json) => Json> = [
  // Keys: case and separators, an unknown key, a near miss, a context field, a look-alike, a prototype key, a key given twice.
  (value) => renameKeys(value, (key) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)),
  (value) => renameKeys(value, (key) => key.toUpperCase()),
  (value) => addKey(value, 'unknownKey', 1),
  (value) => addKey(value, 'titel', 'x'),
  (value) => addKey(value, 'session_id', 'forged'),
  (value) => addKey(value, 'ｓｅｓｓｉｏｎ＿ｉｄ', 'forged'),
  (value) => addKey(value, '__proto__', { polluted: true }),
  (value) => addKey(value, 'constructor', 'x'),
  (value) => deepAddKey(value, 'job_id', 'nested'),
  // Values: scalars as strings, numbers as strings with spaces, booleans as words, null for absent, enums in another case.
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'number' ? String(leaf) : leaf)),
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'number' ? ` ${leaf} ` : leaf)),
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'boolean' ? (leaf ? 'yes' : 'FALSE') : leaf)),
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'string' ? leaf.toUpperCase() : leaf)),
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'string' ? ` ${leaf}` : leaf)),
  (value) =>
    mapLeaves(value, (leaf) =>
      typeof leaf === 'string' && /T\d\d:/.test(leaf) ? leaf.replace('T', ' ').replace('+01:00', '+0100') : leaf,
    ),
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'number' ? leaf + 0.5 : leaf)),
  (value) => mapLeaves(value, (leaf) => (typeof leaf === 'string' ? 12 : leaf)),
  (value) => mapTop(value, () => null),
  (value) => mapTop(value, (entry) => (entry === null ? undefined : entry)),
  // Containers: an array sent as JSON text, one item for an array, an object as JSON text, too many items, too deep.
  (value) => mapTop(value, (entry) => (Array.isArray(entry) ? JSON.stringify(entry) : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) && entry.length > 0 ? entry[0] : entry)),
  (value) => mapTop(value, (entry) => (isRecord(entry) ? JSON.stringify(entry) : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) ? [...entry, ...entry, ...entry, ...entry] : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) && entry.length > 0 ? [...entry, entry[0]] : entry)),
  (value) => addKey(value, 'deep', { a: { b: { c: { d: { e: 1 } } } } }),
  (value) => mapTop(value, (entry) => (isRecord(entry) ? { ...entry, nested: [[[[1]]]] } : entry)),
  (value) => mapTop(value, () => 123456789012345678901234567890),
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function renameKeys(value: Json, rename: (key: string) => string): Json {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [rename(key), inner]));
}

function addKey(value: Json, key: string, added: Json): Json {
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  Object.defineProperty(copy, key, { value: added, enumerable: true, writable: true, configurable: true });
  return copy;
}

function deepAddKey(value: Json, key: string, added: Json): Json {
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      name,
      isRecord(inner)
        ? addKey(inner, key, added)
        : Array.isArray(inner) && isRecord(inner[0])
          ? [addKey(inner[0], key, added), ...inner.slice(1)]
          : inner,
    ]),
  );
}

function mapLeaves(value: Json, map: (leaf: Json) => Json): Json {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, map));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mapLeaves(inner, map)]));
  return map(value);
}

/** Applies `map` to one top-level entry (the first one the seed picks). */
function mapTop(value: Json, map: (entry: Json) => Json): Json {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 0) return value;
  const chosen = keys[keys.length - 1]!;
  const mapped = map(value[chosen]);
  const copy: Record<string, unknown> = {};
  for (const key of keys) if (key !== chosen || mapped !== undefined) copy[key] = key === chosen ? mapped : value[key];
  return copy;
}

/** Text for a call: JSON, with the arguments-text malformations of docs/normalization.md now and then. */
function callText(value: Json, style: number): string {
  const json = JSON.stringify(value);
  switch (style) {
    case 0:
      return `\`\`\`json\n${json}\n\`\`\``;
    case 1:
      return JSON.stringify(json);
    case 2:
      return json.replace(/}$/, ',}');
    case 3:
      return json.replace(/"([A-Za-z_]+)":/g, '$1:');
    default:
      return json;
  }
}

/** A serialization that tells -0, undefined, NaN and key order apart (the comparison is byte for byte). */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === undefined) return '<undefined>';
    if (typeof inner === 'number' && (Object.is(inner, -0) || !Number.isFinite(inner)))
      return `<number ${Object.is(inner, -0) ? '-0' : String(inner)}>`;
    if (inner instanceof Date) return `<date ${inner.toISOString()}>`;
    if (
      typeof inner === 'object' &&
      inner !== null &&
      !Array.isArray(inner) &&
      Object.getPrototypeOf(inner) !== Object.prototype &&
      Object.getPrototypeOf(inner) !== null
    ) {
      return { '<class>': inner.constructor?.name, ...(inner as Record<string, unknown>) };
    }
    return inner;
  });
}

function withoutDuration(result: ToolResult): unknown {
  const { durationMs: _durationMs, ...rest } = result;
  return rest;
}

describe('the generated canonical check (issue 12): the fast path returns exactly what the normalizer path returns', () => {
  it(`on ${SCHEMAS * CALLS_PER_SCHEMA} random calls over ${SCHEMAS} random schemas and every malformation rule (seed ${SEED})`, async () => {
    const limits: PipelineLimits = { ...DEFAULT_LIMITS, ...LIMITS };
    const context: ExecutionContext = { sessionId: 's-1', timeZone: 'Europe/Berlin' };
    let calls = 0;
    let accepted = 0;
    let acceptedOk = 0;
    let refused = 0;
    let mutated = 0;
    await fc.assert(
      fc.asyncProperty(
        TOOL_SCHEMA.chain((schema) =>
          fc.tuple(
            fc.constant(schema),
            fc.array(
              fc.tuple(
                callValue(schema),
                fc.integer({ min: -1, max: MUTATIONS.length * 2 - 1 }),
                fc.integer({ min: 0, max: 12 }),
              ),
              { minLength: CALLS_PER_SCHEMA, maxLength: CALLS_PER_SCHEMA },
            ),
          ),
        ),
        async ([schema, inputs]) => {
          const registry = new ToolRegistry({ logger: silentLogger });
          registry.registerJsonSchemaTool({ name: 'tool', parameters: schema }, async (params) => params);
          const fastLogger = new TextRecordingLogger(exact);
          const slowLogger = new TextRecordingLogger(exact);
          const fast = new PersonaToolExecutor(registry, { logger: fastLogger, limits: LIMITS, telemetry: false });
          const slow = new PersonaToolExecutor(registry, {
            logger: slowLogger,
            limits: LIMITS,
            telemetry: false,
            canonicalFastPath: false,
          });
          const parameters = registry.get('tool')!.parameters;
          const accept = generateAcceptFunction(parameters, limits);
          const normalize = compileNormalizer(parameters, 'safe', 'all');
          for (const [value, mutation, style] of inputs) {
            // Half the calls go as generated; the others with one malformation (the index picks which).
            const rule = mutation >= 0 && mutation < MUTATIONS.length ? MUTATIONS[mutation] : undefined;
            const argumentsValue = rule ? rule(value) : value;
            if (rule) mutated++;
            const text = callText(argumentsValue, style);
            const call: ToolCall = { id: 'c', name: 'tool', arguments: text };
            const [withFastPath, withoutFastPath] = [
              await fast.execute(call, context),
              await slow.execute(call, context),
            ];
            calls++;
            expect(exact(withoutDuration(withFastPath))).toBe(exact(withoutDuration(withoutFastPath)));
            if (!withFastPath.ok) refused++;

            // Soundness where the check says yes: the normalizer and the impostor scan leave the value as it is.
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              continue;
            }
            if (!isRecord(parsed) || !accept(parsed)) continue;
            accepted++;
            const state = new NormalizeState({ timeZone: context.timeZone, relativeDateTool: false, limits });
            const normalized = normalize(parsed, '', state);
            expect({
              transformations: state.transformations,
              issues: state.issues,
              events: state.securityEvents,
            }).toEqual({ transformations: [], issues: [], events: [] });
            expect(findContextImpostors(parsed, [], parameters)).toEqual([]);
            expect(exact(normalized)).toBe(exact(parsed));
            if (withFastPath.ok) acceptedOk++;
          }
          expect(fastLogger.records).toEqual(slowLogger.records);
        },
      ),
      { seed: SEED, numRuns: SCHEMAS },
    );
    expect(calls).toBeGreaterThanOrEqual(20_000);
    // Both sides of the check are exercised: many calls take the fast path, many are repaired or refused.
    expect(accepted).toBeGreaterThan(calls / 8);
    expect(acceptedOk).toBeGreaterThan(calls / 16);
    expect(mutated).toBeGreaterThan(calls / 3);
    expect(refused).toBeGreaterThan(calls / 10);
  }, 240_000);
  it('trusted context goes into a copy on the fast path: a recorded value (an unwrapped call) never holds it', async () => {
    class NoteParams {
      @ToolParam({ description: 'The note', minLength: 2 })
      text!: string;

      @FromContext('session_id') sessionId!: string;
    }
    @Command({ name: 'add_note', description: 'Adds a note', params: NoteParams })
    class AddNoteCommand {
      execute(params: NoteParams) {
        return { text: params.text, sessionId: params.sessionId };
      }
    }
    const registry = ToolRegistry.from([AddNoteCommand], { logger: silentLogger });
    const fast = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
    const slow = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      telemetry: false,
      canonicalFastPath: false,
    });
    const context: ExecutionContext = { sessionId: 'secret-session' };
    const wrapped = JSON.stringify({ name: 'add_note', arguments: { text: 'hello' } });
    for (const text of [wrapped, `[${wrapped}]`, '{"text": "hello"}']) {
      const call: ToolCall = { id: 'c', name: 'add_note', arguments: text };
      const [withFastPath, withoutFastPath] = [await fast.execute(call, context), await slow.execute(call, context)];
      expect(withFastPath.ok && withFastPath.value).toEqual({ text: 'hello', sessionId: 'secret-session' });
      expect(JSON.stringify(withFastPath.transformations)).not.toContain('secret-session');
      expect(JSON.stringify({ ...withFastPath, durationMs: 0 })).toBe(
        JSON.stringify({ ...withoutFastPath, durationMs: 0 }),
      );
    }
  });
});
