/**
 * Calls written as Python call expressions (`get_weather(city='Paris', days=3)`, a list of them, BFCL's and Llama
 * 3.2/4's pythonic form, Gemma's `tool_code`). The call syntax (name, parentheses, `key=` and the commas) is read
 * here; each argument value is read by the executor's own tolerant reader (core's `readJsonLike`: Python literals,
 * True/False/None, single and triple quotes, tuples, nested lists and dicts), so values read from a pythonic call
 * are exactly the values the executor reads from the same literal. Positional arguments are refused (which
 * parameter they fill would be a guess). See docs/decisions/0025-text-tool-call-readers.md.
 */
import { refusal, type DialectCall } from '../dialect';
import { defineArgument } from '../raw-values';
import { bracketedEnd, stringEnd } from './extent';
import { readLiteral } from './json';
import { skipBlank } from './tags';

/** Python 3 identifiers are unicode (`año_vehiculo`); a tool name may hold dots and dashes. */
const NAME = /[\p{ID_Start}_][\p{ID_Continue}.-]*/uy;
const KEY = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
const NAME_START = /^[\p{ID_Start}_]/u;
const NAME_CHARACTER = /[\p{ID_Start}_]/u;
const LEADING_SEPARATORS = /^[\s,)]+/;

export type PythonCallRead =
  | { readonly ok: true; readonly call: DialectCall; readonly end: number }
  | {
      readonly ok: false;
      readonly name?: string;
      readonly reason: string;
      readonly end: number;
      readonly cutOff: boolean;
    };

/** The name of a call expression at `position` (`name(`), or undefined. */
export function callNameAt(text: string, position: number): string | undefined {
  const end = nameEnd(text, position);
  if (end < 0) return undefined;
  return text[skipBlank(text, end)] === '(' ? text.slice(position, end) : undefined;
}

// `test` and the expression's `lastIndex`, not `exec`: a text of many calls would build a match array per name and key.

/** Where the call name at `position` ends, or -1 when none starts there. */
function nameEnd(text: string, position: number): number {
  NAME.lastIndex = position;
  return NAME.test(text) ? NAME.lastIndex : -1;
}

/** Where the argument key at `position` ends, or -1 when none starts there. */
function keyEnd(text: string, position: number): number {
  KEY.lastIndex = position;
  return KEY.test(text) ? KEY.lastIndex : -1;
}

/** Where an argument value starting at `position` ends: at the `,` or `)` that closes it, strings and brackets skipped. */
function valueEnd(text: string, position: number): number {
  let index = position;
  while (index < text.length) {
    const character = text[index] as string;
    if (character === ',' || character === ')') return index;
    if (character === '"' || character === "'") {
      const end = stringEnd(text, index);
      if (end < 0) return -1;
      index = end;
      continue;
    }
    if (character === '(' || character === '[' || character === '{') {
      const end = bracketedEnd(text, index);
      if (end < 0) return -1;
      index = end;
      continue;
    }
    if (character === ']' || character === '}') return -1;
    index += 1;
  }
  return -1;
}

function cutOff(name: string | undefined, reason: string, text: string): PythonCallRead {
  return name === undefined
    ? { ok: false, reason, end: text.length, cutOff: true }
    : { ok: false, name, reason, end: text.length, cutOff: true };
}

