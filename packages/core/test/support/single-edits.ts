/**
 * Every one-character edit of each base string (the base itself, then each position deleted, replaced by and inserted
 * with each of `characters`): the near misses a validator's differential test walks exhaustively.
 */
export function* singleEdits(bases: readonly string[], characters: readonly string[]): Generator<string> {
  for (const base of bases) {
    yield base;
    for (let at = 0; at <= base.length; at++) {
      if (at < base.length) yield base.slice(0, at) + base.slice(at + 1);
      for (const character of characters) {
        if (at < base.length) yield base.slice(0, at) + character + base.slice(at + 1);
        yield base.slice(0, at) + character + base.slice(at);
      }
    }
  }
}
