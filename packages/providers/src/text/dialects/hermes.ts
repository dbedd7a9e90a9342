/**
 * Hermes / Qwen 2.5 / Qwen3: `<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>`,
 * one block per call (Qwen2.5 and Hermes-2-Pro chat templates; vLLM `hermes_tool_parser.py`). `arguments` given as a
 * JSON string is read into its object. The closing tag may be missing at the very end of the text (vLLM accepts it);
 * a JSON object that never closes is a cut-off call. Blocks whose body is `<function=...>` are Qwen3-Coder's.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { readCallList } from '../read/json-calls';
import { skipBlank } from '../read/tags';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

export const hermesDialect: TextDialect = {
  name: 'hermes',
  find(text) {
    const blocks: DialectBlock[] = [];
    for (let open = text.indexOf(OPEN); open >= 0; open = text.indexOf(OPEN, open + OPEN.length)) {
      const bodyStart = skipBlank(text, open + OPEN.length);
      if (text[bodyStart] !== '{' && text[bodyStart] !== '[') {
        if (bodyStart >= text.length)
          blocks.push({
            start: open,
            end: text.length,
            calls: [],
            rejected: [{ reason: 'the call is cut off after <tool_call>', text: text.slice(open) }],
          });
        continue;
      }
      const read = readCallList(text, bodyStart);
      const after = skipBlank(text, read.end);
      const closed = text.startsWith(CLOSE, after);
      const end = closed ? after + CLOSE.length : read.cutOff ? text.length : read.end;
      if (!read.cutOff && !closed && after < text.length) continue; // not a hermes block (something else follows the JSON)
      blocks.push({ start: open, end, calls: read.calls, rejected: read.rejected });
      open = end - OPEN.length;
    }
    return blocks;
  },
};
