import { DEFAULT_LIMITS } from '@toolwright/core';
import { parseArguments } from '@toolwright/core/internal';
import { cpuMillisecondsOf } from '../support/cpu-time';
import { seededRandom } from '../support/seeded-random';

/**
 * The reading search is bounded: it runs only on text the reader refused, only on texts of a tool call's usual size,
 * and reads a bounded number of characters; every other text keeps the reader's linear refusal. Checked on CPU time
 * (the machine may be loaded), best of three.
 */
const LIMITS = { ...DEFAULT_LIMITS, maxArgumentsBytes: 4 << 20 };
const TARGET = {
  tool: 'anything',
  declares: () => true,
  names: () => false,
  accepts: (value: Record<string, unknown>) => value,
};

/** Unclosed quotes, stray brackets and backslashes, seeded. */
function hostile(length: number, seed: number): string {
  const pieces = ['"', '"a', '{', '[', '}', ']', '\\', '\\"', ':', ',', ' ', 'x', '1', '\\n'];
  const random = seededRandom(seed);
  const parts = ['{"a": "'];
  let size = parts[0]!.length;
  while (size < length) {
    const piece = random.pick(pieces);
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('').slice(0, length);
}

function refusalCpu(text: string): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    best = Math.min(
      best,
      cpuMillisecondsOf(() => {
        try {
          parseArguments(text, 'safe', LIMITS, TARGET);
        } catch {
          // refused: what is timed
        }
      }),
    );
  }
  return best;
}

describe('the reading search stays bounded', () => {
  it('refuses a 1 MiB hostile text in under 100 ms of CPU, for several seeds', () => {
    for (const seed of [1, 2, 3]) {
      const text = hostile(1 << 20, seed);
      expect(() => parseArguments(text, 'safe', LIMITS, TARGET)).toThrow();
      expect([seed, refusalCpu(text) < 100]).toEqual([seed, true]);
    }
  });

  it('spends CPU time linear in the text: four times the text, at most eight times the time', () => {
    for (const seed of [4, 5]) {
      const quarter = refusalCpu(hostile(1 << 18, seed));
      const whole = refusalCpu(hostile(1 << 20, seed));
      // A floor of 2 ms keeps timer noise on a tiny quarter from failing the ratio.
      expect([seed, whole / Math.max(quarter, 2)]).toEqual([seed, expect.any(Number)]);
      expect(whole / Math.max(quarter, 2)).toBeLessThan(8);
    }
  });

  it('bounds the search on the longest texts it reads (many places for an edit, a failure at the end)', () => {
    const strings = `{"a": [${'"x", '.repeat(800)} "b" "c"]}`;
    const numbers = `{"a": [${'1, '.repeat(1300)} 2 3]}`;
    for (const text of [strings, numbers, hostile(4000, 6), hostile(4000, 7)]) {
      expect(() => parseArguments(text, 'safe', LIMITS, TARGET)).toThrow();
      expect(refusalCpu(text)).toBeLessThan(250);
    }
  });
});
