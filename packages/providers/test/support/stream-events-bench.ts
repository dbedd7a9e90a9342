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

/**
 * The call as an SDK stream of OpenAI Chat chunks: each chunk object made when it is asked for, as an SDK makes it from
 * the event it just read (kept all at once, 65,536 chunks would be some 25 MB the garbage collector walks during the
 * run: a cost of the stand-in, not of the library), each handed out already arrived, as an iterator of settled
 * promises (an async generator here would add its own machinery, about as much as the library's per-chunk work).
 */
function replay(name: string, pieces: readonly string[]): AsyncIterable<openai.OpenAIChatChunkLike> {
  const chunk = (delta: object, finishReason: string | null = null): openai.OpenAIChatChunkLike => ({
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  return {
    [Symbol.asyncIterator]() {
      let at = -1;
      return {
        next: () => {
          at += 1;
          if (at === 0)
            return Promise.resolve({
              value: chunk({
                tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }],
              }),
              done: false,
            });
          if (at <= pieces.length)
            return Promise.resolve({
              value: chunk({ tool_calls: [{ index: 0, function: { arguments: pieces[at - 1]! } }] }),
              done: false,
            });
          if (at === pieces.length + 1) return Promise.resolve({ value: chunk({}, 'tool_calls'), done: false });
          return Promise.resolve({ value: undefined, done: true as const });
        },
      };
    },
  };
}

/**
 * CPU time of reading one call's events from a stream of `pieceSize` chunks: the least of `rounds` runs, after one run
 * not counted (the first run of a process compiles the code it goes through); `execute`: with the executor running the
 * complete call (else the events up to the complete call: the streaming's own cost).
 */
export async function streamedCpuMs(
  text: string,
  pieceSize: number,
  rounds: number,
  execute = true,
  tool = text.startsWith('{"title"') ? 'plan_trip' : 'note',
): Promise<{ ms: number; events: number }> {
  const { executor } = streamingExecutor({ maxArgumentsBytes: 8 * 1024 * 1024, maxArrayItems: 1_000_000 });
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += pieceSize) pieces.push(text.slice(at, at + pieceSize));
  let least = Number.POSITIVE_INFINITY;
  let events = 0;
  for (let round = -1; round < rounds; round += 1) {
    const started = process.cpuUsage();
    let seen = 0;
    let ok = false;
    for await (const event of openai.streamCallEvents(replay(tool, pieces), { executor, context: CONTEXT, execute })) {
      seen += 1;
      if (event.type === 'call-end') ok = !execute || event.result?.ok === true;
    }
    const used = process.cpuUsage(started);
    if (!ok) throw new Error(`the call of ${tool} did not succeed`);
    if (round >= 0) least = Math.min(least, (used.user + used.system) / 1000);
    events = seen;
  }
  return { ms: least, events };
}
