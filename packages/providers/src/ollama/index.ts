/**
 * Ollama native `/api/chat`: OpenAI-like `tools[].function.parameters`, but the server decodes them into Go structs
 * that keep only `type`, `description`, `enum`, `items`, `properties`, `required`, `anyOf` and `$defs`; every
 * other keyword is silently dropped, so the lowering folds it into the description (the model then still reads
 * "1-50", "default 10", "date-time"). Calls arrive whole in `message.tool_calls` with object arguments (ids since
 * late 2025); results are `{role: "tool", tool_name, tool_call_id?, content}` (no error flag).
 * Reference: provider-formats.md §6.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { isGeneratedCallId } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { inlineLocalReferences, lowerByPolicy } from '../shared/lowering/keyword-policy';
import { OLLAMA_POLICY, withoutDocumentKeywords } from '../shared/lowering/policies';
import { undoLowering } from '../shared/lowering/reverse';
import type { ToolNameCodec } from '../shared/name-codec';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { arrayAt, recordAt, stringAt, valueAt } from '../shared/read';
import { resultText } from '../shared/results';
import { streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { buildToolSet, type ToolSet, type ToolSetContext, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';

export interface OllamaParameters {
  type: string;
  required?: string[];
  properties?: Record<string, { type?: string | string[]; description?: string; enum?: unknown[]; items?: unknown; [keyword: string]: unknown }>;
  $defs?: unknown;
  [keyword: string]: unknown;
}

/** `Tool` of the ollama JS client. */
export interface OllamaTool {
  type: 'function';
  function: { name: string; description?: string; parameters: OllamaParameters };
}

export interface OllamaToolsOptions extends ToolSetOptions {
  /**
   * `portable` (default): only the keywords the server keeps, the rest folded into descriptions.
   * `none`: the canonical schema as is (the server drops what it does not know).
   */
  readonly lowering?: 'portable' | 'none';
}

export function lowerParameters(canonical: JsonSchema, options: { readonly lowering?: 'portable' | 'none' } = {}): OllamaParameters {
  const parameters = withoutDocumentKeywords(canonical);
  if (options.lowering === 'none') return parameters as OllamaParameters;
  return lowerByPolicy(inlineLocalReferences(parameters), OLLAMA_POLICY) as OllamaParameters;
}

export function createToolSet(source: ToolSource, options: OllamaToolsOptions = {}): ToolSet<OllamaTool> {
  return buildToolSet({
    provider: 'ollama',
    source,
    profile: PORTABLE_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => ({
      type: 'function',
      function: { name, ...(description !== undefined ? { description } : {}), parameters: lowerParameters(parameters, options) },
    }),
  });
}

export function toTools(source: ToolSource, options: OllamaToolsOptions = {}): OllamaTool[] {
  return createToolSet(source, options).tools;
}

function toolCallsOf(response: object | readonly object[]): readonly unknown[] {
  if (Array.isArray(response)) return response;
  const message = recordAt(response, 'message');
  return arrayAt(message ?? response, 'tool_calls');
}

/**
 * The calls of a `ChatResponse` (or stream chunk), its `message`, or a `tool_calls` array. Ids (`call_…`) are
 * kept when the server sent them (the JS client's type does not declare `id` yet); otherwise generated.
 */
export function parseToolCalls(response: object | readonly object[], options: ParseToolCallsOptions = {}): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  return toolCallsOf(response).map((toolCall) =>
    builder.build(stringAt(toolCall, 'id'), stringAt(toolCall, 'function', 'name') ?? '', objectArguments(valueAt(toolCall, 'function', 'arguments') ?? {})),
  );
}

/** Stream chunks carry whole calls: each chunk's calls are returned as they arrive. */
export function createStreamAccumulator(options: ParseToolCallsOptions = {}): ToolCallAccumulator<object> {
  return {
    pending: 0,
    push: (chunk) => parseToolCalls(chunk, options),
    finish: () => [],
  };
}

export function streamCalls(chunks: AsyncIterable<object>, options: ParseToolCallsOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(chunks, createStreamAccumulator(options));
}

/** The tool `Message` (`tool_call_id` is accepted by servers since late 2025). */
export interface OllamaToolMessage {
  role: 'tool';
  tool_name: string;
  tool_call_id?: string;
  content: string;
}

export interface OllamaResultOptions {
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
}

/** A result as a tool message; an error is a JSON `{"error": ...}` content (no error flag). */
export function toToolResultMessage(result: ToolResult, options: OllamaResultOptions = {}): OllamaToolMessage {
  const codec = options.toolSet?.codec ?? options.codec;
  const message: OllamaToolMessage = {
    role: 'tool',
    tool_name: codec?.has(result.tool) ? codec.encode(result.tool) : result.tool,
    content: resultText(result),
  };
  if (!isGeneratedCallId(result.callId)) message.tool_call_id = result.callId;
  return message;
}

export function toToolResultMessages(results: readonly ToolResult[], options: OllamaResultOptions = {}): OllamaToolMessage[] {
  return results.map((result) => toToolResultMessage(result, options));
}

/** Imports an Ollama tool into the IR: description notes back into keywords, objects closed again. */
export function fromTool(tool: OllamaTool, options: ImportOptions = {}): ToolDefinition {
  return importToolDefinition(tool.function.name, tool.function.description, undoLowering(tool.function.parameters, { closeObjects: true }), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'ollama',
  label: 'Ollama /api/chat',
  module: '@toolwright/providers/ollama',
  nameProfile: PORTABLE_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'object',
  errorChannel: undefined,
  supportsStrict: false,
  createToolSet: (source, options) => createToolSet(source, options as OllamaToolsOptions | undefined),
  parametersOf: (tool) => (tool as OllamaTool).function.parameters,
  nameOf: (tool) => (tool as OllamaTool).function.name,
};

export {
  OllamaChatModel,
  type OllamaChatClient,
  type OllamaChatStream,
  type OllamaChatModelOptions,
  type OllamaRequestMessage,
  type OllamaRequest,
} from './chat-model';
