import 'reflect-metadata';
import fc from 'fast-check';
import { IsEmail } from 'class-validator';
import {
  ArrayOf,
  Command,
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ExecutionContext,
  type ToolCall,
} from '@toolwright/core';
import { objectSchemaWith, scalarSchemaWith, usuallyValidValueFor, type JsonSchema } from './arbitraries';
import type { PipelineLimits } from '@toolwright/core/pipeline/limits';
import type { CoercionPolicy } from '@toolwright/core/types/schema';
import { TextRecordingLogger } from '../support/recording-logger';
import { addKey, CONTAINER_EDITS, exact, isRecord, KEY_EDITS, mapTop, withoutDuration } from '../support/value-edits';

/**
 * Refused and malformed calls through the compiled plan (the canonical check in front, then the normalizer, the only
 * error path since issue 26 removed the generated one) against the reference interpreter (`canonicalFastPath: false`:
 * the normalizer alone): for random JSON Schema tools, random policies and random invalid calls (a wrong enum member,
 * out of range, a wrong type, a bad date, a pattern or length miss, null, a missing or unknown key, item counts, and
 * every malformation rule of docs/normalization.md), byte-identical results and log records. A decorated command with
 * class-validator's `@IsEmail` (the bench's shape), a command with context and extracted fields and hostile property
 * names go through the same comparison.
 */

const SEED = 2_611_2026;
const SCHEMAS = 1_100;
const CALLS_PER_SCHEMA = 19;
const LIMITS: Partial<PipelineLimits> = { maxDepth: 4, maxArrayItems: 6 };
const POLICIES: readonly CoercionPolicy[] = ['safe', 'strict', 'lenient'];

/** Random tools: nested objects and arrays of every scalar kind the plan checks, a null type now and then. */
const TOOL_SCHEMA = objectSchemaWith(2, {
  names: ['title', 'count', 'ratio', 'enabled', 'tags', 'when', 'day', 'level', 'userName', 'session_id', 'naïve'],
  scalar: scalarSchemaWith({
    enumMembers: ['low', 'High', 'MEDIUM', 'x', 'a b', 'LOW'],
    wideEnum: true,
    integerExclusiveMaximum: true,
    extended: true,
    booleanEnum: true,
  }),
  scalarWeight: 5,
  objectArrayWeight: 2,
  maxProperties: 5,
  maxItemsUpTo: 8,
  nullable: fc.nat(5).map((flags) => flags === 0),
  nullableObjects: true,
  additionalProperties: [undefined, undefined, undefined, false, true],
});

/** A value for a schema that is usually valid (numbers from a few that meet or miss `multipleOf`). */
const callValue = (schema: JsonSchema) => usuallyValidValueFor(schema, [-2.5, 0, 0.5, 1, 3.5]);

type Json = unknown;

/** What replaces a leaf: refusals the normalizer reports as they are, and repairs it makes before it checks. */
const LEAF_CORRUPTIONS: ReadonlyArray<(leaf: Json) => Json> = [
  () => 'urgent',
  () => 600,
  () => -600,
  (leaf) => (typeof leaf === 'number' ? leaf + 0.25 : 7.5),
  () => 'x'.repeat(12),
  () => '',
  () => true,
  () => ({}),
  () => [],
  () => null,
  (leaf) => (typeof leaf === 'string' ? leaf.toUpperCase() : 'LOW'),
  (leaf) => (typeof leaf === 'string' ? ` ${leaf} ` : leaf),
  () => '2026-02-30',
  () => '2026-01-31T09:00',
  () => '2026-01-31 09:00:00+01:00',
  () => ' 5 ',
  () => '12',
  () => 'yes',
  () => -0,
  () => 1e300,
  () => 'not-an-email',
  () => 'tomorrow',
  () => 'a'.repeat(2_000),
  () => 'MEDIUM',
  () => 'ten',
  () => 10,
  () => 3,
  () => 123456789012345678901234567890,
];

/** Whole-value malformations: keys, containers, hostile keys (docs/normalization.md), and missing keys. */
const VALUE_MUTATIONS: ReadonlyArray<(value: Json) => Json> = [
  ...KEY_EDITS,
  (value) => mapTop(value, () => undefined),
  ...CONTAINER_EDITS,
  (value) => mapTop(value, (entry) => (Array.isArray(entry) ? [] : entry)),
  (value) => mapTop(value, (entry) => (Array.isArray(entry) ? [entry] : entry)),
  (value) => addKey(value, 'deep', { a: { b: { c: { d: { e: 1 } } } } }),
  (value) => mapTop(value, () => 'a,b'),
];

/** Replaces the leaves whose index (in walk order) is in `picks` modulo the leaf count. */
function corruptLeaves(value: Json, picks: readonly number[], corruptions: readonly number[]): Json {
  let leaves = 0;
  const count = (inner: Json): void => {
    if (Array.isArray(inner)) inner.forEach(count);
    else if (isRecord(inner)) Object.values(inner).forEach(count);
    else leaves++;
  };
  count(value);
  if (leaves === 0) return value;
  const chosen = new Map<number, number>();
  picks.forEach((pick, index) => chosen.set(pick % leaves, corruptions[index]!));
  let seen = 0;
  const walk = (inner: Json): Json => {
    if (Array.isArray(inner)) return inner.map(walk);
    if (isRecord(inner)) return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, walk(item)]));
    const corruption = chosen.get(seen++);
    return corruption === undefined ? inner : LEAF_CORRUPTIONS[corruption % LEAF_CORRUPTIONS.length]!(inner);
  };
  return walk(value);
}

