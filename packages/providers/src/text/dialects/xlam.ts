/**
 * Salesforce xLAM: a JSON list of calls, `[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, bare or in a
 * ```` ```json ```` fence (xLAM-2 model card and chat template; vLLM `xlam_tool_parser.py`). Marker-less: a list
 * is read when it holds only call-shaped objects and its first names a known tool.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { NAME_AND_ARGUMENTS, isCallShaped, nameIn, readCallList } from '../read/json-calls';
import { readJsonValue } from '../read/json';
import { widenToFence } from '../read/fences';

const CANDIDATE = /\[\s*\{\s*["'](?:name|arguments)["']\s*:/g;

export const xlamDialect: TextDialect = {
  name: 'xlam',
  find(text, scope) {
    const blocks: DialectBlock[] = [];
    CANDIDATE.lastIndex = 0;
    for (let match = CANDIDATE.exec(text); match; match = CANDIDATE.exec(text)) {
      const read = readJsonValue(text, match.index);
      const source = text.slice(match.index, read.end);
      if (!read.ok) {
        const name = nameIn(source);
        if (read.cutOff && name !== undefined && scope.isToolName(name)) {
          blocks.push({
            start: match.index,
            end: text.length,
            calls: [],
            rejected: [{ name, reason: read.reason, text: source }],
          });
          break;
        }
        continue;
      }
      const items = read.value as unknown[];
      if (!items.every((item) => isCallShaped(item, NAME_AND_ARGUMENTS, ['type', 'id']))) continue;
      const first = (items[0] as { name: string }).name;
      if (!scope.isToolName(first)) continue;
      const list = readCallList(text, match.index);
      blocks.push({ ...widenToFence(text, match.index, read.end), calls: list.calls, rejected: list.rejected });
      CANDIDATE.lastIndex = read.end;
    }
    return blocks;
  },
};
