/**
 * bedrock: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §7).
 */
import type { ToolResult } from '@toolwright/core';
import { BEDROCK_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import { isPlainObject, type JsonObject } from '../shared/json-schema';
import { errorMessageText, successText, toJsonValue } from '../shared/results';

export type BedrockToolResultContent = { json: JsonObject } | { text: string };

/** `ToolResultBlock` inside its content block. */
export interface BedrockToolResultBlock {
  toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' };
}

/** The `user` `Message` carrying tool results. */
export interface BedrockToolResultMessage {
  role: 'user';
  content: BedrockToolResultBlock[];
}

export interface BedrockResultOptions {
  /** Rewrites ids that are not 1-64 `[a-zA-Z0-9_-]`, remembering them. */
  readonly callIds?: CallIdCodec;
  /**
   * `json` (default): an object value as a `{json}` block, anything else as text. `text`: always text (the most
   * portable: some non-Anthropic models reject `json` blocks).
   */
  readonly content?: 'json' | 'text';
  /** Send `status` (only Claude and Nova support it; errors are text either way). Default true. */
  readonly status?: boolean;
}

/** A result as a `toolResult` content block. */
export function toToolResultBlock(result: ToolResult, options: BedrockResultOptions = {}): BedrockToolResultBlock {
  const toolUseId = (options.callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE)).toProvider(result.callId);
  const withStatus = options.status ?? true;
  if (!result.ok) {
    return {
      toolResult: {
        toolUseId,
        content: [{ text: errorMessageText(result.error) }],
        ...(withStatus ? { status: 'error' as const } : {}),
      },
    };
  }
  const json = toJsonValue(result.value);
  const content: BedrockToolResultContent =
    options.content !== 'text' && isPlainObject(json) ? { json: json } : { text: successText(result.value) };
  return { toolResult: { toolUseId, content: [content], ...(withStatus ? { status: 'success' as const } : {}) } };
}

export function toToolResultMessage(result: ToolResult, options: BedrockResultOptions = {}): BedrockToolResultMessage {
  return { role: 'user', content: [toToolResultBlock(result, options)] };
}

/** Parallel results: all `toolResult` blocks in one `user` message. */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: BedrockResultOptions = {},
): BedrockToolResultMessage[] {
  const callIds = options.callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE);
  return results.length === 0
    ? []
    : [{ role: 'user', content: results.map((result) => toToolResultBlock(result, { ...options, callIds })) }];
}
