/**
 * The streaming tests' tools, calls and checks. Two tools: `plan_trip`, a class command whose DTO has every kind (a
 * long string, an integer, a number, a boolean, an enum, a date-time received as a `Date`, an array, a nested DTO, a
 * trusted context field), and `note`, a JSON Schema tool (its handler gets plain values). Calls are drawn from a
 * seeded generator: valid ones, ones with a refused field, a key in another case, an unknown tool.
 */
import {
  Command,
  DateTime,
  FromContext,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type CommandHandler,
  type ExecutionContext,
  type PipelineLimits,
  type ToolCall,
  type ToolResult,
} from '@toolwright/core';
import type { ToolCallStreamEvent } from '@toolwright/providers';

export class Traveler {
  @ToolParam({ description: 'Name' })
  name!: string;

  @ToolParam({ type: 'int', min: 0, max: 130, description: 'Age in years' })
  age!: number;
}

export class PlanTripParams {
  @ToolParam({ description: 'Title of the trip', maxLength: 4_000_000 })
  title!: string;

  @ToolParam({ type: 'int', min: 1, max: 60, description: 'Days' })
  days!: number;

  @ToolParam({ type: 'float', description: 'Budget in euros' })
  budget!: number;

  @ToolParam({ description: 'Urgent?', required: false })
  urgent?: boolean;

  @ToolParam({ enum: ['car', 'train', 'plane'], description: 'How to travel' })
  mode!: string;

  @DateTime({ description: 'When it starts' })
  start!: Date;

  @ToolParam({ type: 'array<string>', description: 'Stops on the way' })
  stops!: string[];

  @ToolParam({ type: () => Traveler, description: 'Who travels', required: false })
  traveler?: Traveler;

  @FromContext('session_id')
  sessionId?: string;
}

/** What each handler received, by call id (the handler's own value, to compare with the fields shown early). */
export const received = new Map<string, Record<string, unknown>>();

@Command({ name: 'plan_trip', description: 'Plan a trip.', params: PlanTripParams })
export class PlanTripCommand implements CommandHandler<PlanTripParams, unknown> {
  execute(params: PlanTripParams, invocation: { callId?: string }): unknown {
    received.set(invocation.callId ?? '', params as unknown as Record<string, unknown>);
    return { days: params.days, stops: params.stops.length, start: params.start.toISOString() };
  }
}

export const CONTEXT: ExecutionContext = { sessionId: 's-1' };

/** `limits`: the executor's (the bench raises them for its 1 MiB arguments). */
export function streamingExecutor(limits: Partial<PipelineLimits> = {}): {
  registry: ToolRegistry;
  executor: PersonaToolExecutor;
} {
  const registry = ToolRegistry.from([PlanTripCommand]);
  registry.registerJsonSchemaTool(
    {
      name: 'note',
      description: 'Keep a note.',
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', maxLength: 4_000_000 },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
          when: { type: 'string', format: 'date' },
        },
        required: ['text'],
      },
    },
    (params, invocation) => {
      received.set(invocation.callId ?? '', params);
      return { saved: true };
    },
  );
  return { registry, executor: new PersonaToolExecutor(registry, { logger: silentLogger, limits }) };
}

/** A small seeded generator (mulberry32): the same seed draws the same calls and the same split points. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'Lisbon',
  'Porto',
  'quote "inside"',
  'back\\slash',
  'new\nline',
  'tab\t',
  'é',
  '😀',
  'ünïcödé',
  '{',
  ']',
];

function text(random: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return out;
}

/** One generated call: the provider's name, the arguments as an object, and the arguments text as the model wrote it. */
export interface GeneratedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly text: string;
}

