/**
 * FunctionGemma: `<start_function_call>call:get_weather{city:<escape>Paris<escape>,days:3}<end_function_call>`, one
 * block per call (google/functiongemma-270m-it chat template and Google's FunctionGemma formatting guide; vLLM
 * `functiongemma_tool_parser.py`). Its own value syntax: keys bare, strings between `<escape>` tokens (as written,
 * nothing unescaped), numbers, `true`/`false`/`null` bare, `{k:v,..}` and `[v,..]` nested. A bare token that is not a
 * literal is refused (the reference parser drops it silently); an `<escape>` string stays a string (`42` between
 * `<escape>` tokens is `"42"`, which vLLM's parser JSON-decodes), for the executor to type by the schema.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { readLiteral } from '../read/json';
import { defineArgument } from '../raw-values';
import { indexFinder } from '../read/tags';

/** A key of FunctionGemma's object syntax: no bracket, brace, comma or angle bracket. */
const PLAIN_KEY = /^[^{}[\],<>]+$/;

const OPEN = /<start_function_call>call:([^{<\s]+)\{/g;
const CLOSE = '<end_function_call>';
const ESCAPE = '<escape>';
const MAX_DEPTH = 64;

type ValueRead =
  | { readonly ok: true; readonly value: unknown; readonly end: number }
  | { readonly ok: false; readonly reason: string; readonly cutOff: boolean };

const cutOff: ValueRead = { ok: false, reason: 'the call is cut off before its arguments close', cutOff: true };

/** The members of `{..}` (or items of `[..]`) from `position`, just past the opener, to the matching closer. */
function readContainer(text: string, position: number, closer: '}' | ']', depth: number): ValueRead {
  if (depth > MAX_DEPTH) return { ok: false, reason: `the arguments nest deeper than ${MAX_DEPTH}`, cutOff: false };
  const object: Record<string, unknown> = {};
  const list: unknown[] = [];
  let index = position;
  if (text[index] === closer) return { ok: true, value: closer === '}' ? object : list, end: index + 1 };
  for (;;) {
    if (closer === '}') {
      const colon = text.indexOf(':', index);
      if (colon < 0) return cutOff;
      const key = text.slice(index, colon);
      if (!PLAIN_KEY.test(key))
        return {
          ok: false,
          reason: `unexpected text ${JSON.stringify(key.slice(0, 40))} where a key should be`,
          cutOff: false,
        };
      const value = readValue(text, colon + 1, depth);
      if (!value.ok) return value;
      if (Object.hasOwn(object, key)) return { ok: false, reason: `the key "${key}" is given twice`, cutOff: false };
      defineArgument(object, key, value.value);
      index = value.end;
    } else {
      const value = readValue(text, index, depth);
      if (!value.ok) return value;
      list.push(value.value);
      index = value.end;
    }
    if (index >= text.length) return cutOff;
    if (text[index] === closer) return { ok: true, value: closer === '}' ? object : list, end: index + 1 };
    if (text[index] !== ',')
      return {
        ok: false,
        reason: `unexpected ${JSON.stringify(text.slice(index, index + 20))} in the arguments`,
        cutOff: false,
      };
    index += 1;
  }
}

function readValue(text: string, position: number, depth: number): ValueRead {
  if (text.startsWith(ESCAPE, position)) {
    const close = text.indexOf(ESCAPE, position + ESCAPE.length);
    if (close < 0) return cutOff;
    return { ok: true, value: text.slice(position + ESCAPE.length, close), end: close + ESCAPE.length };
  }
  if (text[position] === '{') return readContainer(text, position + 1, '}', depth + 1);
  if (text[position] === '[') return readContainer(text, position + 1, ']', depth + 1);
  let end = position;
  while (end < text.length && !',}]<'.includes(text[end] as string)) end += 1;
  if (end >= text.length) return cutOff;
  const literal = readLiteral(text.slice(position, end));
  if ('reason' in literal)
    return {
      ok: false,
      reason: `the bare value ${JSON.stringify(text.slice(position, end).slice(0, 40))} is not a literal (strings are written between <escape> tokens)`,
      cutOff: false,
    };
  return { ok: true, value: literal.value, end };
}

export const functionGemmaDialect: TextDialect = {
  name: 'functiongemma',
  find(text) {
    const blocks: DialectBlock[] = [];
    const nextClose = indexFinder(text, CLOSE);
    OPEN.lastIndex = 0;
    for (let match = OPEN.exec(text); match; match = OPEN.exec(text)) {
      const start = match.index;
      const name = match[1] as string;
      const read = readContainer(text, start + match[0].length, '}', 1);
      let end: number;
      if (!read.ok) {
        const close = read.cutOff ? -1 : nextClose(start);
        end = close < 0 ? text.length : close + CLOSE.length;
        blocks.push({ start, end, calls: [], rejected: [{ name, reason: read.reason, text: text.slice(start, end) }] });
      } else if (text.startsWith(CLOSE, read.end) || read.end >= text.length) {
        end = text.startsWith(CLOSE, read.end) ? read.end + CLOSE.length : read.end;
        blocks.push({ start, end, calls: [{ name, arguments: read.value as Record<string, unknown> }], rejected: [] });
      } else {
        const close = nextClose(read.end);
        end = close < 0 ? read.end : close + CLOSE.length;
        const reason = `unexpected text after the arguments, before ${CLOSE}`;
        blocks.push({ start, end, calls: [], rejected: [{ name, reason, text: text.slice(start, end) }] });
      }
      OPEN.lastIndex = end;
    }
    // `<start_function_call>` with the name or its `{` still to come: a call cut off at its start.
    const last = text.lastIndexOf('<start_function_call>');
    if (
      last >= 0 &&
      !blocks.some((block) => block.start === last) &&
      /^<start_function_call>[^{<]*$/.test(text.slice(last))
    )
      blocks.push({
        start: last,
        end: text.length,
        calls: [],
        rejected: [{ reason: 'the call is cut off before its arguments', text: text.slice(last) }],
      });
    return blocks;
  },
};
