import 'reflect-metadata';
import fc from 'fast-check';
import { NAMES, objectSchemaWith, scalarSchemaWith, usuallyValidValueFor, type JsonSchema } from './arbitraries';
import {
  Command,
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ExecutionContext,
  type ToolCall,
} from '@toolwright/core';
import { acceptFunction } from '@toolwright/core/compile/canonical-check';
import { DEFAULT_LIMITS, type PipelineLimits } from '@toolwright/core/pipeline/limits';
import { compileNormalizer, NormalizeState } from '@toolwright/core/pipeline/normalizer';
import { findContextImpostors } from '@toolwright/core/pipeline/context-impostors';
import { TextRecordingLogger } from '../support/recording-logger';
import {
  addKey,
  CONTAINER_EDITS,
  exact,
  isRecord,
  KEY_EDITS,
  mapLeaves,
  mapTop,
  withoutDuration,
} from '../support/value-edits';

/**
 * Issue 12's differential test: the "already valid and canonical?" check lets the executor skip sanitizing,
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
  names: [...NAMES, 'session_id', 'ѕession_id', 'naïve'],
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
  ...KEY_EDITS,
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
  ...CONTAINER_EDITS,
  (value) => addKey(value, 'deep', { a: { b: { c: { d: { e: 1 } } } } }),
  (value) => mapTop(value, (entry) => (isRecord(entry) ? { ...entry, nested: [[[[1]]]] } : entry)),
  (value) => mapTop(value, () => 123456789012345678901234567890),
];

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

describe('the canonical check (issue 12): the fast path returns exactly what the normalizer path returns', () => {
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
          const accept = acceptFunction(parameters, limits);
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
