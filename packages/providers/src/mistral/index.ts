/**
 * Mistral (La Plateforme chat completions): OpenAI-style `tools[].function` with `parameters` required, calls in
 * `choices[0].message.toolCalls` (SDK, camelCase) or `tool_calls` (wire) with JSON-text (or object) arguments,
 * streamed as deltas keyed by `index` (often whole), results as `{role: "tool", toolCallId, name, content}`
 * (no error flag). Call ids must be exactly 9 alphanumeric characters: ids from other providers are mapped with a
 * `CallIdCodec`, both ways. Reference: provider-formats.md §5.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { CallIdCodec, MISTRAL_CALL_ID_PROFILE } from '../shared/call-ids';
export {
  MistralChatModel,
  type MistralChatClient,
  type MistralChatModelOptions,
  type MistralRequestMessage,
  type MistralRequest,
} from './chat-model';
