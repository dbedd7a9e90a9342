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

export interface McpResultOptions {
  /**
   * `explicit` (default): a success carries `isError: false`; `omitted`: only errors carry the flag (the protocol's
   * default is false, so both mean the same to a client; `serveMcp` sends the shorter form).
   */
  readonly successFlag?: 'explicit' | 'omitted';
}

/**
 * The text of a successful value: a string as is, nothing (`undefined`) as empty text, a bigint as its digits, any
 * other value as JSON (a bigint inside it as a string of digits, so no digit is lost; a value JSON cannot hold, such
 * as a cycle, as its String() form).
 */
export function mcpValueText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'bigint') return value.toString();
  return successText(value);
}

/**
 * A result as `CallToolResult`: the value as text (JSON for non-strings) plus `structuredContent` when it is an
 * object (the same JSON, per the spec's backwards-compatibility rule); an error as `isError: true` with its
 * model-facing message, and the closest tool names when the message does not list them already (tool errors,
 * including invalid arguments, go to the model this way; protocol errors such as an unknown tool are the server's
 * JSON-RPC errors). This is the one MCP mapping: `@toolwright/mcp`'s server sends exactly this.
 */
export function toToolResultMessage(result: ToolResult, options: McpResultOptions = {}): McpCallToolResult {
  if (!result.ok) return { content: [{ type: 'text', text: errorMessageText(result.error) }], isError: true };
  const output: McpCallToolResult = { content: [{ type: 'text', text: mcpValueText(result.value) }] };
  const json = result.value === undefined ? undefined : toJsonValue(result.value);
  if (isPlainObject(json)) output.structuredContent = json;
  if ((options.successFlag ?? 'explicit') === 'explicit') output.isError = false;
  return output;
}
