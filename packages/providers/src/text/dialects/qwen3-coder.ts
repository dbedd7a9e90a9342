/**
 * Qwen3-Coder (and Qwen3.5's XML form): `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n
 * </function>\n</tool_call>` (Qwen3-Coder chat template; vLLM `qwen3coder_tool_parser.py`). Values are raw text,
 * typed by the tool's schema. A value may hold `</parameter>`: it ends at the one followed by the next parameter or
 * `</function>`. Closing tags left over after a block mean the text has a second reading: the block is refused.
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks } from '../read/function-blocks';

export const qwen3CoderDialect: TextDialect = {
  name: 'qwen3-coder',
  find: (text) => findFunctionBlocks(text, '<tool_call>', '</tool_call>'),
};
