/**
 * OpenAI's wire shape written into `content`: `{"tool_calls": [{"id": "call_1", "type": "function", "function":
 * {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}` (models fine-tuned on logged API traffic, and
 * servers that pass the model's JSON through; the Chat Completions `tool_calls` shape). `arguments` may be the JSON
 * string or an object.
 */
import { refusal, type DialectBlock, type DialectCall, type TextDialect } from '../dialect';
import { isPlainObject } from '../../shared/json-schema';
import { callFromObject } from '../read/json-calls';
import { readJsonValue } from '../read/json';

const KEY = /\{\s*"tool_calls"\s*:/g;

export const openaiContentDialect: TextDialect = {
  name: 'openai-content',
  find(text) {
    const blocks: DialectBlock[] = [];
    KEY.lastIndex = 0;
    for (let match = KEY.exec(text); match; match = KEY.exec(text)) {
      const start = match.index;
      const read = readJsonValue(text, start);
      const source = text.slice(start, read.end);
      if (!read.ok) {
        blocks.push({ start, end: read.end, calls: [], rejected: [{ reason: read.reason, text: source }] });
        KEY.lastIndex = read.end;
        continue;
      }
      const list = isPlainObject(read.value) ? read.value['tool_calls'] : undefined;
      if (!Array.isArray(list)) continue;
      const calls: DialectCall[] = [];
      const rejected: { name?: string; reason: string; text: string }[] = [];
      for (const item of list) {
        const fn = isPlainObject(item) ? item['function'] : undefined;
        const call = callFromObject(fn, { name: ['name'], arguments: ['arguments'] });
        if ('call' in call) calls.push(call.call);
        else rejected.push(refusal(call.name, call.reason, source));
      }
      blocks.push({ start, end: read.end, calls, rejected });
      KEY.lastIndex = read.end;
    }
    return blocks;
  },
};
