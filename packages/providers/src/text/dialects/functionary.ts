/**
 * Functionary v3.1 / Llama 3.1's custom tool format: `<function=get_weather>{"city": "Paris"}</function>` (the Llama
 * 3.1 model card's "custom tool calling" prompt, Functionary v3.1's template; llama.cpp `chat.cpp`
 * `functionary_v3_1_llama_3_1`). The body is the arguments object; a body of `<parameter=..>` tags is Qwen3-Coder's.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { isPlainObject } from '../../shared/json-schema';
import { readJsonValue } from '../read/json';
import { skipBlank } from '../read/tags';

const OPEN = /<function=([^<>\n]+)>/g;
const CLOSE = '</function>';

export const functionaryDialect: TextDialect = {
  name: 'functionary',
  find(text) {
    const blocks: DialectBlock[] = [];
    OPEN.lastIndex = 0;
    for (let match = OPEN.exec(text); match; match = OPEN.exec(text)) {
      const name = (match[1] ?? '').trim();
      const bodyStart = skipBlank(text, match.index + match[0].length);
      if (bodyStart >= text.length) {
        blocks.push({
          start: match.index,
          end: text.length,
          calls: [],
          rejected: [{ name, reason: 'the call is cut off after its name', text: text.slice(match.index) }],
        });
        break;
      }
      if (text[bodyStart] !== '{') continue;
      const read = readJsonValue(text, bodyStart);
      const after = skipBlank(text, read.end);
      const closed = text.startsWith(CLOSE, after);
      const end = closed ? after + CLOSE.length : read.end;
      if (!read.ok)
        blocks.push({
          start: match.index,
          end,
          calls: [],
          rejected: [{ name, reason: read.reason, text: text.slice(match.index, end) }],
        });
      else if (!isPlainObject(read.value))
        blocks.push({
          start: match.index,
          end,
          calls: [],
          rejected: [{ name, reason: 'the arguments are not a JSON object', text: text.slice(match.index, end) }],
        });
      else if (!closed && after < text.length) continue;
      else blocks.push({ start: match.index, end, calls: [{ name, arguments: read.value }], rejected: [] });
      OPEN.lastIndex = end;
    }
    return blocks;
  },
};
