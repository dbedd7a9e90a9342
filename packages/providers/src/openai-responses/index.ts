/**
 * OpenAI Responses API: flat function tools `{type: "function", name, description, parameters, strict}` (strict is
 * always sent explicitly: the API's default differs from Chat Completions), calls as `function_call` output items
 * (`call_id` answers them), streamed as `response.output_item.added` / `response.function_call_arguments.delta` /
 * `.done` events keyed by `output_index`, results as `function_call_output` input items (no error flag).
 * Reference: provider-formats.md §2.
 */
export * from './tools';
export * from './calls';
export * from './results';
export * from './provider';
export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions, ToolRestriction } from '../shared/tool-set';
export {
  OpenAIResponsesChatModel,
  type OpenAIResponsesClient,
  type OpenAIResponsesChatModelOptions,
  type OpenAIResponsesInputItem,
  type OpenAIResponsesRequestBody,
} from './chat-model';
