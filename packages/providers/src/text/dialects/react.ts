/**
 * ReAct: `Action: get_weather` then `Action Input: {"city": "Paris"}` (the ReAct prompt of Yao et al. as LangChain's
 * `create_react_agent` and LlamaIndex's ReActAgent write it). Marker-less: the action must name a known tool. The
 * input must be one JSON object (a bare string would fill a parameter by guessing, so it is refused).
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { isPlainObject } from '../../shared/json-schema';
import { readJsonValue } from '../read/json';
import { skipBlank } from '../read/tags';

const ACTION = /(?:^|\n)[ \t]*Action:[ \t]*`?([^\s`]+)`?[ \t]*\r?\n[ \t]*Action Input:[ \t]*/g;

export const reactDialect: TextDialect = {
  name: 'react',
  find(text, scope) {
    const blocks: DialectBlock[] = [];
    ACTION.lastIndex = 0;
    for (let match = ACTION.exec(text); match; match = ACTION.exec(text)) {
      const name = match[1] as string;
      if (!scope.isToolName(name)) continue;
      const start = match.index + (match[0].startsWith('\n') ? 1 : 0);
      const at = skipBlank(text, match.index + match[0].length);
      if (text[at] !== '{') {
        const lineEnd = text.indexOf('\n', at);
        const end = lineEnd < 0 ? text.length : lineEnd;
        blocks.push({
          start,
          end,
          calls: [],
          rejected: [
            {
              name,
              reason:
                at >= text.length
                  ? 'the call is cut off after "Action Input:"'
                  : 'the Action Input is not a JSON object',
              text: text.slice(start, end),
            },
          ],
        });
        ACTION.lastIndex = end;
        continue;
      }
      const read = readJsonValue(text, at);
      const source = text.slice(start, read.end);
      if (read.ok && isPlainObject(read.value))
        blocks.push({ start, end: read.end, calls: [{ name, arguments: read.value }], rejected: [] });
      else
        blocks.push({
          start,
          end: read.end,
          calls: [],
          rejected: [{ name, reason: read.ok ? 'the Action Input is not a JSON object' : read.reason, text: source }],
        });
      ACTION.lastIndex = read.end;
    }
    return blocks;
  },
};
