/**
 * AI21 Jamba 1.5/1.6: `<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>` (Jamba
 * chat template; vLLM `jamba_tool_parser.py`).
 */
import type { TextDialect } from '../dialect';
import { findMarkedLists } from '../read/marked-lists';

export const jambaDialect: TextDialect = {
  name: 'jamba',
  find: (text) => findMarkedLists(text, { marker: '<tool_calls>', close: '</tool_calls>' }),
};
