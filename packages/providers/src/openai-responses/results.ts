/**
 * openai-responses: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §2).
 */
import type { ToolResult } from '@toolwright/core';
import { resultText } from '../shared/results';

/** `ResponseInputItem.FunctionCallOutput`. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** A result as a `function_call_output` input item; an error is a JSON `{"error": ...}` output (no error flag). */
export function toToolResultMessage(result: ToolResult): OpenAIFunctionCallOutput {
  return { type: 'function_call_output', call_id: result.callId, output: resultText(result) };
}
