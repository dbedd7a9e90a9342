/**
 * Calls written as JSON, shared by the JSON-style dialects: a call object (`{"name": .., "arguments": ..}` and the
 * spellings dialects use for its keys), a list of them, and `arguments` given as a JSON string (OpenAI's wire form,
 * which some models copy) read into its object.
 */
import { isPlainObject } from '../../shared/json-schema';
import { NO_REFUSALS, refusal, type DialectCall, type DialectRefusal } from '../dialect';
import { readJsonText, readJsonValue } from './json';

/** The spellings of a call object's keys. */
export interface CallKeys {
  readonly name: readonly string[];
  readonly arguments: readonly string[];
}

export const NAME_AND_ARGUMENTS: CallKeys = { name: ['name'], arguments: ['arguments', 'parameters'] };

export type CallRead = { readonly call: DialectCall } | { readonly name?: string; readonly reason: string };

// Loops over the few spellings, not `find`/`filter` with a closure: a text of many calls reads one object per call.

function firstKey(value: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (let at = 0; at < keys.length; at += 1) if (Object.hasOwn(value, keys[at] as string)) return keys[at];
  return undefined;
}

function ownKeysAmong(value: Record<string, unknown>, keys: readonly string[]): number {
  let count = 0;
  for (let at = 0; at < keys.length; at += 1) if (Object.hasOwn(value, keys[at] as string)) count += 1;
  return count;
}

/** The call a JSON object spells, or why it is not one. */
export function callFromObject(value: unknown, keys: CallKeys = NAME_AND_ARGUMENTS): CallRead {
  if (!isPlainObject(value)) return { reason: 'the call is not a JSON object' };
  const nameKey = firstKey(value, keys.name);
  const name = nameKey === undefined ? undefined : value[nameKey];
  if (typeof name !== 'string' || name === '') return { reason: 'the call has no name' };
  const argumentsKey = firstKey(value, keys.arguments);
  if (argumentsKey !== undefined && ownKeysAmong(value, keys.arguments) > 1) {
    const present = keys.arguments.filter((key) => Object.hasOwn(value, key));
    return { name, reason: `the call gives its arguments twice (${present.join(' and ')})` };
  }
  const argumentsValue = argumentsKey === undefined ? {} : value[argumentsKey];
  if (isPlainObject(argumentsValue)) return { call: { name, arguments: argumentsValue } };
  if (typeof argumentsValue === 'string') {
    const text = argumentsValue.trim();
    if (text === '') return { call: { name, arguments: {} } };
    const read = text.startsWith('{') ? readJsonText(text, 0, text.length) : undefined;
    if (read?.ok && isPlainObject(read.value)) return { call: { name, arguments: read.value } };
    return { name, reason: `the arguments string is not one JSON object${read && !read.ok ? `: ${read.reason}` : ''}` };
  }
  if (argumentsValue === null) return { call: { name, arguments: {} } };
  return { name, reason: 'the arguments are not a JSON object' };
}

/** Whether a value looks like a call object: a name under one of the keys, and no keys beyond `allowed`. */
export function isCallShaped(value: unknown, keys: CallKeys, allowed: readonly string[] = []): boolean {
  if (!isPlainObject(value)) return false;
  const nameKey = firstKey(value, keys.name);
  if (nameKey === undefined || typeof value[nameKey] !== 'string') return false;
  for (const key in value)
    if (
      Object.hasOwn(value, key) &&
      !keys.name.includes(key) &&
      !keys.arguments.includes(key) &&
      !allowed.includes(key)
    )
      return false;
  return true;
}

export interface ListRead {
  readonly calls: DialectCall[];
  readonly rejected: readonly DialectRefusal[];
  readonly end: number;
  /** the list never closes: the text ends inside it */
  readonly cutOff: boolean;
}

/** How one item of a call list spells a call: its keys' spellings, or a reader of the item (Apertus' `{NAME: {..}}`). */
export type CallItemSyntax = CallKeys | ((item: unknown) => CallRead);

/** A JSON list of call objects (or one call object) opening at `start`. */
export function readCallList(text: string, start: number, syntax: CallItemSyntax = NAME_AND_ARGUMENTS): ListRead {
  const keys = typeof syntax === 'function' ? NAME_AND_ARGUMENTS : syntax;
  const read = readJsonValue(text, start);
  if (!read.ok) {
    const source = text.slice(start, read.end);
    return {
      calls: [],
      rejected: [{ name: nameIn(source, keys), reason: read.reason, text: source }],
      end: read.end,
      cutOff: read.cutOff,
    };
  }
  const calls: DialectCall[] = [];
  const rejected: DialectRefusal[] = [];
  const readItem = (item: unknown) => {
    const call = typeof syntax === 'function' ? syntax(item) : callFromObject(item, keys);
    if ('call' in call) calls.push(call.call);
    else rejected.push(refusal(call.name, call.reason, text.slice(start, read.end)));
  };
  if (Array.isArray(read.value)) for (let at = 0; at < read.value.length; at += 1) readItem(read.value[at]);
  else readItem(read.value);
  return { calls, rejected: rejected.length === 0 ? NO_REFUSALS : rejected, end: read.end, cutOff: false };
}

const namePatterns = new Map<string, RegExp>();

function namePattern(key: string): RegExp {
  let pattern = namePatterns.get(key);
  if (!pattern) {
    pattern = new RegExp(`["']${key}["']\\s*:\\s*["']([^"'\\\\]{1,200})["']`, 'g');
    namePatterns.set(key, pattern);
  }
  return pattern;
}

/** The first name a call text names from `from` on (under the first key spelling that has one), and where. */
export function nameMatch(
  text: string,
  from: number,
  keys: CallKeys = NAME_AND_ARGUMENTS,
): { readonly name: string; readonly index: number } | undefined {
  for (const key of keys.name) {
    const pattern = namePattern(key);
    pattern.lastIndex = from;
    const match = pattern.exec(text);
    if (match) return { name: match[1] as string, index: match.index };
  }
  return undefined;
}

/** The name a cut-off or unreadable call text starts with, for the rejection record. */
export function nameIn(source: string, keys: CallKeys = NAME_AND_ARGUMENTS): string | undefined {
  return nameMatch(source, 0, keys)?.name;
}
