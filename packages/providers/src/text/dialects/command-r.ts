/**
 * Cohere Command-R / R+ tool use: `Action: ```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]\n```
 * (the Command-R tool-use prompt template in its tokenizer_config, "Write 'Action:' followed by a json-formatted list
 * of actions ... ```json"). The grammar is the reference parser's, langchain-cohere
 * `react_multi_hop/parsing.py` (`parse_actions`, `Action\s*\d*\s*:\s*\d*\s*```json\n`): the marker may be numbered
 * (`Action 1:`), the fence may start on the next line, and a `Plan:` or `Reflection:` may come before it (prose).
 * The template's built-in `directly_answer` pseudo-tool means "no call" and is dropped unless the app offers a tool
 * of that name.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { readCallList } from '../read/json-calls';
import { skipBlank } from '../read/tags';

// Each optional number is a group that starts with a digit, so no two quantifiers compete for the same blanks.
const ACTION = /Action\s*(?:\d+\s*)?:\s*(?:\d+\s*)?```(?:json)?[ \t]*\r?\n/g;
const KEYS = { name: ['tool_name', 'name'], arguments: ['parameters', 'arguments'] };

export const commandRDialect: TextDialect = {
  name: 'command-r',
  find(text, scope) {
    const blocks: DialectBlock[] = [];
    ACTION.lastIndex = 0;
    for (let match = ACTION.exec(text); match; match = ACTION.exec(text)) {
      const at = skipBlank(text, match.index + match[0].length);
      if (at >= text.length) {
        blocks.push({
          start: match.index,
          end: text.length,
          calls: [],
          rejected: [{ reason: 'the call is cut off after "Action:"', text: text.slice(match.index) }],
        });
        break;
      }
      if (text[at] !== '[' && text[at] !== '{') continue;
      const read = readCallList(text, at, KEYS);
      // One whole object that names no tool under Command-R's keys is another format's (ReAct's JSON form,
      // `{"action": ..}`): left to it, and skipped whole.
      if (
        text[at] === '{' &&
        !read.cutOff &&
        read.calls.length === 0 &&
        read.rejected.every((item) => item.name === undefined)
      ) {
        ACTION.lastIndex = Math.max(ACTION.lastIndex, read.end);
        continue;
      }
      let end = read.end;
      const after = skipBlank(text, end);
      if (text.startsWith('```', after)) end = after + 3;
      const calls = read.calls.filter((call) => call.name !== 'directly_answer' || scope.isToolName(call.name));
      blocks.push({ start: match.index, end, calls, rejected: read.rejected });
      ACTION.lastIndex = end;
    }
    return blocks;
  },
};
