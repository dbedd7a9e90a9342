/**
 * Mistral (La Plateforme chat completions): OpenAI-style `tools[].function` with `parameters` required, calls in
 * `choices[0].message.toolCalls` (SDK, camelCase) or `tool_calls` (wire) with JSON-text (or object) arguments,
 * streamed as deltas keyed by `index` (often whole), results as `{role: "tool", toolCallId, name, content}`
 * (no error flag). Call ids must be exactly 9 alphanumeric characters: ids from other providers are mapped with a
 * `CallIdCodec`, both ways. Reference: provider-formats.md §5.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { CallIdCodec, MISTRAL_CALL_ID_PROFILE } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { lowerOpenAIStrict } from '../shared/lowering/openai-strict';
import { withoutDocumentKeywords } from '../shared/lowering/policies';
import { undoLowering } from '../shared/lowering/reverse';
import type { ToolNameCodec } from '../shared/name-codec';
import { OPENAI_NAME_PROFILE, matchesProfile } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { arrayAt, firstDefined, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { resultText } from '../shared/results';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { strictModeFindings } from '../shared/strict-lint';
import { buildToolSet, type ToolSet, type ToolSetContext, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { CallIdCodec, MISTRAL_CALL_ID_PROFILE } from '../shared/call-ids';

/** Mistral's tool name rule (mistral-common's validator): `^[a-zA-Z0-9_-]{1,64}$`. */
export const MISTRAL_NAME_PROFILE = Object.freeze({ ...OPENAI_NAME_PROFILE, id: 'mistral' });

/** `Tool` (`FunctionT` inside). */
export interface MistralTool {
  type: 'function';
  function: { name: string; description?: string; strict?: boolean; parameters: Record<string, unknown> };
}

export interface MistralToolsOptions extends ToolSetOptions {
  /**
   * Send `strict: true` with OpenAI's strict lowering (all required, optional ones nullable). Mistral's strict
   * semantics are unverified (§5.1 ⚠️); default false.
   */
  readonly strict?: boolean;
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  const parameters = withoutDocumentKeywords(canonical);
  return options.strict ? lowerOpenAIStrict(parameters) : parameters;
}

export function createToolSet(source: ToolSource, options: MistralToolsOptions = {}): ToolSet<MistralTool> {
  const strict = options.strict ?? false;
  return buildToolSet({
    provider: 'mistral',
    source,
    profile: MISTRAL_NAME_PROFILE,
    options,
    strict,
    lower: ({ name, description, parameters }) => {
      const definition: MistralTool['function'] = { name, ...(description !== undefined ? { description } : {}), parameters: lowerParameters(parameters, { strict }) };
      if (strict) definition.strict = true;
      return { type: 'function', function: definition };
    },
  });
}

export function toTools(source: ToolSource, options: MistralToolsOptions = {}): MistralTool[] {
  return createToolSet(source, options).tools;
}

export interface MistralParseOptions extends ParseToolCallsOptions {
  /** Maps Mistral ids back to the ids they were derived from (the codec used for `toToolResultMessage`). */
  readonly callIds?: CallIdCodec;
  /** Which choice to read. Default 0. */
  readonly choice?: number;
}

function toolCallsOf(message: unknown): readonly unknown[] {
  const calls = firstDefined(message, 'toolCalls', 'tool_calls');
  return Array.isArray(calls) ? calls : [];
}

/**
 * The calls of a `ChatCompletionResponse` (SDK or wire JSON), of its message, or of a tool call array.
 * Arguments stay as sent (Mistral returns JSON text; an object is passed on as is).
 */
export function parseToolCalls(response: object | readonly object[], options: MistralParseOptions = {}): ParsedToolCall[] {
  const toolCalls = Array.isArray(response)
    ? response
    : arrayAt(response, 'choices').length > 0
      ? toolCallsOf(valueAt(arrayAt(response, 'choices')[options.choice ?? 0], 'message'))
      : toolCallsOf(response);
  const builder = new CallBuilder(options);
  return toolCalls.map((toolCall) => {
    const id = stringAt(toolCall, 'id');
    return builder.build(
      id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id),
      stringAt(toolCall, 'function', 'name') ?? '',
      objectArguments(valueAt(toolCall, 'function', 'arguments') ?? null),
    );
  });
}

/**
 * Accumulates stream chunks (`CompletionEvent` from the SDK, or a wire chunk): tool calls keyed by `index` (whole
 * or in argument fragments), complete when the choice's `finishReason`/`finish_reason` arrives (or at `finish()`).
 */
