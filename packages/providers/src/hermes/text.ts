/**
 * Text helpers for the Qwen/Hermes format: finding JSON objects inside free text, and JSON rendered the way the
 * chat templates' `tojson` renders it (Python's `json.dumps` separators `", "` and `": "`).
 */

import { isJsonHexDigit, isJsonWhitespace, jsonEscapeCharacter, JSON_NUMBER } from '@toolwright/core/internal';

export interface FoundJsonObject {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/**
 * The ends (exclusive) of the balanced `{...}` at each opener of one text, strings respected; -1 when it never closes.
 * A scan from one opener records the end of every opener it passes outside a string, so nested openers are not
 * scanned again (a scan per opener would be quadratic in the nesting).
 */
class BalancedEnds {
  private readonly ends: Int32Array;

  constructor(private readonly text: string) {
    this.ends = new Int32Array(text.length);
  }

  end(start: number): number {
    if (this.ends[start] === 0) this.scan(start);
    return this.ends[start] as number;
  }

  private scan(start: number): void {
    const { text, ends } = this;
    const open: number[] = [];
    let inString = false;
    for (let index = start; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (inString) {
        if (code === BACKSLASH) index += 1;
        else if (code === QUOTE) inString = false;
        continue;
      }
      if (code === QUOTE) inString = true;
      else if (code === OPEN_BRACE) open.push(index);
      else if (code === CLOSE_BRACE) {
        ends[open.pop() as number] = index + 1;
        if (open.length === 0) return;
      }
    }
    for (const at of open) ends[at] = -1;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** Core's JSON number, matched where a value starts (sticky) instead of as a whole text. */
const JSON_NUMBER_AT = new RegExp(JSON_NUMBER.source.slice(1, -1), 'y');

function skipJsonBlank(text: string, index: number): number {
  let at = index;
  while (isJsonWhitespace(text.charCodeAt(at))) at += 1;
  return at;
}

/** The end of the JSON string at `start` (its `"`), or -1 when it is not one (a raw control character, a bad escape). */
function jsonStringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) return index + 1;
    if (code < 32) return -1;
    if (code !== BACKSLASH) continue;
    const escaped = text.charCodeAt(index + 1);
    if (escaped === 117) {
      for (let digit = index + 2; digit < index + 6; digit += 1) if (!isJsonHexDigit(text.charCodeAt(digit))) return -1;
      index += 5;
    } else if (jsonEscapeCharacter(escaped) !== undefined) index += 1;
    else return -1;
  }
  return -1;
}

/** The end of the JSON literal or number at `index` (not a container), or -1. */
function jsonScalarEnd(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === QUOTE) return jsonStringEnd(text, index);
  if (code === 116 || code === 102 || code === 110) {
    const literal = code === 116 ? 'true' : code === 102 ? 'false' : 'null';
    return text.startsWith(literal, index) ? index + literal.length : -1;
  }
  JSON_NUMBER_AT.lastIndex = index;
  return JSON_NUMBER_AT.test(text) ? JSON_NUMBER_AT.lastIndex : -1;
}

/**
 * Where the object at `start` ends when it is one JSON value (what JSON.parse reads), else -1: one pass of JSON's
 * grammar that records the same answer for every object it opens (its end when it closes; -1 when the text fails
 * while it is open, since read alone it fails at the same character). A text of nested objects that are not JSON is
 * then read once, not once per opener, and JSON.parse runs only on objects that parse.
 */
function jsonObjectEnd(text: string, start: number, known: Map<number, number>): number {
  const stack: number[] = []; // the openers of the open containers
  const fail = () => {
    for (const at of stack) if (text.charCodeAt(at) === OPEN_BRACE) known.set(at, -1);
    return -1;
  };
  let index = start;
  let expectKey = false;
  for (;;) {
    // A value (after `{` or `,` in an object: a key and its colon first).
    index = skipJsonBlank(text, index);
    if (expectKey) {
      if (text.charCodeAt(index) !== QUOTE) return fail();
      index = skipJsonBlank(text, jsonStringEnd(text, index));
      if (index < 0 || text.charCodeAt(index) !== 58) return fail(); // :
      index = skipJsonBlank(text, index + 1);
      expectKey = false;
    }
    const code = text.charCodeAt(index);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      stack.push(index);
      index = skipJsonBlank(text, index + 1);
      if (text.charCodeAt(index) !== (code === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
        expectKey = code === OPEN_BRACE;
        continue;
      }
    } else {
      const end = jsonScalarEnd(text, index);
      if (end < 0) return fail();
      index = skipJsonBlank(text, end);
    }
    // After a value: a `,`, or the closers of the containers it completes.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return fail();
      const closer = text.charCodeAt(top) === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      const next = text.charCodeAt(index);
      if (next === 44) {
        index += 1; // ,
        expectKey = closer === CLOSE_BRACE;
        break;
      }
      if (next !== closer) return fail();
      stack.pop();
      index += 1;
      if (closer === CLOSE_BRACE) known.set(top, index);
      if (stack.length === 0) return index;
      index = skipJsonBlank(text, index);
    }
  }
}

/**
 * Every top-level JSON object in a text (prose, fenced blocks), in order. Text that does not parse is skipped: the
 * search goes on from the next `{` (an object inside it may parse); an opener that never closes ends the search.
 * Linear in the text: each opener's extent and validity come from one pass over the object around it.
 */
export function findJsonObjects(text: string): FoundJsonObject[] {
  const found: FoundJsonObject[] = [];
  const balanced = new BalancedEnds(text);
  const known = new Map<number, number>();
  let position = 0;
  while (position < text.length) {
    const start = text.indexOf('{', position);
    if (start < 0) break;
    const end = balanced.end(start);
    if (end < 0) break;
    if ((known.get(start) ?? jsonObjectEnd(text, start, known)) === end) {
      try {
        found.push({ value: JSON.parse(text.slice(start, end)) as unknown, start, end });
        position = end;
        continue;
      } catch {
        // not JSON after all: skipped, as a text that does not parse
      }
    }
    position = start + 1;
  }
  return found;
}

/** JSON with Python's default separators, as `tojson` writes it in the Qwen and Hermes chat templates. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => pythonJsonDumps(item === undefined ? null : item)).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJsonDumps(item)}`).join(', ')}}`;
}
