/**
 * mulberry32: a small seeded generator for tests that walk their own inputs (every run sees the same ones), with the
 * helpers they use: an integer below a count, an item of a list, an event of a probability.
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const below = (count: number) => Math.floor(next() * count);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  const chance = (probability: number) => next() < probability;
  return { below, pick, chance };
}

export type SeededRandom = ReturnType<typeof seededRandom>;