export function createStreamAccumulator(options: MistralParseOptions = {}): ToolCallAccumulator<object> {
  const table = new PartialCallTable(options);
  const choiceIndex = options.choice ?? 0;
  return {
    get pending() {
      return table.pending;
    },
    push(event) {
      const chunk = recordAt(event, 'data') ?? event;
      let finished = false;
      for (const choice of arrayAt(chunk, 'choices')) {
        if ((numberAt(choice, 'index') ?? 0) !== choiceIndex) continue;
        toolCallsOf(recordAt(choice, 'delta')).forEach((toolCall, position) => {
          const key = numberAt(toolCall, 'index') ?? position;
          // Later fragments may carry the id "null" (a string): that is no id.
          const rawId = stringAt(toolCall, 'id');
          const id = rawId === 'null' || rawId === '' ? undefined : rawId;
          const name = stringAt(toolCall, 'function', 'name');
          if (id || name) table.start(key, id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id), name ?? '');
          const fragment = valueAt(toolCall, 'function', 'arguments');
          if (typeof fragment === 'string') table.append(key, fragment);
          else if (fragment !== undefined && fragment !== null) table.append(key, JSON.stringify(fragment));
        });
        if (firstDefined(choice, 'finishReason', 'finish_reason')) finished = true;
      }
      return finished ? table.completeAll() : [];
    },
    finish: () => table.completeAll(),
  };
}

export function streamCalls(events: AsyncIterable<object>, options: MistralParseOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

/** `ToolMessage` as the SDK takes it. */
export interface MistralToolMessage {
  role: 'tool';
  toolCallId: string;
  name?: string;
  content: string;
}

/** The same message as wire JSON (raw REST). */
export interface MistralWireToolMessage {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content: string;
}

export interface MistralResultOptions {
  /** Maps ids that are not 9 alphanumeric characters, and remembers them for `parseToolCalls`. */
  readonly callIds?: CallIdCodec;
  /** The tool set (or codec) the call came from, to name the function as Mistral knows it. */
  readonly toolSet?: Pick<ToolSetContext, 'codec'>;
  readonly codec?: ToolNameCodec;
}

function functionName(tool: string, options: MistralResultOptions): string | undefined {
  const codec = options.toolSet?.codec ?? options.codec;
  const name = codec?.has(tool) ? codec.encode(tool) : tool;
  // `name` is optional but validated against the name rule: leave out one that would be rejected.
  return matchesProfile(name, MISTRAL_NAME_PROFILE) ? name : undefined;
}

/** A result as the SDK's tool message (an error is a JSON `{"error": ...}` content: no error flag). */
export function toToolResultMessage(result: ToolResult, options: MistralResultOptions = {}): MistralToolMessage {
  const callIds = options.callIds ?? new CallIdCodec(MISTRAL_CALL_ID_PROFILE);
  const name = functionName(result.tool, options);
  return { role: 'tool', toolCallId: callIds.toProvider(result.callId), ...(name ? { name } : {}), content: resultText(result) };
}

/** The same as wire JSON (`tool_call_id`), for raw REST. */
export function toWireToolResultMessage(result: ToolResult, options: MistralResultOptions = {}): MistralWireToolMessage {
  const { toolCallId, ...rest } = toToolResultMessage(result, options);
  return { role: rest.role, tool_call_id: toolCallId, ...(rest.name ? { name: rest.name } : {}), content: rest.content };
}

export function toToolResultMessages(results: readonly ToolResult[], options: MistralResultOptions = {}): MistralToolMessage[] {
  const callIds = options.callIds ?? new CallIdCodec(MISTRAL_CALL_ID_PROFILE);
  return results.map((result) => toToolResultMessage(result, { ...options, callIds }));
}

export function fromTool(tool: MistralTool | MistralTool['function'], options: ImportOptions = {}): ToolDefinition {
  const definition = 'function' in tool ? tool.function : tool;
  return importToolDefinition(definition.name, definition.description, undoLowering(definition.parameters, { strict: definition.strict === true }), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'mistral',
  label: 'Mistral',
  module: '@toolwright/providers/mistral',
  nameProfile: MISTRAL_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  createToolSet: (source, options) => createToolSet(source, options as MistralToolsOptions | undefined),
  parametersOf: (tool) => (tool as MistralTool).function.parameters,
  nameOf: (tool) => (tool as MistralTool).function.name,
  lint: (_definitions, toolSet, options) => (options.strict ? strictModeFindings('mistral', toolSet, (tool) => (tool as MistralTool).function.parameters) : []),
};

export { MistralChatModel, type MistralChatClient, type MistralChatModelOptions, type MistralRequestMessage, type MistralRequest } from './chat-model';
