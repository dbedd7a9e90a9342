/**
 * JSON values written in a model's text, read with the executor's own tolerant reader (core's `readJsonLike`: the
 * lossless repairs it records, Python literals, and a refusal for everything with two readings), so a call read
 * from text carries exactly the values the executor would have read from the same arguments text.
 */
import { DEFAULT_LIMITS } from '@toolwright/core';
import { isUnsafeIntegerLiteral, readJsonLike } from '@toolwright/core/internal';
import { bracketedEnd } from './extent';

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
  if (end < 0) return { ok: false, reason: CUT_OFF, end: text.length, cutOff: true };
  return readJsonText(text.slice(start, end), start, end);
}

/** A whole text (already cut to the value's extent) read as one JSON-like value. */
export function readJsonText(source: string, start: number, end: number): JsonRead {
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

/** The reason text for a value that runs to the end of the text. */
export const CUT_OFF_REASON = CUT_OFF;

/** One literal written alone (`3`, `"x"`, `true`, `None`, `[1, 2]`): its value, or why it is not exactly one. */
export function readLiteral(source: string): { readonly value: unknown } | { readonly reason: string } {
  const text = source.trim();
  if (text === '') return { reason: 'the value is empty' };
  const read = readJsonText(`[${text}]`, 0, text.length + 2);
  if (!read.ok) return { reason: read.reason };
  if (!Array.isArray(read.value) || read.value.length !== 1) return { reason: 'the text is not one value' };
  return { value: read.value[0] };
}
