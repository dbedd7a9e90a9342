/**
 * Functionary v3.1 / Llama 3.1's custom tool format: `<function=get_weather>{"city": "Paris"}</function>` (the Llama
 * 3.1 model card's "custom tool calling" prompt, Functionary v3.1's template; llama.cpp `chat.cpp`
 * `functionary_v3_1_llama_3_1`). The body is the arguments object; a body of `<parameter=..>` tags is Qwen3-Coder's.
 */
import { NO_REFUSALS, type DialectBlock, type TextDialect } from '../dialect';
import { isPlainObject } from '../../shared/json-schema';
import { readJsonValue } from '../read/json';
import { skipBlank } from '../read/tags';

const OPEN = '<function=';
const CLOSE = '</function>';

/**
 * Where the opener at `start` ends (its `>`), or -1: `<function=NAME>`, the name at least one character and holding
 * no `<`, `>` or line break (the reference's `<function=([^<>\n]+)>`, found by `indexOf` and a look at its name
 * instead of a pattern tried at every `<` of the text).
 */
function openerEnd(text: string, start: number): number {
  const nameStart = start + OPEN.length;
  for (let at = nameStart; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 62) return at > nameStart ? at : -1; // >
    if (code === 60 || code === 10) return -1; // < or a line break
  }
  return -1;
}

export const functionaryDialect: TextDialect = {
  name: 'functionary',
  find(text) {
    const blocks: DialectBlock[] = [];
    for (let start = text.indexOf(OPEN); start >= 0;) {
      const nameEnd = openerEnd(text, start);
      if (nameEnd < 0) {
        start = text.indexOf(OPEN, start + 1);
        continue;
      }
      const name = text.slice(start + OPEN.length, nameEnd).trim();
      const bodyStart = skipBlank(text, nameEnd + 1);
      if (bodyStart >= text.length) {
        blocks.push({
          start,
          end: text.length,
          calls: [],
          rejected: [{ name, reason: 'the call is cut off after its name', text: text.slice(start) }],
        });
        break;
      }
      const read = text[bodyStart] === '{' ? readJsonValue(text, bodyStart) : undefined;
      const after = read === undefined ? 0 : skipBlank(text, read.end);
      const closed = read !== undefined && text.startsWith(CLOSE, after);
      if (read === undefined || (read.ok && isPlainObject(read.value) && !closed && after < text.length)) {
        start = text.indexOf(OPEN, nameEnd + 1); // not a call of this form: the search goes on after the opener
        continue;
      }
      const end = closed ? after + CLOSE.length : read.end;
      if (!read.ok)
        blocks.push({ start, end, calls: [], rejected: [{ name, reason: read.reason, text: text.slice(start, end) }] });
      else if (!isPlainObject(read.value))
        blocks.push({
          start,
          end,
          calls: [],
          rejected: [{ name, reason: 'the arguments are not a JSON object', text: text.slice(start, end) }],
        });
      else blocks.push({ start, end, calls: [{ name, arguments: read.value }], rejected: NO_REFUSALS });
      start = text.indexOf(OPEN, end);
    }
    return blocks;
  },
};
