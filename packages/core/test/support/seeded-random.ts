/** mulberry32, the bare generator: a number in [0, 1) per call, the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seeded generator for tests that walk their own inputs (every run sees the same ones), with the helpers they use:
 * an integer below a count, an item of a list, an event of a probability.
 */
export function seededRandom(seed: number) {
  const next = mulberry32(seed);
  const below = (count: number) => Math.floor(next() * count);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  const chance = (probability: number) => next() < probability;
  return { below, pick, chance };
}

export type SeededRandom = ReturnType<typeof seededRandom>;
