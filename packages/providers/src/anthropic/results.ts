/**
 * anthropic: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §3).
 */
import type { ToolResult } from '@toolwright/core';
import { ANTHROPIC_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import { errorMessageText, successText } from '../shared/results';

/** `ToolResultBlockParam`. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** The `user` message that carries tool results (`MessageParam`). */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

export interface AnthropicResultOptions {
  /** Rewrites ids that do not match `^[a-zA-Z0-9_-]+$` and remembers them (pass the same codec to parse). */
  readonly callIds?: CallIdCodec;
}

const defaultCallIds = (): CallIdCodec => new CallIdCodec(ANTHROPIC_CALL_ID_PROFILE);

/** A result as a `tool_result` block: errors as `is_error: true` with the message as text. */
export function toToolResultBlock(result: ToolResult, options: AnthropicResultOptions = {}): AnthropicToolResultBlock {
  const toolUseId = (options.callIds ?? defaultCallIds()).toProvider(result.callId);
  if (result.ok) return { type: 'tool_result', tool_use_id: toolUseId, content: successText(result.value) };
  return { type: 'tool_result', tool_use_id: toolUseId, is_error: true, content: errorMessageText(result.error) };
}

/** One result as the `user` message that answers its call. */
export function toToolResultMessage(
  result: ToolResult,
  options: AnthropicResultOptions = {},
): AnthropicToolResultMessage {
  return { role: 'user', content: [toToolResultBlock(result, options)] };
}

/** Parallel results: all `tool_result` blocks in one `user` message, in call order (as the API requires). */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: AnthropicResultOptions = {},
): AnthropicToolResultMessage[] {
  const callIds = options.callIds ?? defaultCallIds();
  return results.length === 0
    ? []
    : [{ role: 'user', content: results.map((result) => toToolResultBlock(result, { callIds })) }];
}
