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

/**
 * The ends of the bracketed values of one text, found by scans that record every opener they pass outside a string:
 * a value opening inside another value's scan (outside its strings) reads exactly as that scan read it, so it is
 * never scanned again. Nested and unclosed openers (`{"name": {"name": ...` written a thousand times) then cost one
 * pass instead of one pass each. The ends are kept in one typed array over the text (0: not scanned yet, -1: does not
 * close), allocated at the first question: a hundred thousand openers cost no map entries and no objects.
 */
class Extents {
  private ends: Int32Array | undefined;
  /** what a reader read at an offset (see {@link readOnce}) */
  readonly reads = new Map<number, unknown>();

  constructor(readonly text: string) {}

  end(start: number): number {
    this.ends ??= new Int32Array(this.text.length);
    const known = this.ends[start] as number;
    if (known !== 0) return known;
    this.scan(start, this.ends);
    return (this.ends[start] as number) || -1;
  }

  /** One left-to-right pass from `start` until its value closes (or cannot), recording each opener's end. */
  private scan(start: number, ends: Int32Array): void {
    const { text } = this;
    const open: number[] = [];
    const fail = () => {
      for (const at of open) ends[at] = -1;
    };
    for (let index = start; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code === QUOTE || code === APOSTROPHE) {
        const end = stringEnd(text, index);
        if (end < 0) return fail();
        index = end - 1;
        continue;
      }
      if (closerOf(code) !== 0) {
        open.push(index);
        continue;
      }
      if (isCloser(code)) {
        const top = open.pop();
        if (top === undefined) return;
        if (closerOf(text.charCodeAt(top)) !== code) {
          ends[top] = -1;
          return fail();
        }
        ends[top] = index + 1;
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
 * What `read` reads at `start` of the text being read, read once per reading: several dialects look at the same
 * value (Hermes' `<tool_call>` body and the marker-less JSON dialect, a marked list and xLAM), and reading it again
 * would double the work on a text of many calls. `read` must be a pure function of the text and `start`, and the
 * value it returns must not be changed by its users (one block keeps a region: two dialects never both return it).
 */
export function readOnce<T>(text: string, start: number, read: () => T): T {
  if (extents === undefined || extents.text !== text) return read();
  const known = extents.reads.get(start);
  if (known !== undefined) return known as T;
  const value = read();
  extents.reads.set(start, value);
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
