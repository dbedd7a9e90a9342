/**
 * GLM-4.5 / 4.6 (and 4.7, which leaves out the newline after the name): `<tool_call>get_weather\n<arg_key>city
 * </arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>`, one block per call (GLM-4.5 chat template; vLLM
 * `glm4_moe_tool_parser.py`, SGLang `glm4_moe_detector.py`). Values are raw text, typed by the tool's schema. A value
 * may hold `</arg_value>`: it ends at the one followed by the next `<arg_key>` or `</tool_call>`; closing tags left
 * over after the call mean a second reading, and the call is refused. `<tool_call>` followed by JSON is Hermes',
 * followed by `<function=` Qwen3-Coder's.
 */
import { refusal, type DialectBlock, type TextDialect } from '../dialect';
import { ARG_KEY_VALUE, readXmlCall, strayClosingTag, type XmlCallSyntax } from '../read/xml-parameters';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const GLM_SYNTAX: XmlCallSyntax = {
  // The name is the whole run of name characters (an atomic group: the lookahead's capture, matched back), so the
  // blanks after it are read once; a lazy name followed by `\s*` would retry them at every length.
  functionOpen: /<tool_call>(?=([^<>\n{]+))\1\s*(?=<arg_key>|<\/tool_call>)/y,
  functionClose: CLOSE,
  ...ARG_KEY_VALUE,
};
/** What is left after `<tool_call>` when the text ends inside the name or right after it (a name has no blanks). */
const NAME_ONLY = /^[^\s<>{]+\s*$/;

export const glm45Dialect: TextDialect = {
  name: 'glm-4.5',
  find(text) {
    const blocks: DialectBlock[] = [];
    for (let start = text.indexOf(OPEN); start >= 0;) {
      GLM_SYNTAX.functionOpen.lastIndex = start;
      if (!GLM_SYNTAX.functionOpen.test(text)) {
        const rest = text.slice(start + OPEN.length);
        if (NAME_ONLY.test(rest))
          blocks.push({
            start,
            end: text.length,
            calls: [],
            rejected: [{ reason: 'the call is cut off after its name', text: text.slice(start) }],
          });
        start = text.indexOf(OPEN, start + OPEN.length);
        continue;
      }
      const read = readXmlCall(text, start, GLM_SYNTAX);
      if (!read.ok) {
        const close = text.indexOf(CLOSE, read.end);
        const end = close < 0 ? text.length : close + CLOSE.length;
        blocks.push({ start, end, calls: [], rejected: [refusal(read.name, read.reason, text.slice(start, end))] });
        start = text.indexOf(OPEN, end);
        continue;
      }
      const next = text.indexOf(OPEN, read.end);
      const stray = strayClosingTag(text, read.end, next < 0 ? text.length : next, [
        ARG_KEY_VALUE.parameterClose,
        CLOSE,
      ]);
      const source = text.slice(start, read.end);
      blocks.push(
        stray === undefined
          ? { start, end: read.end, calls: [read.call], rejected: [] }
          : {
              start,
              end: read.end,
              calls: [],
              rejected: [
                {
                  name: read.call.name,
                  reason: `a stray ${stray} follows the call, so where its values end has two readings`,
                  text: source,
                },
              ],
            },
      );
      start = next;
    }
    return blocks;
  },
};
