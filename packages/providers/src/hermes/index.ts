/**
 * The Qwen/Hermes text protocol (open-weight models; Ollama, vLLM and llama.cpp parse it): tools rendered as JSON
 * lines inside `<tools></tools>` in the system turn; calls as `<tool_call>{"name", "arguments"}</tool_call>` blocks
 * in the model's text (or Qwen3-Coder's `<tool_call><function=NAME><parameter=KEY>value</parameter></function>`),
 * with no ids (generated here and matched by order); results as `<tool_response>…</tool_response>` (Qwen: one
 * `user` turn for all of them; Hermes: one `tool` turn each), errors as text. Reference: provider-formats.md §10.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { pythonJsonDumps } from './text';
