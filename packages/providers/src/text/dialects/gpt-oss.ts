/**
 * gpt-oss (OpenAI harmony): `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":
 * "Paris"}<|call|>`, each call a message of its own (`<|start|>assistant` before the next), the recipient also
 * allowed before the channel (`<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>`)
 * (OpenAI's harmony response format; vLLM `openai_tool_parser.py`, SGLang `gpt_oss_detector.py`). `<|call|>` is a
 * stop token servers often leave out: a complete JSON object at the very end of the text is read. The analysis
 * channel is reasoning: a call addressed from it is refused, never read. A recipient outside `functions.` (the
 * built-in `browser.*`, `python`) is kept whole, so it names no offered tool unless the app offers one of that name.
 */
import { isPlainObject } from '../../shared/json-schema';
import type { DialectBlock, TextDialect } from '../dialect';
import { readJsonValue } from '../read/json';
import { skipBlank } from '../read/tags';

const HEADER =
  /(?:<\|start\|>assistant)?(?:<\|channel\|>(\w+))?[ \t]*to=([^\s<]+)[ \t]*(?:<\|channel\|>(\w+))?[ \t]*(?:<\|constrain\|>)?[ \t]*([\w-]+)?[ \t]*<\|message\|>/g;
const CALL = '<|call|>';
const NAMESPACE = 'functions.';

export const gptOssDialect: TextDialect = {
  name: 'gpt-oss',
  find(text) {
    const blocks: DialectBlock[] = [];
    HEADER.lastIndex = 0;
    for (let header = HEADER.exec(text); header; header = HEADER.exec(text)) {
      const channel = header[1] ?? header[3];
      if (channel === undefined) continue; // not a harmony header: an assistant message always names its channel
      const recipient = header[2] as string;
      const name = recipient.startsWith(NAMESPACE) ? recipient.slice(NAMESPACE.length) : recipient;
      const start = header.index;
      const body = skipBlank(text, HEADER.lastIndex);
      const refuse = (reason: string, end: number) => {
        blocks.push({ start, end, calls: [], rejected: [{ name, reason, text: text.slice(start, end) }] });
        HEADER.lastIndex = end;
      };
      const callEnd = () => {
        const close = text.indexOf(CALL, body);
        return close < 0 ? text.length : close + CALL.length;
      };
      if (body >= text.length) {
        refuse('the call is cut off before its arguments', text.length);
        continue;
      }
      if (channel === 'analysis') {
        refuse('the call is addressed from the analysis channel, which is reasoning', callEnd());
        continue;
      }
      if (text.startsWith(CALL, body)) {
        // an empty message: a call without arguments
        blocks.push({ start, end: body + CALL.length, calls: [{ name, arguments: {} }], rejected: [] });
        HEADER.lastIndex = body + CALL.length;
        continue;
      }
      if (text[body] !== '{') {
        refuse('the arguments are not a JSON object', callEnd());
        continue;
      }
      const read = readJsonValue(text, body);
      if (!read.ok) {
        refuse(read.reason, read.cutOff ? text.length : callEnd());
        continue;
      }
      if (!isPlainObject(read.value)) {
        refuse('the arguments are not a JSON object', callEnd());
        continue;
      }
      const after = skipBlank(text, read.end);
      if (text.startsWith(CALL, after) || after >= text.length) {
        const end = text.startsWith(CALL, after) ? after + CALL.length : read.end;
        blocks.push({ start, end, calls: [{ name, arguments: read.value }], rejected: [] });
        HEADER.lastIndex = end;
        continue;
      }
      refuse(`unexpected text after the arguments, before ${CALL}`, callEnd());
    }
    return blocks;
  },
};
