/**
 * gemini: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §4).
 */
import type { ToolResult } from '@toolwright/core';
import { isGeneratedCallId } from '../shared/call-ids';
import { type JsonObject } from '../shared/json-schema';
import type { ToolNameCodec } from '../shared/name-codec';
import { errorObject, toJsonValue } from '../shared/results';
import { type ToolSetContext } from '../shared/tool-set';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { toGeminiSchema, fromGeminiSchema, GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, type GeminiType } from './schema';

/** `Part` with a `FunctionResponse`. */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: JsonObject };
}

/** `Content` carrying function responses. */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: GeminiFunctionResponsePart[];
}

export interface GeminiResultOptions {
  /** The tool set (or its codec) the call came from: the response names the function as Gemini knows it. */
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
}

function providerName(tool: string, options: GeminiResultOptions): string {
  const codec = options.toolSet?.codec ?? options.codec;
  return codec?.has(tool) ? codec.encode(tool) : tool;
}

/**
 * A result as a `functionResponse` part: `response: {output: value}` (an object value is also under `output`, as
 * the SDK documents), errors as `response: {error: {code, message, retryable}}`. Generated ids are left out.
 */
export function toFunctionResponsePart(
  result: ToolResult,
  options: GeminiResultOptions = {},
): GeminiFunctionResponsePart {
  const response: JsonObject = result.ok ? { output: toJsonValue(result.value) } : { error: errorObject(result.error) };
  const functionResponse: GeminiFunctionResponsePart['functionResponse'] = {
    name: providerName(result.tool, options),
    response,
  };
  if (!isGeneratedCallId(result.callId)) functionResponse.id = result.callId;
  return { functionResponse };
}

/** One result as the `user` turn answering its call. */
export function toToolResultMessage(
  result: ToolResult,
  options: GeminiResultOptions = {},
): GeminiFunctionResponseContent {
  return { role: 'user', parts: [toFunctionResponsePart(result, options)] };
}

/** Parallel results: one `user` turn with one `functionResponse` part per call, in order. */
export function toToolResultMessages(
  results: readonly ToolResult[],
  options: GeminiResultOptions = {},
): GeminiFunctionResponseContent[] {
  return results.length === 0
    ? []
    : [{ role: 'user', parts: results.map((result) => toFunctionResponsePart(result, options)) }];
}
