/**
 * mistral: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §5).
 */
import type { ToolResult } from '@toolwright/core';
import { CallIdCodec, MISTRAL_CALL_ID_PROFILE } from '../shared/call-ids';
import type { ToolNameCodec } from '../shared/name-codec';
import { matchesProfile } from '../shared/name-profiles';
import { resultText } from '../shared/content';
import { type ToolSetContext } from '../shared/tool-set';
import { MISTRAL_NAME_PROFILE } from './tools';

/** `ToolMessage` as the SDK takes it. */
export interface MistralToolMessage {
  role: 'tool';
  toolCallId: string;
  name?: string;
  content: string;
}

/** The same message as wire JSON (raw REST). */
export interface MistralWireToolMessage {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content: string;
}

export interface MistralResultOptions {
  /** Maps ids that are not 9 alphanumeric characters, and remembers them for `parseToolCalls`. */
  readonly callIds?: CallIdCodec;
  /** The tool set (or codec) the call came from, to name the function as Mistral knows it. */
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
}

function functionName(tool: string, options: MistralResultOptions): string | undefined {
  const codec = options.toolSet?.codec ?? options.codec;
  const name = codec?.has(tool) ? codec.encode(tool) : tool;
  // `name` is optional but validated against the name rule: leave out one that would be rejected.
  return matchesProfile(name, MISTRAL_NAME_PROFILE) ? name : undefined;
}

/** A result as the SDK's tool message (an error is a JSON `{"error": ...}` content: no error flag). */
export function toToolResultMessage(result: ToolResult, options: MistralResultOptions = {}): MistralToolMessage {
  const callIds = options.callIds ?? new CallIdCodec(MISTRAL_CALL_ID_PROFILE);
  const name = functionName(result.tool, options);
  return {
    role: 'tool',
    toolCallId: callIds.toProvider(result.callId),
    ...(name ? { name } : {}),
    content: resultText(result, 'Mistral'),
  };
}

/** The same as wire JSON (`tool_call_id`), for raw REST. */
export function toWireToolResultMessage(
  result: ToolResult,
  options: MistralResultOptions = {},
): MistralWireToolMessage {
  const { toolCallId, ...rest } = toToolResultMessage(result, options);
  return {
    role: rest.role,
    tool_call_id: toolCallId,
    ...(rest.name ? { name: rest.name } : {}),
    content: rest.content,
  };
}

export function toToolResultMessages(
  results: readonly ToolResult[],
  options: MistralResultOptions = {},
): MistralToolMessage[] {
  const callIds = options.callIds ?? new CallIdCodec(MISTRAL_CALL_ID_PROFILE);
  return results.map((result) => toToolResultMessage(result, { ...options, callIds }));
}
