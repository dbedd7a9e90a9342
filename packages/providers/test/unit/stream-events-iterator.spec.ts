/**
 * The events iterator keeps an async generator's contract (it is written by hand for its cost per event): one result
 * per `next()` in the order asked, even when calls overlap; the provider's stream closed when the consumer stops, when
 * an early refusal ends the events, or when reading fails; nothing read before the first `next()`.
 */
import 'reflect-metadata';
import type { ToolCallStreamEvent } from '@toolwright/providers';
import * as openai from '@toolwright/providers/openai';
import { CONTEXT, streamingExecutor } from '../support/streaming-harness';

type Chunk = openai.OpenAIChatChunkLike;

const chunk = (delta: object, finishReason: string | null = null): Chunk => ({
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

/** One call of `name`, its arguments text in `pieces`, then the finish chunk. */
function callChunks(name: string, pieces: readonly string[]): Chunk[] {
  return [
    chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] }),
    ...pieces.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    chunk({}, 'tool_calls'),
  ];
}

/** A provider stream that records what was asked of it (each chunk arrives on a later turn, as from a socket). */
function trackedStream(chunks: readonly Chunk[], failAt?: number) {
  const log = { opened: 0, read: 0, returned: 0 };
  const stream: AsyncIterable<Chunk> = {
    [Symbol.asyncIterator]() {
      log.opened += 1;
      let at = 0;
      return {
        next: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          if (at === failAt) throw new Error('connection reset');
          log.read += 1;
          return at < chunks.length ? { value: chunks[at++]!, done: false } : { value: undefined, done: true };
        },
        return: async () => {
          log.returned += 1;
          return { value: undefined, done: true };
        },
      };
    },
  };
  return { stream, log };
}

const LONG = 'a'.repeat(200);
const PIECES = ['{"text":"', LONG.slice(0, 100), LONG.slice(100), '","tags":["x"]}'];

async function collect(events: AsyncIterable<ToolCallStreamEvent>): Promise<ToolCallStreamEvent[]> {
  const out: ToolCallStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The events without the executor's timing (the only field that differs between two runs of one call). */
function comparable(events: readonly ToolCallStreamEvent[]): unknown[] {
  return events.map((event) =>
    event.type === 'call-end' && event.result !== undefined
      ? { ...event, result: { ...event.result, durationMs: 0 } }
      : event,
  );
}

describe('the events iterator', () => {
  it('reads nothing before the first next(), and reads the stream to its end without closing it', async () => {
    const { executor } = streamingExecutor();
    const { stream, log } = trackedStream(callChunks('note', PIECES));
    const events = openai.streamCallEvents(stream, { executor, context: CONTEXT });
    expect(log.opened).toBe(0);
    const all = await collect(events);
    expect(all.map((event) => event.type)).toEqual(['call-start', 'text', 'text', 'field', 'field', 'call-end']);
    const end = all[all.length - 1]!;
    expect(end.type === 'call-end' && end.result?.ok).toBe(true);
    expect(log).toEqual({ opened: 1, read: PIECES.length + 3, returned: 0 });
    await expect(events.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('overlapping next() calls get the events in the order asked, the same as one at a time', async () => {
    const { executor } = streamingExecutor();
    const sequential = await collect(
      openai.streamCallEvents(trackedStream(callChunks('note', PIECES)).stream, { executor, context: CONTEXT }),
    );
    const events = openai.streamCallEvents(trackedStream(callChunks('note', PIECES)).stream, {
      executor,
      context: CONTEXT,
    });
    const results = await Promise.all(Array.from({ length: sequential.length + 2 }, () => events.next()));
    expect(results.slice(sequential.length).every((result) => result.done === true)).toBe(true);
    const overlapped = results.slice(0, sequential.length).map((result) => result.value as ToolCallStreamEvent);
    expect(comparable(overlapped)).toEqual(comparable(sequential));
  });

  it('a consumer that stops (break) closes the provider stream once', async () => {
    const { executor } = streamingExecutor();
    const { stream, log } = trackedStream(callChunks('note', PIECES));
    const seen: string[] = [];
    for await (const event of openai.streamCallEvents(stream, { executor, context: CONTEXT })) {
      seen.push(event.type);
      if (event.type === 'text') break;
    }
    expect(seen).toEqual(['call-start', 'text']);
    expect(log.returned).toBe(1);
  });

  it('an early refusal ends the events and closes the provider stream', async () => {
    const { executor } = streamingExecutor();
    const { stream, log } = trackedStream(callChunks('book_flight', ['{"to":"Lisbon"}']));
    const all = await collect(openai.streamCallEvents(stream, { executor, context: CONTEXT, refuseEarly: true }));
    expect(all.map((event) => event.type)).toEqual(['call-start', 'call-refused']);
    expect(log.returned).toBe(1);
    expect(log.read).toBe(1);
  });

  it('a failing provider stream rejects next() with its error, and the events end', async () => {
    const { executor } = streamingExecutor();
    const { stream } = trackedStream(callChunks('note', PIECES), 2);
    const events = openai.streamCallEvents(stream, { executor, context: CONTEXT });
    const types: string[] = [];
    await expect(
      (async () => {
        for await (const event of events) types.push(event.type);
      })(),
    ).rejects.toThrow('connection reset');
    expect(types).toEqual(['call-start']);
    await expect(events.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('return() and throw() before the first next() never open the provider stream', async () => {
    const { executor } = streamingExecutor();
    const first = trackedStream(callChunks('note', PIECES));
    const returned = openai.streamCallEvents(first.stream, { executor, context: CONTEXT });
    await expect(returned.return()).resolves.toEqual({ value: undefined, done: true });
    await expect(returned.next()).resolves.toEqual({ value: undefined, done: true });
    const second = trackedStream(callChunks('note', PIECES));
    const thrown = openai.streamCallEvents(second.stream, { executor, context: CONTEXT });
    await expect(thrown.throw(new Error('stop'))).rejects.toThrow('stop');
    await expect(thrown.next()).resolves.toEqual({ value: undefined, done: true });
    expect([first.log.opened, second.log.opened]).toEqual([0, 0]);
  });

  it('throw() while reading closes the provider stream and rejects with the error', async () => {
    const { executor } = streamingExecutor();
    const { stream, log } = trackedStream(callChunks('note', PIECES));
    const events = openai.streamCallEvents(stream, { executor, context: CONTEXT });
    await events.next();
    await expect(events.throw(new Error('stop'))).rejects.toThrow('stop');
    expect(log.returned).toBe(1);
    await expect(events.next()).resolves.toEqual({ value: undefined, done: true });
  });
});