export class Attendee {
  @IsEmail()
  @ToolParam({ description: "The attendee's email address" })
  email!: string;

  @ToolParam({ description: 'Whether attendance is optional', required: false })
  optional?: boolean;
}

export class MeetingParams {
  @ToolParam({ description: 'How urgent', enum: ['low', 'normal', 'high'] })
  priority!: string;

  @ArrayOf('datetime', { description: 'Proposed start times' })
  slots!: string[];

  @ToolParam({ type: 'int', min: 5, max: 480, description: 'Length in minutes' })
  durationMinutes!: number;

  @ToolParam({ description: 'Whether to send invitations' })
  sendInvites!: boolean;

  @ToolParam({ minLength: 3, maxLength: 80, description: 'The title' })
  title!: string;

  @ArrayOf(() => Attendee, { description: 'Who to invite' })
  attendees!: Attendee[];
}

@Command({ name: 'schedule_meeting', description: 'Schedules a meeting', params: MeetingParams })
export class ScheduleMeetingCommand {
  execute(params: MeetingParams) {
    return { scheduled: params.title };
  }
}

export class NoteParams {
  @ToolParam({ description: 'The note', minLength: 2 })
  text!: string;

  @ToolParam({ description: 'Priority', type: 'int', min: 1, max: 3 })
  priority!: number;

  @FromContext('session_id') sessionId!: string;

  @ToolParam({ description: 'The title', extract: 'title' })
  title?: string;
}

@Command({ name: 'add_note', description: 'Adds a note', params: NoteParams })
export class AddNoteCommand {
  execute(params: NoteParams) {
    return { ...params };
  }
}

const VALID_MEETING = {
  priority: 'normal',
  slots: ['2026-01-01T08:00:00+01:00', '2026-02-02T09:15:00+01:00'],
  durationMinutes: 45,
  sendInvites: true,
  title: 'Quarterly planning',
  attendees: [{ email: 'a@example.com', optional: true }, { email: 'b@example.com' }, { email: 'c@example.com' }],
};

/** Property names a remote MCP server may send: every one stays data in the generated code. */
const HOSTILE_NAMES = [
  'say "hi"',
  'back\\slash',
  'trailing\\',
  '*/ globalThis.pwned = 1; /*',
  'line\u2028separator',
  'paragraph\u2029separator',
  'new\nline',
  '${globalThis.pwned = 1}',
  '"));globalThis.pwned=1;//',
  '"+(globalThis.pwned=1)+"',
  "'+(globalThis.pwned=1)+'",
  'lone\ud800surrogate',
  'x'.repeat(10_000),
  'case',
  'default',
  'I',
  's',
  'k[0]',
];

afterEach(() => {
  delete (globalThis as Record<string, unknown>)['pwned'];
});

