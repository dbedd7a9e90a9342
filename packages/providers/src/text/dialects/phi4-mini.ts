/**
 * Phi-4-mini: `functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]` (Phi-4-mini-instruct model card;
 * vLLM `phi4mini_tool_parser.py`).
 */
import type { TextDialect } from '../dialect';
import { findMarkedLists } from '../read/marked-lists';

export const phi4MiniDialect: TextDialect = {
  name: 'phi4-mini',
  find: (text) => findMarkedLists(text, { marker: 'functools' }),
};
