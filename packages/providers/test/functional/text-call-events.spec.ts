/**
 * Tool calls written into text, as streamed call events: every dialect's rendering of generated calls, cut into
 * deltas at seeded random points, through `streamTextCallEvents`. The calls and results equal those of the whole text
 * parsed at once and executed (all but `durationMs` and the generated call ids); each field shown equals the
 * handler's value; each call is reported once.
 */
import 'reflect-metadata';
import { parseTextToolCalls, streamTextCallEvents, type ToolCallStreamEvent } from '@toolwright/providers/text';
import { RENDERERS, type RenderCall } from '../support/text-dialects';
import { CONTEXT, cut, jsonForm, received, seeded, streamingExecutor, timeless } from '../support/streaming-harness';

jest.setTimeout(180_000);

const ROUNDS = 12;
let splits = 0;

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'Lisbon', 'Porto', '42', 'x'];

function drawCalls(random: () => number): RenderCall[] {
  return Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const words = Array.from({ length: 3 + Math.floor(random() * 40) }, () => WORDS[Math.floor(random() * 8)]);
    return random() < 0.5
      ? { name: 'note', arguments: { text: words.join(' ') } }
      : { name: 'note', arguments: { text: words.join(' '), when: random() < 0.8 ? '2026-12-07' : 'someday' } };
  });
}

const withoutIds = (result: unknown): unknown => {
  const { callId, ...rest } = timeless(result as never) as { callId?: string };
  void callId;
  return rest;
};

describe('text dialects as streamed call events (createTextToolCallParser)', () => {
  it.each(
    RENDERERS.map((renderer, index) => [`${renderer.dialect}${renderer.form ? ` (${renderer.form})` : ''}`, index]),
  )('%s', async (_label, index) => {
    const renderer = RENDERERS[index]!;
    const { registry, executor } = streamingExecutor();
    const random = seeded(4400 + index);
    for (let round = 0; round < ROUNDS; round++) {
      const text = renderer.render(drawCalls(random), {});
      const whole = parseTextToolCalls(text, { tools: registry, dialect: renderer.dialect });
      const expected = [];
      for (const call of whole.calls)
        expected.push(
          withoutIds(await executor.execute({ id: 'whole', name: call.name, arguments: call.arguments }, CONTEXT)),
        );
      const pieces = cut(random, text, 7);
      splits += pieces.length - 1;
      async function* deltas() {
        for (const piece of pieces) yield piece;
      }
      const events: ToolCallStreamEvent[] = [];
      for await (const event of streamTextCallEvents(deltas(), {
        tools: registry,
        dialect: renderer.dialect,
        executor,
        context: CONTEXT,
      }))
        events.push(event);
      const ends = events.filter((event) => event.type === 'call-end');
      expect(ends.map((end) => withoutIds(end.result))).toEqual(expected);
      expect(new Set(ends.map((end) => end.call)).size).toBe(whole.calls.length);
      expect(events.filter((event) => event.type === 'call-start')).toHaveLength(whole.calls.length);
      for (const end of ends) {
        if (!end.result?.ok) continue;
        const handler = received.get(end.toolCall.id)!;
        for (const field of events)
          if (field.type === 'field' && field.call === end.call)
            expect(jsonForm(field.value)).toEqual(jsonForm(handler[field.path]));
      }
    }
  });

  it('made splits in every dialect', () => {
    expect(splits).toBeGreaterThan(RENDERERS.length * ROUNDS * 10);
  });
});
