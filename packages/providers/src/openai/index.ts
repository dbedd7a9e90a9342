/**
 * OpenAI Chat Completions: `tools[] = {type: "function", function: {name, description, parameters, strict}}`,
 * calls in `choices[0].message.tool_calls[]` with JSON-text arguments, streamed as `delta.tool_calls[]`
 * fragments keyed by `index`, results as `{role: "tool", tool_call_id, content}` (no error flag).
 * Reference: provider-formats.md §1.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { CallBuilder, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { lowerOpenAIParameters } from '../shared/lowering/openai-strict';
import { undoLowering } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { resultText } from '../shared/results';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { includes, notInVersion, resolveApiVersion } from '../shared/api-versions';
import { strictModeFindings } from '../shared/strict-lint';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { streamToolCalls } from '../shared/streaming';

export interface OpenAIFunctionDefinition {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict?: boolean | null;
}

/** `ChatCompletionFunctionTool`. */
export interface OpenAIChatTool {
  type: 'function';
  function: OpenAIFunctionDefinition;
}

export interface OpenAIToolsOptions extends ToolSetOptions {
  /**
   * Strict mode (Structured Outputs): every property required, optional ones nullable, `additionalProperties:
   * false` everywhere, unsupported keywords moved into descriptions. Default false (Chat Completions' default).
   */
  readonly strict?: boolean;
}

/** The limits of §1.1 (🧪 observed API errors). */
export const OPENAI_LIMITS = Object.freeze({
  maxTools: 128,
  maxDescriptionLength: 1024,
  rootUnionsRejected: true,
});

/** The `parameters` OpenAI gets for a canonical schema. */
export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  return lowerOpenAIParameters(canonical, options);
}

export function createToolSet(source: ToolSource, options: OpenAIToolsOptions = {}): ToolSet<OpenAIChatTool> {
  const strict = options.strict ?? false;
  const version = resolveApiVersion('openai', options.version);
  if (!includes(version, TOOLS_SINCE)) {
    throw notInVersion('openai', options.version, '`tools`', TOOLS_SINCE, 'that API takes the legacy `functions` field: send openai.toFunctions(registry, { version }) as `functions`, or pin a later version.');
  }
  if (strict && !includes(version, STRICT_SINCE)) {
    throw notInVersion('openai', options.version, '`strict: true` (Structured Outputs)', STRICT_SINCE, `leave strict off, or pin ${STRICT_SINCE} or later.`);
  }
  return buildToolSet({
    provider: 'openai',
    source,
    profile: OPENAI_NAME_PROFILE,
    options,
    strict,
    lower: ({ name, description, parameters }) => {
      const definition: OpenAIFunctionDefinition = { name };
      if (description !== undefined) definition.description = description;
      definition.parameters = lowerParameters(parameters, { strict });
      if (strict) definition.strict = true;
      return { type: 'function', function: definition };
    },
  });
}

/** OpenAI's `functions` era ended with `tools` on this date; Structured Outputs (`strict`) came later. */
const TOOLS_SINCE = '2023-11-06';
const STRICT_SINCE = '2024-08-06';

export interface OpenAIFunctionsOptions extends ToolSetOptions {}

/**
 * The legacy `functions` request field (`ChatCompletionCreateParams.Function[]`: `{name, description, parameters}`,
 * no `strict`), for APIs pinned before `tools` (2023-06-13 to 2023-11-05). OpenAI still accepts it, deprecated.
 */
export function createFunctionSet(source: ToolSource, options: OpenAIFunctionsOptions = {}): ToolSet<OpenAIFunctionDefinition> {
  return buildToolSet({
    provider: 'openai',
    source,
    profile: OPENAI_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => ({ name, ...(description !== undefined ? { description } : {}), parameters: lowerParameters(parameters) }),
  });
}

/** The `functions` of a Chat Completions request pinned to the functions era (see `createFunctionSet`). */
export function toFunctions(source: ToolSource, options: OpenAIFunctionsOptions = {}): OpenAIFunctionDefinition[] {
  return createFunctionSet(source, options).tools;
}

/** The Chat Completions `tools` for a registry or definitions. Use `createToolSet` to keep the codec. */
export function toTools(source: ToolSource, options: OpenAIToolsOptions = {}): OpenAIChatTool[] {
  return createToolSet(source, options).tools;
}

export interface OpenAIChatToolCallLike {
  readonly id?: string;
  readonly type?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string | null };
  readonly custom?: { readonly name?: string; readonly input?: string };
}

export interface OpenAIChatMessageLike {
  readonly tool_calls?: readonly OpenAIChatToolCallLike[] | null;
}

export interface OpenAIChatCompletionLike {
  readonly choices: ReadonlyArray<{ readonly message?: OpenAIChatMessageLike | null }>;
}

export interface OpenAIParseOptions extends ParseToolCallsOptions {
  /** Which choice to read when `n > 1`. Default 0. */
  readonly choice?: number;
}

