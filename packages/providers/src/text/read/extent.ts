/**
 * Where a bracketed value written in a model's text ends: `{...}`, `[...]` or `(...)` with JSON and Python strings
 * (`"..."`, `'...'`, triple-quoted) skipped, so a bracket or quote inside a string never counts. One left-to-right
 * pass, no recursion: linear in the text.
 */

const CLOSERS: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')' };

/** The end of the quoted string opening at `start` (exclusive), or -1 when the text ends inside it. */
export function stringEnd(text: string, start: number): number {
  const quote = text[start] as string;
  const triple = text.startsWith(quote.repeat(3), start);
  const closer = triple ? quote.repeat(3) : quote;
  for (let index = start + closer.length; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') {
      index += 1;
      continue;
    }
    if (!triple && character === '\n' && quote === "'") return -1;
    if (text.startsWith(closer, index)) return index + closer.length;
  }
  return -1;
}

/**
 * The ends of the bracketed values of one text, found by scans that record every opener they pass outside a string:
 * a value opening inside another value's scan (outside its strings) reads exactly as that scan read it, so it is
 * never scanned again. Nested and unclosed openers (`{"name": {"name": ...` written a thousand times) then cost one
 * pass instead of one pass each.
 */
class Extents {
  private readonly ends = new Map<number, number>();

  constructor(readonly text: string) {}

  end(start: number): number {
    const known = this.ends.get(start);
    if (known !== undefined) return known;
    this.scan(start);
    return this.ends.get(start) ?? -1;
  }

  /** One left-to-right pass from `start` until its value closes (or cannot), recording each opener's end. */
  private scan(start: number): void {
    const { text } = this;
    const open: { closer: string; at: number }[] = [];
    const fail = () => {
      for (const opener of open) this.ends.set(opener.at, -1);
    };
    for (let index = start; index < text.length; index += 1) {
      const character = text[index] as string;
      if (character === '"' || character === "'") {
        const end = stringEnd(text, index);
        if (end < 0) return fail();
        index = end - 1;
        continue;
      }
      const closer = CLOSERS[character];
      if (closer !== undefined) {
        open.push({ closer, at: index });
        continue;
      }
      if (character === '}' || character === ']' || character === ')') {
        const top = open.pop();
        if (top === undefined) return;
        if (top.closer !== character) {
          this.ends.set(top.at, -1);
          return fail();
        }
        this.ends.set(top.at, index + 1);
        if (open.length === 0) return;
      }
    }
    fail();
  }
}

/**
 * The extents of the text being read (set by the framework for the duration of one reading, see
 * {@link readingText}). Keyed by the text object itself: a cache keyed by content would compare whole texts.
 */
let extents: Extents | undefined;

/** Runs `read` with the extents of `text` remembered across every dialect's scan of it. */
export function readingText<T>(text: string, read: () => T): T {
  const outer = extents;
  extents = new Extents(text);
  try {
    return read();
  } finally {
    extents = outer;
  }
}

/**
 * The end (exclusive) of the bracketed value opening at `start`; -1 when the text ends before it closes (a cut-off
 * value) or a closer does not match its opener.
 */
export function bracketedEnd(text: string, start: number): number {
  // `===` on the very text object the reading began with is a pointer check; another text is scanned uncached.
  if (CLOSERS[text[start] as string] === undefined || extents === undefined || extents.text.length !== text.length)
    return scanEnd(text, start);
  if (extents.text !== text) return scanEnd(text, start);
  return extents.end(start);
}

/** The end without the cache (and for a start that is not an opener: the scan skips to the first opener). */
function scanEnd(text: string, start: number): number {
  const expected: string[] = [];
  for (let index = start; index < text.length; index += 1) {
    const character = text[index] as string;
    if (character === '"' || character === "'") {
      const end = stringEnd(text, index);
      if (end < 0) return -1;
      index = end - 1;
      continue;
    }
    const closer = CLOSERS[character];
    if (closer !== undefined) {
      expected.push(closer);
      continue;
    }
    if (character === '}' || character === ']' || character === ')') {
      if (expected.pop() !== character) return -1;
      if (expected.length === 0) return index + 1;
    }
  }
  return -1;
}
