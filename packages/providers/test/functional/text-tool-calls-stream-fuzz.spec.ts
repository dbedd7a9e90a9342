import 'reflect-metadata';
import { parseTextToolCalls } from '@toolwright/providers/text';
import { RENDERERS } from '../support/text-dialects';
import {
  HARNESS_CALLS,
  HARNESS_TOOLS,
  dialectWorstCases,
  fuzzDialect,
  longCallText,
  multiCallTexts,
  rendererLabel,
  streamInPieces,
} from '../support/text-parser-harness';

/**
 * The streaming text parser against the whole-text parser, in every dialect: multi-call texts (alone, after prose,
 * after reasoning holding a decoy, several blocks, and a long text of eight turns) split at every point in two and
 * at seeded random points into up to 80 pieces. The calls the stream returns (push, then end) are exactly the
 * whole text's calls, in order, each once: never a call twice, never one retracted or lost.
 */
const SEED = 41;
const totals = { points: 0, streams: 0 };

describe('the streaming text parser gives the whole-text calls, each once, for any split', () => {
  it('the texts hold the calls the renderers wrote (the fuzz compares against something real)', () => {
    for (const renderer of RENDERERS) {
      for (const { label, text } of multiCallTexts(renderer)) {
        const calls = parseTextToolCalls(text, { tools: HARNESS_TOOLS }).calls;
        expect([rendererLabel(renderer), label, calls.length >= HARNESS_CALLS.length]).toEqual([
          rendererLabel(renderer),
          label,
          true,
        ]);
      }
      const long = longCallText(renderer);
      const read = parseTextToolCalls(long.text, { tools: HARNESS_TOOLS }).calls;
      expect([rendererLabel(renderer), read.length]).toEqual([rendererLabel(renderer), long.calls]);
    }
  });

  it.each(RENDERERS.map((renderer, index) => [rendererLabel(renderer), renderer, index] as const))(
    '%s',
    (_label, renderer, index) => {
      const report = fuzzDialect(renderer, SEED + index, { randomRuns: 150, longRuns: 60 });
      totals.points += report.points;
      totals.streams += report.streams;
      expect(report.mismatches).toEqual([]);
    },
  );

  it.each(RENDERERS.map((renderer) => [rendererLabel(renderer), renderer] as const))(
    '%s: many small deltas (the parser joins each run of deltas into one piece) give the whole-text reading',
    (_label, renderer) => {
      const options = { tools: HARNESS_TOOLS };
      const texts = [
        { text: longCallText(renderer).text, sizes: [1, 3] },
        {
          text: dialectWorstCases(renderer)
            .find((worst) => worst.label === 'many calls')!
            .text(64 * 1024),
          sizes: [16],
        },
      ];
      for (const { text, sizes } of texts) {
        const whole = parseTextToolCalls(text, options);
        for (const size of sizes) {
          const run = streamInPieces(text, size, options);
          // more deltas than one run of them, so the joining is exercised
          expect(Math.ceil(text.length / size)).toBeGreaterThan(256);
          expect({ size, calls: run.calls, rejected: run.ended.rejected, content: run.ended.content }).toEqual({
            size,
            calls: whole.calls,
            rejected: whole.rejected,
            content: whole.content,
          });
        }
      }
    },
  );

  afterAll(() => {
    // at least 100,000 split points over all dialects
    expect(totals.points).toBeGreaterThanOrEqual(100_000);
  });
});
