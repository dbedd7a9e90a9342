/**
 * Mistral: `[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]` (tokenizer v2/v3, Mistral 7B v0.3,
 * Mixtral, Nemo) and `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}` (tokenizer v11+, Mistral Small 3.2, Magistral,
 * Devstral; an optional `[CALL_ID]id` before `[ARGS]`), several calls each after its own `[TOOL_CALLS]`
 * (mistral-common's tokenizers; vLLM `mistral_tool_parser.py`).
 */
import type { DialectBlock, DialectCall, DialectRefusal, TextDialect } from '../dialect';
import { readCallList } from '../read/json-calls';
import { readJsonValue } from '../read/json';
import { isPlainObject } from '../../shared/json-schema';
import { skipBlank } from '../read/tags';

const MARKER = '[TOOL_CALLS]';
const NAMED = /([^\s[\]{}]+)(?:\[CALL_ID\]([^[]*))?\[ARGS\]/y;

/** Where the first blank or brace at or after a position is (the text's length when none): one forward search, reused. */
function stopFinder(text: string): (from: number) => number {
  let found = -1;
  const STOP = /[\s{}]/g;
  return (from) => {
    if (found >= from) return found;
    STOP.lastIndex = from;
    found = STOP.exec(text)?.index ?? text.length;
    return found;
  };
}

export const mistralDialect: TextDialect = {
  name: 'mistral',
  find(text) {
    const blocks: DialectBlock[] = [];
    const nextStop = stopFinder(text);
    for (let start = text.indexOf(MARKER); start >= 0;) {
      const at = skipBlank(text, start + MARKER.length);
      let end: number;
      let calls: DialectCall[] = [];
      const rejected: DialectRefusal[] = [];
      const opensList = text[at] === '[' || text[at] === '{';
      NAMED.lastIndex = at;
      const named = opensList ? null : NAMED.exec(text);
      if (opensList) {
        const read = readCallList(text, at);
        blocks.push({ start, end: read.end, calls: read.calls, rejected: read.rejected });
        start = text.indexOf(MARKER, read.end);
        continue;
      } else if (named) {
        const name = named[1] as string;
        const argumentsStart = skipBlank(text, NAMED.lastIndex);
        const read = readJsonValue(text, argumentsStart);
        end = read.end;
        if (read.ok && isPlainObject(read.value)) calls = [{ name, arguments: read.value }];
        else
          rejected.push({
            name,
            reason: read.ok ? 'the arguments are not a JSON object' : read.reason,
            text: text.slice(start, end),
          });
      } else if (nextStop(at) >= text.length) {
        rejected.push({ reason: `the call is cut off after ${MARKER}`, text: text.slice(start) });
        end = text.length;
      } else {
        start = text.indexOf(MARKER, at);
        continue;
      }
      blocks.push({ start, end, calls, rejected });
      start = text.indexOf(MARKER, end);
    }
    return blocks;
  },
};
