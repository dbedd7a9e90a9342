/**
 * MiniMax-M2: `<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>
 * \n</minimax:tool_call>` (MiniMax-M2 chat template; vLLM `minimax_m2_tool_parser.py`). Values are raw text, typed by
 * the tool's schema; several `<invoke>` per block.
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks, INVOKE_SYNTAX } from '../read/function-blocks';

export const minimaxDialect: TextDialect = {
  name: 'minimax',
  find: (text) => findFunctionBlocks(text, '<minimax:tool_call>', '</minimax:tool_call>', INVOKE_SYNTAX),
};
