/**
 * A call written as a bare JSON object in content: `{"name": "get_weather", "arguments": {"city": "Paris"}}` or
 * with `"parameters"` (Llama 3.2 without `<|python_tag|>`, Granite and Qwen on Ollama: the reports in issue 27;
 * vLLM `llama_tool_parser.py` reads both keys). Marker-less, so only objects shaped exactly like a call (`name`,
 * `arguments`/`parameters`, optionally `type` and `id`) naming a known tool are read; several may follow each other,
 * separated by blanks or `;`. An object in a fence that holds nothing else takes the fence with it.
 */
import type { DialectBlock, TextDialect } from '../dialect';
import { NAME_AND_ARGUMENTS, callFromObject, isCallShaped, nameIn } from '../read/json-calls';
import { readJsonValue } from '../read/json';
import { widenToFence } from '../read/fences';

const CANDIDATE = /\{\s*["'](?:name|arguments|parameters)["']\s*:/g;

export const jsonDialect: TextDialect = {
  name: 'json',
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
      if (!isCallShaped(read.value, NAME_AND_ARGUMENTS, ['type', 'id'])) continue;
      const call = callFromObject(read.value);
      const name = 'call' in call ? call.call.name : call.name;
      if (name === undefined || !scope.isToolName(name)) continue;
      let end = read.end;
      if (/^\s*;/.test(text.slice(end, end + 64))) end = text.indexOf(';', end) + 1;
      const region = widenToFence(text, match.index, end);
      blocks.push({
        ...region,
        calls: 'call' in call ? [call.call] : [],
        rejected: 'call' in call ? [] : [{ name, reason: call.reason, text: source }],
      });
      CANDIDATE.lastIndex = read.end;
    }
    return blocks;
  },
};