/**
 * The calls of a `ChatCompletion` (or of its `message`, or of a `tool_calls` array). Arguments stay JSON text for
 * the executor; custom (free-text) tool calls carry their input text as arguments.
 */
export function parseToolCalls(
  response: OpenAIChatCompletionLike | OpenAIChatMessageLike | readonly OpenAIChatToolCallLike[],
  options: OpenAIParseOptions = {},
): ParsedToolCall[] {
  const toolCalls = Array.isArray(response)
    ? (response as readonly OpenAIChatToolCallLike[])
    : 'choices' in (response as object)
      ? ((response as OpenAIChatCompletionLike).choices[options.choice ?? 0]?.message?.tool_calls ?? [])
      : ((response as OpenAIChatMessageLike).tool_calls ?? []);
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const toolCall of toolCalls) {
    if (toolCall.function) {
      calls.push(builder.build(toolCall.id, toolCall.function.name ?? '', toolCall.function.arguments ?? null));
    } else if (toolCall.custom) {
      calls.push(builder.build(toolCall.id, toolCall.custom.name ?? '', toolCall.custom.input ?? null));
    }
  }
  return calls;
}

export interface OpenAIChatChunkLike {
  readonly choices: ReadonlyArray<{
    readonly index?: number;
    readonly delta?: {
      readonly tool_calls?: ReadonlyArray<{
        readonly index: number;
        readonly id?: string;
        readonly type?: string;
        readonly function?: { readonly name?: string; readonly arguments?: string };
      }> | null;
    } | null;
    readonly finish_reason?: string | null;
  }>;
}

/**
 * Accumulates `ChatCompletionChunk`s: fragments are concatenated per `index` (parallel calls may interleave); the
 * calls are complete when the choice's `finish_reason` arrives (or at `finish()`).
 */
export function createStreamAccumulator(options: OpenAIParseOptions = {}): ToolCallAccumulator<OpenAIChatChunkLike> {
  const table = new PartialCallTable(options);
  const choiceIndex = options.choice ?? 0;
  return {
    get pending() {
      return table.pending;
    },
    push(chunk) {
      let finished = false;
      for (const choice of chunk.choices) {
        if ((choice.index ?? 0) !== choiceIndex) continue;
        for (const fragment of choice.delta?.tool_calls ?? []) {
          if (fragment.id !== undefined || fragment.function?.name !== undefined) {
            table.start(fragment.index, fragment.id, fragment.function?.name ?? '');
          }
          if (fragment.function?.arguments) table.append(fragment.index, fragment.function.arguments);
        }
        if (choice.finish_reason) finished = true;
      }
      return finished ? table.completeAll() : [];
    },
    finish: () => table.completeAll(),
  };
}

/** `ChatCompletionToolMessageParam`. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A result as the tool message; an error is a JSON `{"error": {code, message, retryable}}` text (no error flag). */
export function toToolResultMessage(result: ToolResult): OpenAIToolMessage {
  return { role: 'tool', tool_call_id: result.callId, content: resultText(result) };
}

/** One tool message per result, in order. */
export function toToolResultMessages(results: readonly ToolResult[]): OpenAIToolMessage[] {
  return results.map((result) => toToolResultMessage(result));
}

/**
 * Imports an OpenAI function tool into the IR, undoing this package's lowering (strict optionals, description
 * notes). Pass the tool set's codec to get the registry name back.
 */
export function fromTool(tool: OpenAIChatTool | OpenAIFunctionDefinition, options: ImportOptions = {}): ToolDefinition {
  const definition = 'function' in tool ? tool.function : tool;
  const parameters: JsonSchema = definition.parameters ?? { type: 'object', properties: {} };
  return importToolDefinition(definition.name, definition.description, undoLowering(parameters, { strict: definition.strict === true }), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'openai',
  label: 'OpenAI Chat Completions',
  module: '@toolwright/providers/openai',
  nameProfile: OPENAI_NAME_PROFILE,
  limits: OPENAI_LIMITS,
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  createToolSet: (source, options) => createToolSet(source, options as OpenAIToolsOptions | undefined),
  parametersOf: (tool) => (tool as OpenAIChatTool).function.parameters,
  nameOf: (tool) => (tool as OpenAIChatTool).function.name,
  lint: (definitions, toolSet, options) => (options.strict ? strictModeFindings('openai', toolSet, (tool) => (tool as OpenAIChatTool).function.parameters) : []),
};

/** Streams complete calls out of an SDK stream of chunks. */
export function streamCalls(chunks: AsyncIterable<OpenAIChatChunkLike>, options: OpenAIParseOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(chunks, createStreamAccumulator(options));
}

export { OpenAIChatModel, type OpenAIChatClient, type OpenAIChatModelOptions, type OpenAIChatRequestBody, type OpenAIChatRequestMessage } from './chat-model';
