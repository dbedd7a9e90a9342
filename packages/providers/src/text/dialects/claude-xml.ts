/**
 * Claude-style XML (Anthropic's prompt-based tool use, and models trained on it): `<function_calls>\n<invoke
 * name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</function_calls>` (Anthropic's legacy
 * tool-use prompt; the `<invoke>`/`<parameter name>` form MiniMax-M2 also uses, vLLM `minimax_m2_tool_parser.py`).
 * Values are raw text, typed by the tool's schema; several `<invoke>` per block.
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks, INVOKE_SYNTAX } from '../read/function-blocks';

export const claudeXmlDialect: TextDialect = {
  name: 'claude-xml',
  find: (text) => findFunctionBlocks(text, '<function_calls>', '</function_calls>', INVOKE_SYNTAX),
};
