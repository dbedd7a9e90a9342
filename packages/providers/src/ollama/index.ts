/**
 * Ollama native `/api/chat`: OpenAI-like `tools[].function.parameters`, but the server decodes them into Go structs
 * that keep only `type`, `description`, `enum`, `items`, `properties`, `required`, `anyOf` and `$defs`; every
 * other keyword is silently dropped, so the lowering folds it into the description (the model then still reads
 * "1-50", "default 10", "date-time"). Calls arrive whole in `message.tool_calls` with object arguments (ids since
 * late 2025); results are `{role: "tool", tool_name, tool_call_id?, content}` (no error flag).
 * Reference: provider-formats.md §6.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export {
  OllamaChatModel,
  type OllamaChatClient,
  type OllamaChatStream,
  type OllamaChatModelOptions,
  type OllamaRequestMessage,
  type OllamaRequest,
} from './chat-model';
