/**
 * Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>
 * {"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>`, several calls per section, each id
 * `functions.NAME:INDEX` (Kimi-K2-Instruct `docs/tool_call_guidance.md` and chat template; vLLM
 * `kimi_k2_tool_parser.py`, SGLang `kimik2_detector.py`, which also take `NAME:INDEX` without the namespace and the
 * singular `<|tool_call_section_begin|>` the model sometimes writes).
 */
import type { TextDialect } from '../dialect';
import { findTokenCalls, type TokenCallSyntax } from '../read/token-calls';

const ID = /^(?:functions\.)?(.+):\d+$/;
const CALLS: Omit<TokenCallSyntax, 'sectionOpen' | 'sectionClose'> = {
  callOpen: '<|tool_call_begin|>',
  head: /\s*([^\s<]+)\s*<\|tool_call_argument_begin\|>/y,
  callClose: '<|tool_call_end|>',
  name: (raw) => ID.exec(raw)?.[1],
  others: [],
};

export const kimiK2Dialect: TextDialect = {
  name: 'kimi-k2',
  find: (text) => [
    ...findTokenCalls(text, {
      ...CALLS,
      sectionOpen: '<|tool_calls_section_begin|>',
      sectionClose: '<|tool_calls_section_end|>',
    }),
    ...findTokenCalls(text, {
      ...CALLS,
      sectionOpen: '<|tool_call_section_begin|>',
      sectionClose: '<|tool_call_section_end|>',
    }),
  ],
};
