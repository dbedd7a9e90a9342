/**
 * Cohere Command R7B and Command A: `<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather",
 * "parameters": {"city": "Paris"}}\n]<|END_ACTION|>` (the c4ai-command-r7b and command-a chat templates; llama.cpp
 * `common_chat_params_init_command_r7b`, vLLM `cohere_command_tool_parser.py`, SGLang `cohere_command4_detector.py`).
 * The tool plan before it, `<|START_THINKING|>...<|END_THINKING|>`, is reasoning.
 */
import type { TextDialect } from '../dialect';
import { findMarkedLists } from '../read/marked-lists';

export const commandR7bDialect: TextDialect = {
  name: 'command-r7b',
  find: (text) =>
    findMarkedLists(text, {
      marker: '<|START_ACTION|>',
      close: '<|END_ACTION|>',
      items: { name: ['tool_name', 'name'], arguments: ['parameters', 'arguments'] },
    }),
};
