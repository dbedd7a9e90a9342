/**
 * DeepSeek V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>
 * <｜tool▁calls▁end｜>`, several calls per section (DeepSeek-V3.1 chat template; vLLM `deepseekv31_tool_parser.py`,
 * SGLang `deepseekv31_detector.py`). The markers are V3's; a section is this dialect's when its first call has V3.1's
 * head (`NAME<｜tool▁sep｜>` then the JSON arguments).
 */
import type { TextDialect } from '../dialect';
import { findTokenCalls } from '../read/token-calls';
import { DEEPSEEK_MARKERS, DEEPSEEK_V31_HEAD } from './deepseek-v3';

export const deepseekV31Dialect: TextDialect = {
  name: 'deepseek-v3.1',
  find: (text) =>
    findTokenCalls(text, {
      ...DEEPSEEK_MARKERS,
      head: DEEPSEEK_V31_HEAD,
      callClose: '<｜tool▁call▁end｜>',
      name: (raw) => raw.trim() || undefined,
    }),
};
