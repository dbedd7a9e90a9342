/**
 * Salesforce xLAM: a JSON list of calls, `[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, bare or in a
 * ```` ```json ```` fence (xLAM-2 model card and chat template; vLLM `xlam_tool_parser.py`). Marker-less: a list
 * is read when it holds only call-shaped objects and its first names a known tool.
 */
import type { TextDialect } from '../dialect';
import { findCandidates } from '../read/candidates';
import { widenToFence } from '../read/fences';
import { NAME_AND_ARGUMENTS, isCallShaped, readCallList } from '../read/json-calls';

const ALLOWED_KEYS = ['type', 'id'];
const CANDIDATE = /\[\s*\{\s*["'](?:name|arguments)["']\s*:/g;

export const xlamDialect: TextDialect = {
  name: 'xlam',
  find: (text, scope) =>
    findCandidates(text, CANDIDATE, scope, ({ value, start, end }) => {
      const items = value as unknown[];
      if (!items.every((item) => isCallShaped(item, NAME_AND_ARGUMENTS, ALLOWED_KEYS))) return undefined;
      if (!scope.isToolName((items[0] as { name: string }).name)) return undefined;
      const list = readCallList(text, start);
      const region = widenToFence(text, start, end);
      return { start: region.start, end: region.end, calls: list.calls, rejected: list.rejected };
    }),
};
