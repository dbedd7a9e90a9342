/**
 * JSON values written in a model's text, read with the executor's own tolerant reader (core's `readJsonLike`: the
 * lossless repairs it records, Python literals, and a refusal for everything with two readings), so a call read
 * from text carries exactly the values the executor would have read from the same arguments text.
 */
import { DEFAULT_LIMITS } from '@toolwright/core';
import {
  inspectParsedValue,
  isUnsafeIntegerLiteral,
  mayLoseInformation,
  readJsonLike,
} from '@toolwright/core/internal';
import { bracketedEnd, recall, remember } from './extent';

export type JsonRead =
  | { readonly ok: true; readonly value: unknown; readonly end: number }
  | { readonly ok: false; readonly reason: string; readonly end: number; readonly cutOff: boolean };

const CUT_OFF = 'the text ends before the value closes (a cut-off call is never completed)';

/** Whether a value holds an integer beyond 2^53 anywhere (its digits kept by the reader, not a number). */
function holdsUnsafeInteger(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isUnsafeIntegerLiteral(node)) return true;
    if (typeof node === 'object' && node !== null) stack.push(...Object.values(node));
  }
  return false;
}

/** The one JSON-like value (object or array) opening at `start`: its value and end, or why it cannot be read. */
export function readJsonValue(text: string, start: number): JsonRead {
  const end = bracketedEnd(text, start);
  // A value that never closes is known from its extent alone (kept for the reading): it is not remembered per offset,
  // so a run of openers without closers costs no entry each.
  if (end < 0) return { ok: false, reason: CUT_OFF, end: text.length, cutOff: true };
  const known = recall<JsonRead>(text, start);
  if (known !== undefined) return known;
  return remember(text, start, readJsonText(text.slice(start, end), start, end));
}

/** {@link parsedExactly}'s "the reader decides" (JSON.parse never returns a symbol). */
const NOT_EXACT = Symbol('not exact');

/**
 * JSON.parse's value of a text, when it is the value the tolerant reader reads from it: the text is valid JSON holding
 * one object or array, no key the reader drops, no array or nesting beyond a limit, no number beyond 2^53, and the
 * executor's own check finds no key given twice (the same decision, from the same facts, the executor makes before it
 * reads a text again: compact text is decided by its length, other text by counting its quotes or keys).
 * Most calls are written as valid JSON; JSON.parse reads them several times faster than the reader.
 */
function parsedExactly(source: string): unknown {
  const first = source.charCodeAt(0);
  if (first !== 123 && first !== 91) return NOT_EXACT; // `{` or `[`: the reader reads objects and arrays only
  // A refusal costs JSON.parse more than the reader's whole reading (it builds a SyntaxError quoting the text): text
  // that opens the way Python's `repr` does (`{'name': ..`, `['Paris']`, `[True]`) goes to the reader directly.
  if (!opensAsJson(source)) return NOT_EXACT;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return NOT_EXACT;
  }
  const facts = inspectParsedValue(value, DEFAULT_LIMITS);
  if (facts.readerDiffers || facts.tooDeep || facts.unsafeNumber) return NOT_EXACT;
  return mayLoseInformation(source, value, facts) ? NOT_EXACT : value;
}

/** A whole text (already cut to the value's extent) read as one JSON-like value. */
export function readJsonText(source: string, start: number, end: number): JsonRead {
  const parsed = parsedExactly(source);
  if (parsed !== NOT_EXACT) return { ok: true, value: parsed, end: start + trimmedLength(source) };
  try {
    const document = readJsonLike(source, DEFAULT_LIMITS);
    const [first] = document.values;
    if (first === undefined || document.values.length !== 1 || document.textOutside)
      return { ok: false, reason: 'the text is not one JSON value', end, cutOff: false };
    if (holdsUnsafeInteger(first.value))
      return {
        ok: false,
        reason: 'it holds an integer beyond 2^53 - 1, which no JavaScript number holds exactly',
        end,
        cutOff: false,
      };
    return { ok: true, value: first.value, end: start + first.end };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason, end, cutOff: /cut off|truncat/i.test(reason) };
  }
}

/** Whether what follows the opening bracket (after blanks) may start JSON: a `"`, a digit, `-`, a bracket, a lowercase
 *  literal's first letter, or the closing bracket. */
function opensAsJson(source: string): boolean {
  let index = 1;
  while (index < source.length && isJsonBlank(source.charCodeAt(index))) index += 1;
  const code = source.charCodeAt(index);
  return (
    code === 34 || // "
    (code >= 48 && code <= 57) ||
    code === 45 || // -
    code === 91 || // [
    code === 93 || // ]
    code === 123 || // {
    code === 125 || // }
    code === 116 || // t
    code === 102 || // f
    code === 110 // n
  );
}

/** The length of a text without its trailing blanks (where its value ends). */
function trimmedLength(source: string): number {
  let length = source.length;
  while (length > 0 && isJsonBlank(source.charCodeAt(length - 1))) length -= 1;
  return length;
}

function isJsonBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** The reason text for a value that runs to the end of the text. */
export const CUT_OFF_REASON = CUT_OFF;

/** One literal written alone (`3`, `"x"`, `true`, `None`, `[1, 2]`): its value, or why it is not exactly one. */
export function readLiteral(source: string): { readonly value: unknown } | { readonly reason: string } {
  const text = source.trim();
  if (text === '') return { reason: 'the value is empty' };
  const plain = plainQuoted(text);
  if (plain !== undefined) return { value: plain };
  const known = literals.get(text);
  if (known !== undefined) return known;
  const read = readJsonText(`[${text}]`, 0, text.length + 2);
  const outcome = !read.ok
    ? { reason: read.reason }
    : !Array.isArray(read.value) || read.value.length !== 1
      ? { reason: 'the text is not one value' }
      : { value: read.value[0] as unknown };
  const value = 'value' in outcome ? outcome.value : undefined;
  if (text.length <= MAX_REMEMBERED_LITERAL && (typeof value !== 'object' || value === null)) {
    if (literals.size >= MAX_REMEMBERED_LITERALS) literals.clear();
    literals.set(text, outcome);
  }
  return outcome;
}

/**
 * The readings of short literals whose value is not an object (`True`, `3`, `'a "b"'`): a pure function of the text,
 * with nothing a caller could change, so a literal a text repeats (calls with the same arguments) is read once. A few
 * hundred, cleared when full.
 */
const literals = new Map<string, { readonly value: unknown } | { readonly reason: string }>();
const MAX_REMEMBERED_LITERALS = 512;
const MAX_REMEMBERED_LITERAL = 80;

/**
 * The text of a string literal in single quotes holding no backslash, quote or control character (`'Paris'`, the
 * commonest Python literal): every reading of such a literal is its characters, so the reader's answer is known
 * without reading it (the tests compare the two). Undefined for any other literal.
 */
function plainQuoted(text: string): string | undefined {
  const last = text.length - 1;
  if (last < 1 || text.charCodeAt(0) !== 39 || text.charCodeAt(last) !== 39) return undefined;
  for (let index = 1; index < last; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 39 || code === 34 || code === 92 || code < 32) return undefined;
  }
  return text.slice(1, last);
}
