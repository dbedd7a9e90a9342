/**
 * Where a bracketed value written in a model's text ends: `{...}`, `[...]` or `(...)` with JSON and Python strings
 * (`"..."`, `'...'`, triple-quoted) skipped, so a bracket or quote inside a string never counts. One left-to-right
 * pass, no recursion: linear in the text.
 */

const QUOTE = 34; // "
const APOSTROPHE = 39; // '
const BACKSLASH = 92;
const NEWLINE = 10;

/** The closer of an opening bracket's code (`{` `[` `(`), or 0 when the code opens nothing. */
function closerOf(code: number): number {
  return code === 123 ? 125 : code === 91 ? 93 : code === 40 ? 41 : 0;
}

function isCloser(code: number): boolean {
  return code === 125 || code === 93 || code === 41;
}

/** The end of the quoted string opening at `start` (exclusive), or -1 when the text ends inside it. */
export function stringEnd(text: string, start: number): number {
  const quote = text.charCodeAt(start);
  if (text.charCodeAt(start + 1) === quote && text.charCodeAt(start + 2) === quote) {
    const closer = text.slice(start, start + 3);
    for (let index = start + 3; index < text.length; index += 1) {
      if (text.charCodeAt(index) === BACKSLASH) {
        index += 1;
        continue;
      }
      if (text.startsWith(closer, index)) return index + 3;
    }
    return -1;
  }
  if (quote === QUOTE) {
    // The next `"` (a native search, not a loop over each character) ends the string unless a backslash escapes it: an
    // odd run of backslashes just before it (a backslash escapes the character after it, so a run of them pairs up
    // from its start, which the opening quote bounds).
    for (let at = text.indexOf('"', start + 1); at >= 0; at = text.indexOf('"', at + 1))
      if (!isEscaped(text, at, start)) return at + 1;
    return -1;
  }
  for (let index = start + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) {
      index += 1;
      continue;
    }
    if (code === quote) return index + 1;
    if (code === NEWLINE && quote === APOSTROPHE) return -1;
  }
  return -1;
}

/** Whether the character at `at` follows an odd run of backslashes (that begins after `floor`). */
function isEscaped(text: string, at: number, floor: number): boolean {
  let before = at - 1;
  while (before > floor && text.charCodeAt(before) === BACKSLASH) before -= 1;
  return (at - 1 - before) % 2 === 1;
}

/**
 * The ends of the bracketed values of one text, found by scans that record every opener they pass outside a string:
 * a value opening inside another value's scan (outside its strings) reads exactly as that scan read it, so it is
 * never scanned again. Nested and unclosed openers (`{"name": {"name": ...` written a thousand times) then cost one
 * pass instead of one pass each. The ends are kept in one typed array over the text (0: not scanned yet, -1: does not
 * close), taken at the first question: a hundred thousand openers cost no map entries and no objects. The array is
 * handed to the next reading when this one ends, its written part cleared (a fresh megabyte-sized array costs more to
 * allocate and fault in than the whole scan of a text of calls). What readers read at an offset is found the same way
 * (an index per offset into a list), not by a map keyed by the offset.
 */
class Extents {
  private ends: Int32Array | undefined;
  /** the part of {@link ends} written (cleared when the reading ends) */
  private low = Number.MAX_SAFE_INTEGER;
  private high = -1;
  /** what a reader read at an offset (see {@link remember}): 1 + its index in {@link readValues}, 0 for nothing */
  private readAt: Int32Array | undefined;
  private readonly readValues: unknown[] = [];
  /** the offsets written in {@link readAt} (cleared one by one: a text of calls has a few per thousand characters) */
  private readonly readStarts: number[] = [];

  constructor(readonly text: string) {}

  recall(start: number): unknown {
    const at = this.readAt === undefined ? 0 : (this.readAt[start] as number);
    return at === 0 ? undefined : this.readValues[at - 1];
  }

  remember(start: number, value: unknown): void {
    this.readAt ??= takeArray(this.text.length);
    this.readValues.push(value);
    this.readAt[start] = this.readValues.length;
    this.readStarts.push(start);
  }

  end(start: number): number {
    this.ends ??= takeArray(this.text.length);
    const known = this.ends[start] as number;
    if (known !== 0) return known;
    this.scan(start, this.ends);
    return (this.ends[start] as number) || -1;
  }

  /** Gives the arrays back, cleared, for the next reading. */
  release(): void {
    if (this.ends !== undefined) {
      if (this.high >= this.low) this.ends.fill(0, this.low, this.high + 1);
      giveBack(this.ends);
    }
    if (this.readAt !== undefined) {
      for (let at = 0; at < this.readStarts.length; at += 1) this.readAt[this.readStarts[at] as number] = 0;
      giveBack(this.readAt);
    }
    this.ends = this.readAt = undefined;
  }