/** The call expression at `start` (`name(key=value, ...)`). */
export function readPythonCall(text: string, start: number): PythonCallRead {
  const afterName = nameEnd(text, start);
  if (afterName < 0) return { ok: false, reason: 'no call name', end: start, cutOff: false };
  const name = text.slice(start, afterName);
  let position = skipBlank(text, afterName);
  if (text[position] !== '(') return { ok: false, name, reason: 'no argument list', end: position, cutOff: false };
  position += 1;
  const argumentsObject: Record<string, unknown> = {};
  for (;;) {
    position = skipBlank(text, position);
    if (position >= text.length) return cutOff(name, 'the call is cut off before its closing parenthesis', text);
    if (text[position] === ')') return { ok: true, call: { name, arguments: argumentsObject }, end: position + 1 };
    const afterKey = keyEnd(text, position);
    const equals = afterKey >= 0 ? skipBlank(text, afterKey) : position;
    if (afterKey < 0 || text[equals] !== '=' || text[equals + 1] === '=') {
      const end = valueEnd(text, position);
      if (end < 0) return cutOff(name, 'the call is cut off inside an argument', text);
      return {
        ok: false,
        name,
        reason: `positional argument ${JSON.stringify(text.slice(position, end).trim())}: which parameter it fills would be a guess; name each argument (key=value)`,
        end,
        cutOff: false,
      };
    }
    const key = text.slice(position, afterKey);
    const valueStart = skipBlank(text, equals + 1);
    const end = valueEnd(text, valueStart);
    if (end < 0) return cutOff(name, `the value of "${key}" is cut off`, text);
    const source = text.slice(valueStart, end).trim();
    if (source === '') return { ok: false, name, reason: `"${key}" has no value`, end, cutOff: false };
    const read = readLiteral(source);
    if ('reason' in read)
      return {
        ok: false,
        name,
        reason: `the value of "${key}" (${source.slice(0, 80)}) is not a Python literal: ${read.reason}`,
        end,
        cutOff: false,
      };
    if (Object.hasOwn(argumentsObject, key))
      return { ok: false, name, reason: `the argument "${key}" is given twice`, end, cutOff: false };
    defineArgument(argumentsObject, key, read.value);
    position = text[end] === ',' ? end + 1 : end;
  }
}

export interface PythonListRead {
  readonly calls: DialectCall[];
  readonly rejected: { readonly name?: string; readonly reason: string; readonly text: string }[];
  readonly end: number;
}

/**
 * Call expressions separated by commas (inside `[...]`) or by blanks, from `start` until `closer` (or the end).
 * `closerAt` finds the next closer at or after an offset: a dialect reading many lists of one text passes one that
 * remembers its last search (`indexFinder`), so a closer missing from the rest of the text is searched for once,
 * not once per list.
 */
export function readPythonCalls(
  text: string,
  start: number,
  closer: string | undefined,
  closerAt: (from: number) => number = (from) => (closer === undefined ? -1 : text.indexOf(closer, from)),
): PythonListRead {
  const calls: DialectCall[] = [];
  const rejected: PythonListRead['rejected'] = [];
  let position = start;
  for (;;) {
    position = skipBlank(text, position);
    if (closer !== undefined && text.startsWith(closer, position))
      return { calls, rejected, end: position + closer.length };
    if (position >= text.length) {
      if (closer !== undefined)
        rejected.push({ reason: `the list of calls is cut off before "${closer}"`, text: text.slice(start) });
      return { calls, rejected, end: text.length };
    }
    const read = readPythonCall(text, position);
    if (!read.ok) {
      rejected.push(refusal(read.name, read.reason, text.slice(position, read.end)));
      if (read.cutOff || read.end <= position) return { calls, rejected, end: read.cutOff ? text.length : position };
      position = read.end;
      const skip = closerAt(position);
      // After an unreadable call, where the next one starts has no sure reading: the rest is reported, never read.
      const rest = text.slice(position, skip < 0 ? position : skip).replace(LEADING_SEPARATORS, '');
      if (NAME_CHARACTER.test(rest))
        rejected.push({ reason: 'a call after an unreadable one in the same list is not read', text: rest });
      return { calls, rejected, end: skip < 0 ? position : skip + (closer?.length ?? 0) };
    }
    calls.push(read.call);
    position = skipBlank(text, read.end);
    if (text[position] === ',') position += 1;
    else if (closer === undefined && !NAME_START.test(text.slice(position, position + 2)))
      return { calls, rejected, end: position };
  }
}
