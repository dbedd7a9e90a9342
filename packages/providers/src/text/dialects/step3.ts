/**
 * StepFun Step-3: `<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
 * \n<steptml:parameter name="city">Paris</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>`
 * (Step-3 chat template; vLLM `step3_tool_parser.py` and its tests, which also write the call without the
 * `function<｜tool_sep｜>` prefix; SGLang `step3_detector.py`). Values are raw text written inline (whitespace kept),
 * typed by the tool's schema; several calls per section.
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks } from '../read/function-blocks';
import type { XmlCallSyntax } from '../read/xml-parameters';

const STEP3_SYNTAX: XmlCallSyntax = {
  functionOpen: /<｜tool_call_begin｜>\s*(?:function\s*<｜tool_sep｜>[^<]*)?<steptml:invoke name="([^"\n]+)">/y,
  functionClose: '</steptml:invoke><｜tool_call_end｜>',
  parameterOpen: /<steptml:parameter name="([^"\n]+)">/y,
  parameterClose: '</steptml:parameter>',
  inline: true,
};

export const step3Dialect: TextDialect = {
  name: 'step3',
  find: (text) => findFunctionBlocks(text, '<｜tool_calls_begin｜>', '<｜tool_calls_end｜>', STEP3_SYNTAX),
};
