/**
 * OLMo 3: pythonic calls, one per line, inside `<function_calls>...</function_calls>`:
 * `<function_calls>\nget_weather(city="Paris", days=3)\nget_time(zone="CET")\n</function_calls>` (Olmo-3 chat
 * template; vLLM `olmo3_tool_parser.py`, which also reads `null`/`true`/`false` as values). Values are Python (or
 * JSON) literals. `<function_calls>` followed by `<invoke` is the Claude-style XML.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { callNameAt, readPythonCalls } from '../read/python-calls';
import { indexFinder, skipBlank } from '../read/tags';

const OPEN = '<function_calls>';
const CLOSE = '</function_calls>';
/** What is left when the text ends inside the first call's name. */
const NAME_ONLY = /^[\p{ID_Continue}.-]*$/u;

export const olmo3Dialect: TextDialect = {
  name: 'olmo3',
  find(text) {
    const blocks: DialectBlock[] = [];
    const closeAt = indexFinder(text, CLOSE);
    for (let start = text.indexOf(OPEN); start >= 0;) {
      const body = skipBlank(text, start + OPEN.length);
      if (callNameAt(text, body) === undefined) {
        if (NAME_ONLY.test(text.slice(body)))
          blocks.push({
            start,
            end: text.length,
            calls: [],
            rejected: [{ reason: `the call is cut off after ${OPEN}`, text: text.slice(start) }],
          });
        start = text.indexOf(OPEN, start + OPEN.length);
        continue;
      }
      const read = readPythonCalls(text, body, CLOSE, closeAt);
      blocks.push({ start, end: read.end, calls: read.calls, rejected: read.rejected });
      start = text.indexOf(OPEN, read.end);
    }
    return blocks;
  },
};
