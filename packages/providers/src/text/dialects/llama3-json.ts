/**
 * Llama 3.1/3.2/3.3 JSON tool calls: `<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}`, several
 * separated by `;` (Llama 3.1 model card's JSON-based tool calling and chat template; vLLM `llama_tool_parser.py`,
 * which also reads `"arguments"`). The same object without `<|python_tag|>` is read by the `json` dialect.
 */
import type { DialectBlock, DialectCall, TextDialect } from '../dialect';
import { readCallList } from '../read/json-calls';
import { skipBlank } from '../read/tags';

const MARKER = '<|python_tag|>';

export const llama3JsonDialect: TextDialect = {
  name: 'llama3-json',
  find(text) {
    const blocks: DialectBlock[] = [];
    for (let start = text.indexOf(MARKER); start >= 0; start = text.indexOf(MARKER, start + 1)) {
      let position = skipBlank(text, start + MARKER.length);
      if (position >= text.length) {
        blocks.push({
          start,
          end: text.length,
          calls: [],
          rejected: [{ reason: `the call is cut off after ${MARKER}`, text: text.slice(start) }],
        });
        break;
      }
      if (text[position] !== '{') continue;
      const calls: DialectCall[] = [];
      const rejected: { name?: string; reason: string; text: string }[] = [];
      let end = position;
      for (;;) {
        const read = readCallList(text, position);
        calls.push(...read.calls);
        rejected.push(...read.rejected);
        end = read.end;
        const next = skipBlank(text, end);
        if (read.cutOff || text[next] !== ';') break;
        position = skipBlank(text, next + 1);
        if (text[position] !== '{') {
          end = next + 1;
          break;
        }
      }
      blocks.push({ start, end, calls, rejected });
      start = end - 1;
    }
    return blocks;
  },
};
