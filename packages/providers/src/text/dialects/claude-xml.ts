/**
 * Claude-style XML (Anthropic's prompt-based tool use, and models trained on it): `<function_calls>\n<invoke
 * name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</function_calls>` (Anthropic's legacy
 * tool-use prompt; the `<invoke>`/`<parameter name>` form MiniMax-M2 also uses, vLLM `minimax_m2_tool_parser.py`).
 * Values are raw text, typed by the tool's schema; several `<invoke>` per block.
 */
import type { TextDialect } from '../dialect';
import { findFunctionBlocks } from '../read/function-blocks';
import type { XmlCallSyntax } from '../read/xml-parameters';

export const INVOKE_SYNTAX: XmlCallSyntax = {
  functionOpen: /<invoke name="([^"\n]+)">/y,
  functionClose: '</invoke>',
  parameterOpen: /<parameter name="([^"\n]+)">/y,
  parameterClose: '</parameter>',
};

export const claudeXmlDialect: TextDialect = {
  name: 'claude-xml',
  find: (text) => findFunctionBlocks(text, '<function_calls>', '</function_calls>', INVOKE_SYNTAX),
};
