/**
 * Anthropic Messages: `tools[] = {name, description, input_schema, strict?}` (`input_schema` must be an object
 * schema with no `oneOf`/`anyOf`/`allOf` at the root), calls as `tool_use` content blocks with object input,
 * streamed as `content_block_start` + `input_json_delta` fragments per block `index` + `content_block_stop`,
 * results as `tool_result` blocks in one `user` message, errors flagged with `is_error: true`.
 * Strict tool use has its own subset (no numeric/length constraints, `additionalProperties: false`) and keeps
 * optional properties optional (its union and optional-parameter limits rule out OpenAI's nullable trick).
 * Reference: provider-formats.md §3.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { CallIdCodec, ANTHROPIC_CALL_ID_PROFILE } from '../shared/call-ids';
export {
  AnthropicChatModel,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  type AnthropicMessagesClient,
  type AnthropicChatModelOptions,
  type AnthropicRequestBlock,
  type AnthropicRequestMessage,
  type AnthropicRequestBody,
} from './chat-model';
