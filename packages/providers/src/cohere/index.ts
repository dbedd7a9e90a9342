/**
 * Cohere v2 chat: `tools[] = {type: "function", function: {name, description, parameters}}`; the documented JSON
 * Schema subset has no numeric, length or item-count constraints, no `allOf`/`oneOf`/`not`, no anchors or
 * lookarounds in `pattern`, and `default` is not listed, so those move into the description. Calls are
 * `message.toolCalls` (SDK) / `tool_calls` (wire) with JSON-text arguments, streamed as `tool-call-start` /
 * `tool-call-delta` / `tool-call-end` events per `index`; results are `{role: "tool", toolCallId, content:
 * [{type: "document", document: {data}}]}` (no error flag: an `{"error": ...}` document).
 * Reference: provider-formats.md §8.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonObject, JsonSchema } from '../shared/json-schema';
import { lowerByPolicy } from '../shared/lowering/keyword-policy';
import { coherePolicy, withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { arrayAt, firstDefined, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { errorObject, resultObject } from '../shared/results';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { cohereStrictFindings } from '../shared/strict-lint';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';

/** `ToolV2`. */
export interface CohereTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface CohereToolsOptions extends ToolSetOptions {
  /** Lower for `strict_tools: true` (also moves `uniqueItems`); set `strictTools: true` on the request yourself. */
  readonly strict?: boolean;
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  return lowerByPolicy(withoutDocumentKeywords(canonical), coherePolicy(options.strict ?? false));
}

export function createToolSet(source: ToolSource, options: CohereToolsOptions = {}): ToolSet<CohereTool> {
  return buildToolSet({
    provider: 'cohere',
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

export function toTools(source: ToolSource, options: CohereToolsOptions = {}): CohereTool[] {
  return createToolSet(source, options).tools;
}

function toolCallsOf(message: unknown): readonly unknown[] {
  const calls = firstDefined(message, 'toolCalls', 'tool_calls');
  return Array.isArray(calls) ? calls : [];
}

/** The calls of a `V2ChatResponse` (SDK or wire), its `message`, or a tool call array. */
export function parseToolCalls(response: object | readonly object[], options: ParseToolCallsOptions = {}): ParsedToolCall[] {
  const toolCalls = Array.isArray(response) ? response : toolCallsOf(recordAt(response, 'message') ?? response);
  const builder = new CallBuilder(options);
  return toolCalls.map((toolCall) =>
    builder.build(stringAt(toolCall, 'id'), stringAt(toolCall, 'function', 'name') ?? '', objectArguments(valueAt(toolCall, 'function', 'arguments') ?? null)),
  );
}

/** One stream event's tool call (`delta.message.toolCalls` is one object in stream events, not a list). */
function streamedToolCall(event: unknown): unknown {
  const calls = firstDefined(recordAt(event, 'delta', 'message'), 'toolCalls', 'tool_calls');
  return Array.isArray(calls) ? calls[0] : calls;
}

/**
 * Accumulates v2 stream events (`V2ChatStreamResponse`): `tool-call-start` opens a call, `tool-call-delta`
 * argument fragments are concatenated per `index`, `tool-call-end` completes it.
 */
export function createStreamAccumulator(options: ParseToolCallsOptions = {}): ToolCallAccumulator<object> {
  const table = new PartialCallTable(options);
  return {
    get pending() {
      return table.pending;
    },
    push(event) {
      const index = numberAt(event, 'index') ?? 0;
      switch (stringAt(event, 'type')) {
        case 'tool-call-start': {
          const toolCall = streamedToolCall(event);
          table.start(index, stringAt(toolCall, 'id'), stringAt(toolCall, 'function', 'name') ?? '', undefined, stringAt(toolCall, 'function', 'arguments') ?? '');
          return [];
        }
        case 'tool-call-delta': {
          const fragment = stringAt(streamedToolCall(event), 'function', 'arguments');
          if (fragment !== undefined) table.append(index, fragment);
          return [];
        }
        case 'tool-call-end':
          return table.complete(index);
        default:
          return [];
      }
    },
    finish: () => table.completeAll(),
  };
}

export function streamCalls(events: AsyncIterable<object>, options: ParseToolCallsOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

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
  else if (typeof result.value === 'string') content = { type: 'text', text: result.value };
  else content = { type: 'document', document: { data: resultObject(result.value) } };
  return { role: 'tool', toolCallId: result.callId, content: [content] };
}

export function toWireToolResultMessage(result: ToolResult): CohereWireToolMessage {
  const { toolCallId, content } = toToolResultMessage(result);
  return { role: 'tool', tool_call_id: toolCallId, content };
}

export function toToolResultMessages(results: readonly ToolResult[]): CohereToolMessage[] {
  return results.map((result) => toToolResultMessage(result));
}

export function fromTool(tool: CohereTool | CohereTool['function'], options: ImportOptions = {}): ToolDefinition {
  const definition = 'function' in tool ? tool.function : tool;
  return importToolDefinition(definition.name, definition.description, restoreNotes(definition.parameters), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'cohere',
  label: 'Cohere v2',
  module: '@toolwright/providers/cohere',
  nameProfile: PORTABLE_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  createToolSet: (source, options) => createToolSet(source, options as CohereToolsOptions | undefined),
  parametersOf: (tool) => (tool as CohereTool).function.parameters,
  nameOf: (tool) => (tool as CohereTool).function.name,
  lint: (_definitions, toolSet, options) => (options.strict ? cohereStrictFindings(toolSet, (tool) => (tool as CohereTool).function.parameters) : []),
};
