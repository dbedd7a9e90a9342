/**
 * AWS Bedrock Converse / ConverseStream: `toolConfig.tools[] = {toolSpec: {name, description, inputSchema: {json}}}`
 * (description at least 1 character when present; names 1-64 `[a-zA-Z0-9_-]`), calls as `toolUse` content blocks
 * with object input, streamed as `contentBlockStart` / `contentBlockDelta` (JSON text fragments) /
 * `contentBlockStop` per `contentBlockIndex`, results as `toolResult` blocks in one `user` message with
 * `status: "error"` for errors (Claude and Nova). `toolSpec.strict` uses Anthropic's strict subset (assumed for
 * Bedrock, §7.1 ⚠️). Reference: provider-formats.md §7.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { CallIdCodec, BEDROCK_CALL_ID_PROFILE } from '../shared/call-ids';
export {
  BedrockChatModel,
  type BedrockRuntimeClientLike,
  type ConverseCommandConstructor,
  type BedrockChatModelOptions,
  type BedrockRequestBlock,
  type BedrockRequestMessage,
  type BedrockConverseInput,
} from './chat-model';
