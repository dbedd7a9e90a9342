/**
 * Cohere v2 chat: `tools[] = {type: "function", function: {name, description, parameters}}`; the documented JSON
 * Schema subset has no numeric, length or item-count constraints, no `allOf`/`oneOf`/`not`, no anchors or
 * lookarounds in `pattern`, and `default` is not listed, so those move into the description. Calls are
 * `message.toolCalls` (SDK) / `tool_calls` (wire) with JSON-text arguments, streamed as `tool-call-start` /
 * `tool-call-delta` / `tool-call-end` events per `index`; results are `{role: "tool", toolCallId, content:
 * [{type: "document", document: {data}}]}` (no error flag: an `{"error": ...}` document).
 * Reference: provider-formats.md §8.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