  /** One left-to-right pass from `start` until its value closes (or cannot), recording each opener's end. */
  private scan(start: number, ends: Int32Array): void {
    const { text } = this;
    if (start < this.low) this.low = start;
    // The openers still open: one stack for every scan (a scan runs to its end before another begins), its height
    // counted here (emptying an array by its length would give its storage back, to be grown again by the next scan).
    const open = OPEN_STACK;
    let height = 0;
    let failed = true;
    let index = start;
    for (; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code === QUOTE || code === APOSTROPHE) {
        const end = stringEnd(text, index);
        if (end < 0) break;
        index = end - 1;
        continue;
      }
      if (closerOf(code) !== 0) {
        open[height++] = index;
        continue;
      }
      if (isCloser(code)) {
        if (height === 0) {
          failed = false;
          break;
        }
        const top = open[--height] as number;
        if (closerOf(text.charCodeAt(top)) !== code) {
          ends[top] = -1;
          break;
        }
        ends[top] = index + 1;
        if (height === 0) {
          failed = false;
          break;
        }
      }
    }
    if (failed) for (let at = 0; at < height; at += 1) ends[open[at] as number] = -1;
    // Every write was at an opener from `start` to `index` (the scan's last character).
    if (index > this.high) this.high = index;
  }
}

/** Cleared arrays left by earlier readings (two: a reading takes one for its ends and one for its reads). */
const spares: Int32Array[] = [];

/** An array of at least `length` zeros: a spare one when one is long enough. */
function takeArray(length: number): Int32Array {
  const at = spares.findIndex((spare) => spare.length >= length);
  return at < 0 ? new Int32Array(length) : (spares.splice(at, 1)[0] as Int32Array);
}

/** Keeps a cleared array for the next reading (the two longest kept). */
function giveBack(array: Int32Array): void {
  spares.push(array);
  spares.sort((a, b) => b.length - a.length);
  spares.length = Math.min(spares.length, 2);
}

const OPEN_STACK: number[] = [];

/**
 * The extents of the text being read (set by the framework for the duration of one reading, see
 * {@link readingText}). Keyed by the text object itself: a cache keyed by content would compare whole texts.
 */
let extents: Extents | undefined;

/** Runs `read` with the extents of `text` remembered across every dialect's scan of it. */
export function readingText<T>(text: string, read: () => T): T {
  const outer = extents;
  const current = new Extents(text);
  extents = current;
  try {
    return read();
  } finally {
    extents = outer;
    current.release();
  }
}

/**
 * What was read at `start` of the text being read ({@link remember}), or undefined: several dialects look at the same
 * value (Hermes' `<tool_call>` body and the marker-less JSON dialect, a marked list and xLAM), and reading it again
 * would double the work on a text of many calls.
 */
export function recall<T>(text: string, start: number): T | undefined {
  return extents === undefined || extents.text !== text ? undefined : (extents.recall(start) as T | undefined);
}

/**
 * Remembers what was read at `start` of the text being read, for the rest of the reading, and returns it. It must be a
 * pure function of the text and `start`, and must not be changed by its users (one block keeps a region: two dialects
 * never both return it).
 */
export function remember<T>(text: string, start: number, value: T): T {
  if (extents !== undefined && extents.text === text) extents.remember(start, value);
  return value;
}

/**
 * The end (exclusive) of the bracketed value opening at `start`; -1 when the text ends before it closes (a cut-off
 * value) or a closer does not match its opener.
 */
export function bracketedEnd(text: string, start: number): number {
  // `===` on the very text object the reading began with is a pointer check; another text is scanned uncached.
  if (closerOf(text.charCodeAt(start)) === 0 || extents === undefined || extents.text.length !== text.length)
    return scanEnd(text, start);
  if (extents.text !== text) return scanEnd(text, start);
  return extents.end(start);
}

/** The end without the cache (and for a start that is not an opener: the scan skips to the first opener). */
function scanEnd(text: string, start: number): number {
  const expected: number[] = [];
  for (let index = start; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE || code === APOSTROPHE) {
      const end = stringEnd(text, index);
      if (end < 0) return -1;
      index = end - 1;
      continue;
    }
    const closer = closerOf(code);
    if (closer !== 0) {
      expected.push(closer);
      continue;
    }
    if (isCloser(code)) {
      if (expected.pop() !== code) return -1;
      if (expected.length === 0) return index + 1;
    }
  }
  return -1;
}
