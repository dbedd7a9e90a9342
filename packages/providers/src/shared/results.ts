/**
 * Rendering the executor's `ToolResult` for the model. Providers with an error channel (Anthropic `is_error`,
 * Bedrock `status`, MCP `isError`, Gemini `response.error`) get the error's message as text; the others get a
 * JSON error object as the tool output, so the model can tell an error from a value.
 */
import type { ToolErrorPayload } from '@toolwright/core';
import { jsonText as toJsonText } from '@toolwright/core/internal';
import { isPlainObject, type JsonObject, type JsonValue } from './json-schema';

/** JSON text of any value (core's one definition): bigint and cycles rendered with String(), never a throw. */
export { toJsonText };

/** A value as JSON data (what JSON.stringify would keep), for result channels that take JSON. */
export function toJsonValue(value: unknown): JsonValue {
  return JSON.parse(toJsonText(value)) as JsonValue;
}

/** The text of a successful result: a string value as is, anything else as JSON. */
export function successText(value: unknown): string {
  return typeof value === 'string' ? value : toJsonText(value);
}

/** The error for a flagged error channel: the message, and the close names for an unknown tool. */
export function errorMessageText(error: ToolErrorPayload): string {
  const suggestions = error.suggestions ?? [];
  const missing = suggestions.filter((suggestion) => !error.message.includes(suggestion));
  if (missing.length === 0) return error.message;
  return `${error.message} Did you mean: ${suggestions.join(', ')}?`;
}

/** The error as a JSON object: what a provider without an error flag gets as the tool's output. */
export function errorObject(error: ToolErrorPayload): JsonObject {
  const output: JsonObject = { code: error.code, message: error.message, retryable: error.retryable };
  if (error.suggestions && error.suggestions.length > 0) output['suggestions'] = [...error.suggestions];
  return output;
}

/** `{"error": {...}}` as text. */
export function errorJsonText(error: ToolErrorPayload): string {
  return JSON.stringify({ error: errorObject(error) });
}

/** A result value as a JSON object (for channels that take an object): objects as is, others under `output`. */
export function resultObject(value: unknown): JsonObject {
  const json = toJsonValue(value);
  return isPlainObject(json) ? json : { output: json };
}
