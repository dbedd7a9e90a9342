/**
 * InternLM2 / InternLM2.5 / Intern-S1: `<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city":
 * "Paris"}}<|action_end|>` (InternLM2 chat template; vLLM `internlm2_tool_parser.py`, SGLang `internlm_detector.py`
 * and lmdeploy, which write a blank between the two tokens). `arguments` is read too.
 */
import type { TextDialect } from '../dialect';
import { findMarkedLists } from '../read/marked-lists';

export const internlm2Dialect: TextDialect = {
  name: 'internlm2',
  find: (text) => findMarkedLists(text, { marker: /<\|action_start\|>[ \t]*<\|plugin\|>/g, close: '<|action_end|>' }),
};
