/**
 * OpenAI Chat Completions: `tools[] = {type: "function", function: {name, description, parameters, strict}}`,
 * calls in `choices[0].message.tool_calls[]` with JSON-text arguments, streamed as `delta.tool_calls[]`
 * fragments keyed by `index`, results as `{role: "tool", tool_call_id, content}` (no error flag).
 * Reference: provider-formats.md §1.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions, ToolRestriction } from '../shared/tool-set';
export { streamToolCalls } from '../shared/streaming';
export {
  OpenAIChatModel,
  type OpenAIChatClient,
  type OpenAIChatModelOptions,
  type OpenAIChatRequestBody,
  type OpenAIChatRequestMessage,
} from './chat-model';
