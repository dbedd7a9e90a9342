/**
 * DeepSeek V3.2 DSML: `<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city"
 * string="true">Paris</｜DSML｜parameter>\n<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>\n
 * </｜DSML｜invoke>\n</｜DSML｜function_calls>` (DeepSeek-V3.2 `encoding_dsv32.py`; vLLM `deepseekv32_tool_parser.py`,
 * SGLang `deepseekv32_detector.py`). Each parameter says its own type: `string="true"` is the text as written,
 * `string="false"` a JSON value (read by the executor's JSON reader; text that is not one is refused).
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks } from '../read/function-blocks';
import { readLiteral } from '../read/json';
import type { XmlCallSyntax } from '../read/xml-parameters';

const DSML_SYNTAX: XmlCallSyntax = {
  functionOpen: /<｜DSML｜invoke\s+name="([^"\n]+)"\s*>/y,
  functionClose: '</｜DSML｜invoke>',
  parameterOpen: /<｜DSML｜parameter\s+name="([^"\n]+)"\s+string="(true|false)"\s*>/y,
  parameterClose: '</｜DSML｜parameter>',
  inline: true,
  value(raw, opener) {
    if (opener[2] === 'true') return { value: raw };
    const read = readLiteral(raw);
    return 'reason' in read ? { reason: `string="false" but the value is not JSON: ${read.reason}` } : read;
  },
};

export const deepseekV32Dialect: TextDialect = {
  name: 'deepseek-v3.2',
  find: (text) => findFunctionBlocks(text, '<｜DSML｜function_calls>', '</｜DSML｜function_calls>', DSML_SYNTAX),
};
