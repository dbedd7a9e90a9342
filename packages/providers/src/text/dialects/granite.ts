/**
 * IBM Granite 3.x: `<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]` (Granite 3 chat
 * template; vLLM `granite_tool_parser.py`, which also accepts `<tool_call>` before the list).
 */
import type { TextDialect } from '../dialect';
import { findMarkedLists } from '../read/marked-lists';

export const graniteDialect: TextDialect = {
  name: 'granite',
  find: (text) => findMarkedLists(text, { marker: '<|tool_call|>' }),
};
