/**
 * Tencent Hunyuan (Hy3): `<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Paris
 * </arg_value>\n</tool_call>\n</tool_calls>` (SGLang `hunyuan_detector.py`, vLLM `hy_v3_tool_parser.py`). Values are
 * raw text, typed by the tool's schema; several calls per block. `<tool_calls>` followed by a JSON list is Jamba's
 * (and Hunyuan-A13B's).
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks } from '../read/function-blocks';
import { ARG_KEY_VALUE, type XmlCallSyntax } from '../read/xml-parameters';

const HUNYUAN_SYNTAX: XmlCallSyntax = {
  functionOpen: /<tool_call>([^<>\n]+?)<tool_sep>/y,
  functionClose: '</tool_call>',
  ...ARG_KEY_VALUE,
};

export const hunyuanDialect: TextDialect = {
  name: 'hunyuan',
  find: (text) => findFunctionBlocks(text, '<tool_calls>', '</tool_calls>', HUNYUAN_SYNTAX),
};