describe('refused calls: the compiled plan against the normalizer alone, the same results and log records', () => {
  it(`on ${SCHEMAS * CALLS_PER_SCHEMA} random invalid and malformed calls over ${SCHEMAS} random schemas (seed ${SEED})`, async () => {
    const context: ExecutionContext = { sessionId: 's-1', timeZone: 'Europe/Berlin' };
    const counts = { calls: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        TOOL_SCHEMA.chain((schema) =>
          fc.tuple(
            fc.constant(schema),
            fc.constantFrom(...POLICIES),
            fc.array(
              fc.tuple(
                callValue(schema),
                fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
                fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
                fc.integer({ min: -1, max: VALUE_MUTATIONS.length * 3 }),
              ),
              { minLength: CALLS_PER_SCHEMA, maxLength: CALLS_PER_SCHEMA },
            ),
          ),
        ),
        async ([schema, policy, inputs]) => {
          const registry = new ToolRegistry({ logger: silentLogger });
          registry.registerJsonSchemaTool({ name: 'tool', parameters: schema }, (params) => params);
          const fastLogger = new TextRecordingLogger(exact);
          const slowLogger = new TextRecordingLogger(exact);
          const options = { limits: LIMITS, telemetry: false as const, coercion: policy };
          const fast = new PersonaToolExecutor(registry, { ...options, logger: fastLogger });
          const slow = new PersonaToolExecutor(registry, {
            ...options,
            logger: slowLogger,
            canonicalFastPath: false,
          });
          for (const [value, picks, corruptions, mutation] of inputs) {
            // Most calls get one to three corrupted leaves; some a whole-value malformation on top.
            const corrupted = corruptLeaves(value, picks, corruptions);
            const rule = mutation >= 0 && mutation < VALUE_MUTATIONS.length ? VALUE_MUTATIONS[mutation] : undefined;
            const argumentsValue = rule ? rule(corrupted) : corrupted;
            const call: ToolCall = { id: 'c', name: 'tool', arguments: JSON.stringify(argumentsValue) };
            const [compiled, reference] = [await fast.execute(call, context), await slow.execute(call, context)];
            counts.calls++;
            if (!compiled.ok) counts.refused++;
            expect(exact(withoutDuration(compiled))).toBe(exact(withoutDuration(reference)));
          }
          expect(fastLogger.records).toEqual(slowLogger.records);
        },
      ),
      { seed: SEED, numRuns: SCHEMAS },
    );
    expect(counts.calls).toBeGreaterThanOrEqual(20_000);
    expect(counts.refused).toBeGreaterThan(counts.calls / 2);
  }, 300_000);

  it('a decorated command with @IsEmail (the bench shape): 3,000 random invalid calls, the same results and logs', async () => {
    const registry = ToolRegistry.from([ScheduleMeetingCommand], { logger: silentLogger });
    const fastLogger = new TextRecordingLogger(exact);
    const slowLogger = new TextRecordingLogger(exact);
    const fast = new PersonaToolExecutor(registry, { logger: fastLogger, telemetry: false });
    const slow = new PersonaToolExecutor(registry, { logger: slowLogger, telemetry: false, canonicalFastPath: false });
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: -1, max: VALUE_MUTATIONS.length * 3 }),
        async (picks, corruptions, mutation) => {
          const corrupted = corruptLeaves(VALID_MEETING, picks, corruptions);
          const rule = mutation >= 0 && mutation < VALUE_MUTATIONS.length ? VALUE_MUTATIONS[mutation] : undefined;
          const argumentsValue = rule ? rule(corrupted) : corrupted;
          const call: ToolCall = { id: 'c', name: 'schedule_meeting', arguments: JSON.stringify(argumentsValue) };
          const [compiled, reference] = [await fast.execute(call), await slow.execute(call)];
          expect(exact(withoutDuration(compiled))).toBe(exact(withoutDuration(reference)));
          if (!compiled.ok) refused++;
        },
      ),
      { seed: SEED, numRuns: 3_000 },
    );
    expect(fastLogger.records).toEqual(slowLogger.records);
    expect(refused).toBeGreaterThan(1_500);
  }, 120_000);

  it('a command with a context field and an extracted field: context goes into a copy, never into a recorded value', async () => {
    const registry = ToolRegistry.from([AddNoteCommand], { logger: silentLogger });
    const fast = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
    const slow = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      telemetry: false,
      canonicalFastPath: false,
    });
    const context: ExecutionContext = {
      sessionId: 's-1',
      dataPackets: [{ content: { title: 'From the packet', body: 'body' } }],
    };
    for (const args of [
      { text: 'x', priority: 2 },
      { text: 'ok', priority: 9, title: '' },
      { text: 'ok', priority: 0, title: 'mine' },
      { text: 3, priority: 2 },
      { priority: 5 },
    ]) {
      // As sent, and wrapped in a whole call (the unwrapped arguments are recorded as the transformation's value).
      for (const text of [JSON.stringify(args), JSON.stringify({ name: 'add_note', arguments: args })]) {
        const call: ToolCall = { id: 'c', name: 'add_note', arguments: text };
        const [compiled, reference] = [await fast.execute(call, context), await slow.execute(call, context)];
        expect(compiled.ok).toBe(false);
        expect(exact(withoutDuration(compiled))).toBe(exact(withoutDuration(reference)));
      }
    }
  });

  it('hostile property names stay data: the same issues and paths as the normalizer alone, and no code of theirs runs', async () => {
    const properties: Record<string, JsonSchema> = {};
    HOSTILE_NAMES.forEach((name, index) => {
      properties[name] =
        index % 3 === 0
          ? { type: 'integer', minimum: 0, maximum: 9 }
          : index % 3 === 1
            ? { type: 'string', enum: ['a', 'b'] }
            : { type: 'array', items: { type: 'object', properties: { [name]: { type: 'boolean' } } } };
    });
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      { name: 'remote', parameters: { type: 'object', properties, required: HOSTILE_NAMES } },
      (params) => params,
    );
    const fast = new PersonaToolExecutor(registry, { logger: silentLogger, telemetry: false });
    const slow = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      telemetry: false,
      canonicalFastPath: false,
    });
    for (let variant = 0; variant < 6; variant++) {
      const value: Record<string, unknown> = {};
      HOSTILE_NAMES.forEach((name, index) => {
        if ((index + variant) % 5 === 0) return; // missing (every name is required)
        value[name] =
          index % 3 === 0
            ? (index + variant) % 2 === 0
              ? 42
              : 3
            : index % 3 === 1
              ? (index + variant) % 2 === 0
                ? 'zzz'
                : 'a'
              : [{ [name]: (index + variant) % 2 === 0 ? 'maybe' : true }];
      });
      const call: ToolCall = { id: 'c', name: 'remote', arguments: JSON.stringify(value) };
      const [compiled, reference] = [await fast.execute(call), await slow.execute(call)];
      expect(compiled.ok).toBe(false);
      expect(exact(withoutDuration(compiled))).toBe(exact(withoutDuration(reference)));
    }
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
  });
});
