/**
 * ReAct: `Action: get_weather` then `Action Input: {"city": "Paris"}` (the ReAct prompt of Yao et al. as LangChain's
 * `create_react_agent` and LlamaIndex's ReActAgent write it). The grammar is the union of the two reference parsers'
 * patterns. LangChain's `ReActSingleInputOutputParser` (langchain `agents/output_parsers/react_single_input.py`,
 * `Action\s*\d*\s*:[\s]*(.*?)[\s]*Action\s*\d*\s*Input\s*\d*\s*:`): the markers may be numbered (`Action 1:`) and
 * the two may share a line. LlamaIndex's `extract_tool_use` (llama-index-core `agent/react/output_parser.py`,
 * `\n+Action: ([^\n\(\) ]+).*?\n+Action Input: .*?(\{.*\})`): blank lines may come between them, a note may follow
 * the name (`add (add two numbers)`, `add()`), and the object may sit in a code fence or a wrapper
 * (`QueryEngineTool({..})`). LangChain's JSON form is read too (see `JSON_ACTION`). Marker-less: the action must
 * name a known tool. The input must be one JSON object (a bare string would fill a parameter by guessing, so it is
 * refused).
 */
import { NO_REFUSALS, type DialectBlock, type TextDialect } from '../dialect';
import { isPlainObject } from '../../shared/json-schema';
import { readJsonValue } from '../read/json';
import { skipBlank } from '../read/tags';

// Each optional number is a group that starts with a digit, the name holds no blank, backtick or parenthesis, and a
// note after the name is one parenthesized group on its line (`add (add two numbers)`, `add()`), so no two quantifiers
// compete for the same characters.
const ACTION =
  /Action\s*(?:\d+\s*)?:\s*`?([^\s`()]+)`?(?:[ \t]*\([^\n()]*\))?\s*Action\s*(?:\d+\s*)?Input\s*(?:\d+\s*)?:[ \t]*/g;
/**
 * LangChain's JSON form (`ReActJsonSingleInputOutputParser`, langchain `agents/output_parsers/react_json_single_input.py`,
 * `` ^.*?`{3}(?:json)?\n?(.*?)`{3}.*?$ `` then `json.loads`; the structured chat agent's prompt writes `Action:` before
 * it): a code fence holding only `{"action": NAME, "action_input": {...}}`.
 */
const JSON_ACTION = /(?:Action\s*(?:\d+\s*)?:\s*)?```(?:json)?\s*(?=\{)/g;
const JSON_KEYS = new Set(['action', 'action_input']);
const CUT_OFF_NAME = /^\{\s*"action"\s*:\s*"([^"\\]*)"/;
/** Before the object, LlamaIndex skips a code fence (`` ```json ``) or a wrapper's name (`QueryEngineTool({..})`). */
const BEFORE_OBJECT = /```[\w-]*[ \t]*\r?\n\s*|[\p{L}\p{N}_.]+\(/uy;

export const reactDialect: TextDialect = {
  name: 'react',
  find(text, scope) {
    const blocks: DialectBlock[] = [];
    ACTION.lastIndex = 0;
    for (let match = ACTION.exec(text); match; match = ACTION.exec(text)) {
      const name = match[1] as string;
      if (!scope.isToolName(name)) continue;
      const start = match.index;
      let at = skipBlank(text, match.index + match[0].length);
      BEFORE_OBJECT.lastIndex = at;
      const wrapper = BEFORE_OBJECT.exec(text);
      const fenced = wrapper !== null && wrapper[0].startsWith('```');
      if (wrapper && text[BEFORE_OBJECT.lastIndex] === '{') at = BEFORE_OBJECT.lastIndex;
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
      let end = read.end;
      if (wrapper && read.ok) {
        // The wrapper's closing fence or parenthesis belongs to the call.
        const after = skipBlank(text, end);
        if (fenced && text.startsWith('```', after)) end = after + 3;
        else if (!fenced && text[after] === ')') end = after + 1;
      }
      if (read.ok && isPlainObject(read.value))
        blocks.push({ start, end, calls: [{ name, arguments: read.value }], rejected: NO_REFUSALS });
      else
        blocks.push({
          start,
          end,
          calls: [],
          rejected: [
            {
              name,
              reason: read.ok ? 'the Action Input is not a JSON object' : read.reason,
              text: text.slice(start, end),
            },
          ],
        });
      ACTION.lastIndex = end;
    }
    const jsonBlocks = findJsonActions(text, scope.isToolName);
    if (jsonBlocks.length === 0) return blocks;
    // Both lists are in text order: merged in one walk, a JSON-form block inside an Action Input left out.
    const merged: DialectBlock[] = [];
    let next = 0;
    for (let at = 0; at < jsonBlocks.length; at += 1) {
      const block = jsonBlocks[at] as DialectBlock;
      while (next < blocks.length && (blocks[next] as DialectBlock).end <= block.start)
        merged.push(blocks[next++] as DialectBlock);
      if (next < blocks.length && (blocks[next] as DialectBlock).start < block.end) continue;
      merged.push(block);
    }
    while (next < blocks.length) merged.push(blocks[next++] as DialectBlock);
    return merged;
  },
};

/** Whether every own key of an object is one of `keys` (a loop: one object per call of a long text). */
function onlyKeys(value: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (Object.hasOwn(value, key) && !keys.has(key)) return false;
  return true;
}

/** The JSON form's calls: an object of exactly `action` (a known tool) and `action_input` (its arguments object). */
function findJsonActions(text: string, isToolName: (name: string) => boolean): DialectBlock[] {
  const blocks: DialectBlock[] = [];
  JSON_ACTION.lastIndex = 0;
  for (let match = JSON_ACTION.exec(text); match; match = JSON_ACTION.exec(text)) {
    const at = match.index + match[0].length;
    const read = readJsonValue(text, at);
    if (!read.ok && read.cutOff) {
      // The rest of the text is inside this object: a call of this form naming a known tool is cut off.
      const name = CUT_OFF_NAME.exec(text.slice(at, at + 300))?.[1];
      if (name !== undefined && isToolName(name))
        blocks.push({
          start: match.index,
          end: text.length,
          calls: [],
          rejected: [{ name, reason: read.reason, text: text.slice(match.index) }],
        });
      break;
    }
    // Whatever is not a call of this form is skipped whole (a marker inside it is not one).
    JSON_ACTION.lastIndex = Math.max(JSON_ACTION.lastIndex, read.end);
    if (!read.ok || !isPlainObject(read.value)) continue;
    const value = read.value;
    const name = value['action'];
    // Marker-less: only an object of this form naming a known tool is a call (prose and examples are not).
    if (typeof name !== 'string' || !isToolName(name) || !onlyKeys(value, JSON_KEYS)) continue;
    // The fence holds the object alone (the reference reads the whole fence as one JSON text).
    const after = skipBlank(text, read.end);
    if (!text.startsWith('```', after)) continue;
    const input = value['action_input'] ?? {};
    const end = after + 3;
    const start = match.index;
    blocks.push(
      isPlainObject(input)
        ? { start, end, calls: [{ name, arguments: input }], rejected: NO_REFUSALS }
        : {
            start,
            end,
            calls: [],
            rejected: [{ name, reason: 'the action_input is not a JSON object', text: text.slice(start, end) }],
          },
    );
    JSON_ACTION.lastIndex = end;
  }
  return blocks;
}
