/**
 * cohere: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §8).
 */
import type { ToolResult } from '@toolwright/core';
import type { JsonObject } from '../shared/json-schema';
import { resultText, successParts } from '../shared/content';
import { errorObject, resultObject } from '../shared/results';

export type CohereToolContent = { type: 'text'; text: string } | { type: 'document'; document: { data: JsonObject } };

/** `ChatMessageV2.Tool` as the SDK takes it. */
export interface CohereToolMessage {
  role: 'tool';
  toolCallId: string;
  content: CohereToolContent[];
}

/** The same as wire JSON. */
export interface CohereWireToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: CohereToolContent[];
}

/**
 * A result as a tool message: a string value as text, any other value as a document (`data` is the object, or
 * `{output: value}`), an error as a `{error: {code, message, retryable}}` document.
 */
export function toToolResultMessage(result: ToolResult): CohereToolMessage {
  let content: CohereToolContent;
  if (!result.ok) content = { type: 'document', document: { data: { error: errorObject(result.error) } } };
  else {
    const parts = successParts(result);
    if (parts.length === 1 && parts[0]!.type === 'json')
      content = { type: 'document', document: { data: resultObject(parts[0]!.value) } };
    else content = { type: 'text', text: resultText(result, 'Cohere') };
  }
  return { role: 'tool', toolCallId: result.callId, content: [content] };
}

export function toWireToolResultMessage(result: ToolResult): CohereWireToolMessage {
  const { toolCallId, content } = toToolResultMessage(result);
  return { role: 'tool', tool_call_id: toolCallId, content };
}
