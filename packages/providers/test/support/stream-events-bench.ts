/**
 * The worst cases of streamed call events and their CPU time, shared by the bench (`test/bench/stream-events.bench.ts`)
 * and the test that holds the budget (`test/functional/stream-events-cost.spec.ts`).
 */
import * as openai from '@toolwright/providers/openai';
import { CONTEXT, streamingExecutor } from './streaming-harness';

export interface WorstCase {
  readonly label: string;
  /** The arguments text of one `note` or `plan_trip` call, about `size` characters. */
  readonly text: string;
  readonly tool: string;
}

/** The shapes that cost the most per character: one long string (plain, and full of escapes), many short members, a long array. */
export function streamEventsWorstCases(size: number): WorstCase[] {
  const plain = 'a'.repeat(size - 12);
  const escaped = '\\n\\"\\u00e9'.repeat(Math.floor((size - 12) / 14));
  const manyMembers: string[] = [];
  let length = 2;
  for (let index = 0; length < size; index += 1) {
    const member = `"k${index}":"v${index}"`;
    manyMembers.push(member);
    length += member.length + 1;
  }
  const stops: string[] = [];
  length = 200;
  for (let index = 0; length < size; index += 1) {
    stops.push(`"s${index}"`);
    length += 4 + String(index).length;
  }
  return [
    { label: 'one 1 MiB string', tool: 'note', text: `{"text":"${plain}"}` },
    { label: 'one 1 MiB string of escapes', tool: 'note', text: `{"text":"${escaped}"}` },
    { label: 'many short members (dropped unknown keys)', tool: 'note', text: `{"text":"x",${manyMembers.join(',')}}` },
    {
      label: 'a long array of short strings',
      tool: 'plan_trip',
      text: `{"title":"t","days":3,"budget":1.5,"mode":"car","start":"2026-12-07T09:30:00+01:00","stops":[${stops.join(',')}]}`,
    },
  ];
}

function chunks(name: string, text: string, size: number): object[] {
  const chunk = (delta: object, finishReason: string | null = null) => ({
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const out: object[] = [
    chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] }),
  ];
  for (let at = 0; at < text.length; at += size)
    out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(at, at + size) } }] }));
  out.push(chunk({}, 'tool_calls'));
  return out;
}

/**
 * The chunks as an SDK stream hands them out, one `next()` at a time, each already arrived: an iterator of settled
 * promises, the least a stream can cost (an async generator here would add its own machinery, about as much again as
 * the library's per-chunk work, to a figure meant to measure the library).
 */
function replay(chunks: readonly object[]): AsyncIterable<openai.OpenAIChatChunkLike> {
  return {
    [Symbol.asyncIterator]() {
      let at = 0;
      return {
        next: () =>
          Promise.resolve(
            at < chunks.length
              ? { value: chunks[at++] as openai.OpenAIChatChunkLike, done: false }
              : { value: undefined, done: true as const },
          ),
      };
    },
  };
}

/**
 * CPU time of reading one call's events from a stream of `pieceSize` chunks (the least of `rounds` runs); `execute`:
 * with the executor running the complete call (else the events up to the complete call: the streaming's own cost).
 */
export async function streamedCpuMs(
  text: string,
  pieceSize: number,
  rounds: number,
  execute = true,
  tool = text.startsWith('{"title"') ? 'plan_trip' : 'note',
): Promise<{ ms: number; events: number }> {
  const { executor } = streamingExecutor({ maxArgumentsBytes: 8 * 1024 * 1024, maxArrayItems: 1_000_000 });
  const stream = chunks(tool, text, pieceSize);
  let least = Number.POSITIVE_INFINITY;
  let events = 0;
  for (let round = 0; round < rounds; round += 1) {
    const started = process.cpuUsage();
    let seen = 0;
    let ok = false;
    for await (const event of openai.streamCallEvents(replay(stream), { executor, context: CONTEXT, execute })) {
      seen += 1;
      if (event.type === 'call-end') ok = !execute || event.result?.ok === true;
    }
    const used = process.cpuUsage(started);
    if (!ok) throw new Error(`the call of ${tool} did not succeed`);
    least = Math.min(least, (used.user + used.system) / 1000);
    events = seen;
  }
  return { ms: least, events };
}
