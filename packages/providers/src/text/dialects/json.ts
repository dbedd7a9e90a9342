/**
 * A call written as a bare JSON object in content: `{"name": "get_weather", "arguments": {"city": "Paris"}}` or
 * with `"parameters"` (Llama 3.2 without `<|python_tag|>`, Granite and Qwen on Ollama, as users reported;
 * vLLM `llama_tool_parser.py` reads both keys). Marker-less, so only objects shaped exactly like a call (`name`,
 * `arguments`/`parameters`, optionally `type` and `id`) naming a known tool are read; several may follow each other,
 * separated by blanks or `;`. An object in a fence that holds nothing else takes the fence with it.
 */
import { NO_REFUSALS, type TextDialect } from '../dialect';
import { findCandidates } from '../read/candidates';
import { isBlankAt } from '../read/tags';
import { widenToFence } from '../read/fences';
import { NAME_AND_ARGUMENTS, callFromObject, isCallShaped } from '../read/json-calls';

const CANDIDATE = /\{\s*["'](?:name|arguments|parameters)["']\s*:/g;

const ALLOWED_KEYS = ['type', 'id'];
/** How far after a call its `;` separator is looked for. */
const SEPARATOR_WINDOW = 64;

/** Just past a `;` after the call at `end` (blanks before it, within the window), else `end`. */
function separatorEnd(text: string, end: number): number {
  const limit = Math.min(text.length, end + SEPARATOR_WINDOW);
  let at = end;
  while (at < limit && isBlankAt(text, at)) at += 1;
  return at < limit && text.charCodeAt(at) === 59 ? at + 1 : end;
}

export const jsonDialect: TextDialect = {
  name: 'json',
  find: (text, scope) =>
    findCandidates(text, CANDIDATE, scope, ({ value, start, end }) => {
      if (!isCallShaped(value, NAME_AND_ARGUMENTS, ALLOWED_KEYS)) return undefined;
      const call = callFromObject(value);
      const name = 'call' in call ? call.call.name : call.name;
      if (name === undefined || !scope.isToolName(name)) return undefined;
      const region = widenToFence(text, start, separatorEnd(text, end));
      return {
        start: region.start,
        end: region.end,
        calls: 'call' in call ? [call.call] : [],
        rejected: 'call' in call ? NO_REFUSALS : [{ name, reason: call.reason, text: text.slice(start, end) }],
      };
    }),
};
