/**
 * Pythonic calls: `[get_weather(city='Paris', days=3), get_time(zone="CET")]` (Llama 3.2 and Llama 4's pythonic
 * templates, Llama 4 wrapping it in `<|python_start|>`...`<|python_end|>`; BFCL's format; vLLM
 * `pythonic_tool_parser.py` and `llama4_pythonic_tool_parser.py`). Values are Python literals (True, None, tuples,
 * nested lists and dicts). Marker-less: a list is read when its first call names a known tool.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { callNameAt, readPythonCalls } from '../read/python-calls';
import { indexFinder, skipBlank } from '../read/tags';

const START = '<|python_start|>';
const END = '<|python_end|>';

export const pythonicDialect: TextDialect = {
  name: 'pythonic',
  find(text, scope) {
    const blocks: DialectBlock[] = [];
    const closeAt = indexFinder(text, ']');
    for (let open = text.indexOf('['); open >= 0; open = text.indexOf('[', open + 1)) {
      const claimed = scope.claimedEnd(open);
      if (claimed > open) {
        open = claimed - 1; // inside an earlier dialect's block
        continue;
      }
      const name = callNameAt(text, skipBlank(text, open + 1));
      if (name === undefined || !scope.isToolName(name)) continue;
      const read = readPythonCalls(text, open + 1, ']', closeAt);
      let start = open;
      let end = read.end;
      const before = text.slice(0, start).trimEnd();
      if (before.endsWith(START)) start = before.length - START.length;
      const after = skipBlank(text, end);
      if (text.startsWith(END, after)) end = after + END.length;
      blocks.push({ start, end, calls: read.calls, rejected: read.rejected });
      open = end - 1;
    }
    return blocks;
  },
};
