/**
 * openai: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §1).
 */
import type { ToolResult } from '@toolwright/core';
import { resultText } from '../shared/results';

/** `ChatCompletionToolMessageParam`. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A result as the tool message; an error is a JSON `{"error": {code, message, retryable}}` text (no error flag). */
export function toToolResultMessage(result: ToolResult): OpenAIToolMessage {
  return { role: 'tool', tool_call_id: result.callId, content: resultText(result) };
}
