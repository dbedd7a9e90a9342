/**
 * DeepSeek V3 (V3-0324, R1-0528): `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json
 * \n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, several calls per section (DeepSeek-V3-0324 chat
 * template; vLLM `deepseekv3_tool_parser.py`, SGLang `deepseekv3_detector.py`). V3.1 writes the same markers without
 * the `function` prefix and the fence (`deepseek-v3.1`); a section cut off before its first head is rejected here.
 */
import type { TextDialect } from '../dialect';
import { findTokenCalls } from '../read/token-calls';

/** The markers DeepSeek V3 and V3.1 share. */
export const DEEPSEEK_MARKERS = {
  sectionOpen: '<｜tool▁calls▁begin｜>',
  sectionClose: '<｜tool▁calls▁end｜>',
  callOpen: '<｜tool▁call▁begin｜>',
} as const;

/** V3's head: `function<｜tool▁sep｜>NAME` and a ```` ```json ```` fence opening on the next line. */
const V3_HEAD = /function<｜tool▁sep｜>([^\n<]+)\r?\n```(?:json)?[ \t]*\r?\n/y;
/** V3.1's head: `NAME<｜tool▁sep｜>`, the arguments right after. */
export const DEEPSEEK_V31_HEAD = /([^\n<]+?)<｜tool▁sep｜>/y;

export const deepseekV3Dialect: TextDialect = {
  name: 'deepseek-v3',
  find: (text) =>
    findTokenCalls(text, {
      ...DEEPSEEK_MARKERS,
      head: V3_HEAD,
      callClose: '```<｜tool▁call▁end｜>',
      name: (raw) => raw.trim() || undefined,
      others: [DEEPSEEK_V31_HEAD],
    }),
};
