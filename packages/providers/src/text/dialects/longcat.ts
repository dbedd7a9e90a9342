/**
 * Meituan LongCat-Flash: `<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n
 * </longcat_tool_call>`, one block per call (LongCat-Flash-Chat chat template; vLLM `longcat_tool_parser.py`, SGLang
 * `longcat_detector.py`).
 */
import type { TextDialect } from '../dialect';
import { findMarkedLists } from '../read/marked-lists';

export const longcatDialect: TextDialect = {
  name: 'longcat',
  find: (text) => findMarkedLists(text, { marker: '<longcat_tool_call>', close: '</longcat_tool_call>' }),
};