/** Draws a call: mostly valid, sometimes with a refused field, a key in another case, or an unknown tool. */
export function generateCall(random: () => number, index: number): GeneratedCall {
  const id = `call_${index}_${Math.floor(random() * 1e9).toString(36)}`;
  const pick = random();
  let name: string;
  let args: Record<string, unknown>;
  if (pick < 0.3) {
    name = 'note';
    args = { text: text(random, 20 + Math.floor(random() * 300)), tags: ['a', text(random, 5)] };
    if (random() < 0.5) args.when = random() < 0.8 ? '2026-12-07' : 'next week';
  } else if (pick < 0.95) {
    name = random() < 0.1 ? 'Plan_Trip' : 'plan_trip';
    args = {
      title: text(random, 10 + Math.floor(random() * 400)),
      days: random() < 0.85 ? 1 + Math.floor(random() * 59) : random() < 0.5 ? '12' : 'many',
      budget: random() < 0.9 ? Math.round(random() * 1e6) / 100 : '1e3',
      mode: ['car', 'train', 'plane', 'Train', 'boat'][Math.floor(random() * 5)],
      start: random() < 0.9 ? '2026-12-07T09:30:00+01:00' : '2026-12-07T09:30:00',
      stops: Array.from({ length: Math.floor(random() * 4) }, () => text(random, 8)),
    };
    if (random() < 0.5) args.urgent = random() < 0.5 ? true : 'yes';
    if (random() < 0.5) args.traveler = { name: text(random, 6), age: random() < 0.9 ? 42 : 300 };
    if (random() < 0.1) args.session_id = 'forged';
    if (random() < 0.1) {
      args.Days = args.days;
      delete args.days;
    }
  } else {
    name = 'book_flight';
    args = { to: 'Lisbon' };
  }
  const indent = random() < 0.3 ? 2 : undefined;
  return { id, name, arguments: args, text: JSON.stringify(args, null, indent) };
}

/** Cuts `text` at random points into pieces of 1 to `max` characters; returns the pieces. */
export function cut(random: () => number, text: string, max: number): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = 1 + Math.floor(random() * max);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** A result without its timing (the one field two runs of one call differ in). */
export function timeless(result: ToolResult | undefined): unknown {
  if (result === undefined) return undefined;
  const { durationMs, ...rest } = result;
  void durationMs;
  return JSON.parse(JSON.stringify(rest)) as unknown;
}

/** JSON form (dates compared as their JSON text). */
export function jsonForm(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

export interface StreamCheck {
  /** Calls reported (call-end), by id. */
  readonly ended: number;
  readonly fields: number;
  readonly texts: number;
}

/**
 * The checks every replayed stream must pass against the calls it carried: each call started once and ended once; its
 * result equals the executor's result for the whole call (all but `durationMs`); every field shown early equals the
 * handler's value for it (JSON form); text shown for a string adds up to a prefix of the string.
 */
export async function checkEvents(
  events: readonly ToolCallStreamEvent[],
  calls: readonly GeneratedCall[],
  executor: PersonaToolExecutor,
  whole: (call: GeneratedCall) => ToolCall,
): Promise<StreamCheck> {
  const starts = events.filter((event) => event.type === 'call-start');
  const ends = events.filter((event) => event.type === 'call-end');
  if (starts.length !== calls.length) throw new Error(`${starts.length} call-start events for ${calls.length} calls`);
  if (ends.length !== calls.length) throw new Error(`${ends.length} call-end events for ${calls.length} calls`);
  const numbers = new Set(ends.map((event) => event.call));
  if (numbers.size !== calls.length) throw new Error('a call was reported twice');
  let fields = 0;
  let texts = 0;
  for (const end of ends) {
    const call = calls.find((candidate) => candidate.id === end.toolCall.id);
    if (call === undefined) throw new Error(`no call with id ${end.toolCall.id}`);
    const start = starts.find((event) => event.call === end.call)!;
    if (start.type !== 'call-start') throw new Error('unreachable');
    const expected = await executor.execute(whole(call), CONTEXT);
    const got = timeless(end.result);
    if (JSON.stringify(got) !== JSON.stringify(timeless(expected)))
      throw new Error(`call ${call.id}: ${JSON.stringify(got)} !== ${JSON.stringify(timeless(expected))}`);
    if ((start.refusal === undefined) !== (start.tool !== undefined)) throw new Error('call-start: tool xor refusal');
    if (start.refusal !== undefined && expected.ok) throw new Error(`call ${call.id}: refused at start, ran whole`);
    const handler = expected.ok ? received.get(call.id) : undefined;
    const seenPaths = new Set<string>();
    for (const event of events) {
      if (event.call !== end.call) continue;
      if (event.type === 'field') {
        fields += 1;
        if (seenPaths.has(event.path)) throw new Error(`field ${event.path} reported twice`);
        seenPaths.add(event.path);
        if (
          handler !== undefined &&
          JSON.stringify(jsonForm(event.value)) !== JSON.stringify(jsonForm(handler[event.path]))
        )
          throw new Error(
            `call ${call.id}: field ${event.path} shown as ${JSON.stringify(event.value)}, handler got ${JSON.stringify(handler[event.path])}`,
          );
      } else if (event.type === 'field-refused') {
        if (expected.ok) throw new Error(`call ${call.id}: field ${event.path} refused early, the whole call ran`);
      } else if (event.type === 'text') texts += 1;
    }
  }
  return { ended: ends.length, fields, texts };
}
