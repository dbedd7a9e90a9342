/**
 * mcp: results back.
 * The wire format is summarized in `./index.ts` (provider-formats.md §9).
 */
import type { ToolResult } from '@toolwright/core';
import { isPlainObject, type JsonObject } from '../shared/json-schema';
import { errorMessageText, successText, toJsonValue } from '../shared/results';

/** `CallToolResult`. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: JsonObject;
  isError?: boolean;
}

/**
 * A result as `CallToolResult`: the value as text (JSON for non-strings) plus `structuredContent` when it is an
 * object; an error as `isError: true` with its message (tool errors, including invalid arguments, go to the model
 * this way; protocol errors such as an unknown tool are the server's JSON-RPC errors).
 */
export function toToolResultMessage(result: ToolResult): McpCallToolResult {
  if (!result.ok) return { content: [{ type: 'text', text: errorMessageText(result.error) }], isError: true };
  const output: McpCallToolResult = { content: [{ type: 'text', text: successText(result.value) }] };
  const json = toJsonValue(result.value);
  if (isPlainObject(json)) output.structuredContent = json as JsonObject;
  output.isError = false;
  return output;
}

export function toToolResultMessages(results: readonly ToolResult[]): McpCallToolResult[] {
  return results.map((result) => toToolResultMessage(result));
}
