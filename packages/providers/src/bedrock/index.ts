/**
 * AWS Bedrock Converse / ConverseStream: `toolConfig.tools[] = {toolSpec: {name, description, inputSchema: {json}}}`
 * (description at least 1 character when present; names 1-64 `[a-zA-Z0-9_-]`), calls as `toolUse` content blocks
 * with object input, streamed as `contentBlockStart` / `contentBlockDelta` (JSON text fragments) /
 * `contentBlockStop` per `contentBlockIndex`, results as `toolResult` blocks in one `user` message with
 * `status: "error"` for errors (Claude and Nova). `toolSpec.strict` uses Anthropic's strict subset (assumed for
 * Bedrock, §7.1 ⚠️). Reference: provider-formats.md §7.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { BEDROCK_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { isPlainObject, type JsonObject, type JsonSchema } from '../shared/json-schema';
import { lowerByPolicy } from '../shared/lowering/keyword-policy';
import { ANTHROPIC_STRICT_POLICY, withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { arrayAt, asRecord, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { errorMessageText, successText, toJsonValue } from '../shared/results';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { anthropicStrictFindings } from '../shared/strict-lint';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { CallIdCodec, BEDROCK_CALL_ID_PROFILE } from '../shared/call-ids';

export const BEDROCK_NAME_PROFILE = Object.freeze({ ...OPENAI_NAME_PROFILE, id: 'bedrock' });

/** `ToolSpecification`. */
export interface BedrockToolSpecification {
  name: string;
  description?: string;
  inputSchema: { json: JsonObject };
  strict?: boolean;
}

/** `Tool` (the `toolSpec` member). */
export interface BedrockTool {
  toolSpec: BedrockToolSpecification;
}

export interface BedrockToolsOptions extends ToolSetOptions {
  /** `toolSpec.strict: true` with Anthropic's strict subset (select models only). Default false. */
  readonly strict?: boolean;
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonObject {
  const parameters = withoutDocumentKeywords(canonical);
  return (options.strict ? lowerByPolicy(parameters, ANTHROPIC_STRICT_POLICY) : parameters) as JsonObject;
}

export function createToolSet(source: ToolSource, options: BedrockToolsOptions = {}): ToolSet<BedrockTool> {
  const strict = options.strict ?? false;
  return buildToolSet({
    provider: 'bedrock',
    source,
    profile: BEDROCK_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => {
      // "description: minimum length 1": an empty one is left out.
      const toolSpec: BedrockToolSpecification = { name, ...(description ? { description } : {}), inputSchema: { json: lowerParameters(parameters, { strict }) } };
      if (strict) toolSpec.strict = true;
      return { toolSpec };
    },
  });
}

export function toTools(source: ToolSource, options: BedrockToolsOptions = {}): BedrockTool[] {
  return createToolSet(source, options).tools;
}

/** `toolConfig` for `ConverseCommand` (tools only; set `toolChoice` yourself). */
export function toToolConfiguration(source: ToolSource, options: BedrockToolsOptions = {}): { tools: BedrockTool[] } {
  return { tools: toTools(source, options) };
}

export interface BedrockParseOptions extends ParseToolCallsOptions {
  /** Maps `toolUseId`s back to the ids they were derived from. */
  readonly callIds?: CallIdCodec;
}

function contentOf(response: object | readonly object[]): readonly unknown[] {
  if (Array.isArray(response)) return response;
  const message = recordAt(response, 'output', 'message') ?? asRecord(response);
  return arrayAt(message, 'content');
}

/** The calls of a `ConverseResponse`, its `output.message`, or a content block array. */
export function parseToolCalls(response: object | readonly object[], options: BedrockParseOptions = {}): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const block of contentOf(response)) {
    const toolUse = recordAt(block, 'toolUse');
    if (!toolUse) continue;
    const id = stringAt(toolUse, 'toolUseId');
    calls.push(builder.build(id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id), stringAt(toolUse, 'name') ?? '', objectArguments(valueAt(toolUse, 'input') ?? {})));
  }
  return calls;
}

/**
 * Accumulates ConverseStream events (`ConverseStreamOutput`): `contentBlockStart.start.toolUse` opens a call,
 * `contentBlockDelta.delta.toolUse.input` fragments are concatenated per `contentBlockIndex`, `contentBlockStop`
 * completes it.
 */
export function createStreamAccumulator(options: BedrockParseOptions = {}): ToolCallAccumulator<object> {
  const table = new PartialCallTable(options);
  return {
    get pending() {
      return table.pending;
    },
    push(event) {
      const start = recordAt(event, 'contentBlockStart');
      if (start) {
        const toolUse = recordAt(start, 'start', 'toolUse');
        if (toolUse) {
          const id = stringAt(toolUse, 'toolUseId');
          table.start(numberAt(start, 'contentBlockIndex') ?? 0, id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id), stringAt(toolUse, 'name') ?? '', {});
        }
        return [];
      }
      const delta = recordAt(event, 'contentBlockDelta');
      if (delta) {
        const index = numberAt(delta, 'contentBlockIndex') ?? 0;
        const fragment = stringAt(delta, 'delta', 'toolUse', 'input');
        if (fragment !== undefined && table.has(index)) table.append(index, fragment);
        return [];
      }
      const stop = recordAt(event, 'contentBlockStop');
      if (stop) return table.complete(numberAt(stop, 'contentBlockIndex') ?? 0);
      return [];
    },
    finish: () => table.completeAll(),
  };
}

export function streamCalls(events: AsyncIterable<object>, options: BedrockParseOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

export type BedrockToolResultContent = { json: JsonObject } | { text: string };

/** `ToolResultBlock` inside its content block. */
export interface BedrockToolResultBlock {
  toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' };
}

/** The `user` `Message` carrying tool results. */
export interface BedrockToolResultMessage {
  role: 'user';
  content: BedrockToolResultBlock[];
}

export interface BedrockResultOptions {
  /** Rewrites ids that are not 1-64 `[a-zA-Z0-9_-]`, remembering them. */
  readonly callIds?: CallIdCodec;
  /**
   * `json` (default): an object value as a `{json}` block, anything else as text. `text`: always text (the most
   * portable: some non-Anthropic models reject `json` blocks).
   */
  readonly content?: 'json' | 'text';
  /** Send `status` (only Claude and Nova support it; errors are text either way). Default true. */
  readonly status?: boolean;
}

/** A result as a `toolResult` content block. */
export function toToolResultBlock(result: ToolResult, options: BedrockResultOptions = {}): BedrockToolResultBlock {
  const toolUseId = (options.callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE)).toProvider(result.callId);
  const withStatus = options.status ?? true;
  if (!result.ok) {
    return { toolResult: { toolUseId, content: [{ text: errorMessageText(result.error) }], ...(withStatus ? { status: 'error' as const } : {}) } };
  }
  const json = toJsonValue(result.value);
  const content: BedrockToolResultContent =
    options.content !== 'text' && isPlainObject(json) ? { json: json as JsonObject } : { text: successText(result.value) };
  return { toolResult: { toolUseId, content: [content], ...(withStatus ? { status: 'success' as const } : {}) } };
}

export function toToolResultMessage(result: ToolResult, options: BedrockResultOptions = {}): BedrockToolResultMessage {
  return { role: 'user', content: [toToolResultBlock(result, options)] };
}

/** Parallel results: all `toolResult` blocks in one `user` message. */
export function toToolResultMessages(results: readonly ToolResult[], options: BedrockResultOptions = {}): BedrockToolResultMessage[] {
  const callIds = options.callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE);
  return results.length === 0 ? [] : [{ role: 'user', content: results.map((result) => toToolResultBlock(result, { ...options, callIds })) }];
}

export function fromTool(tool: BedrockTool | BedrockToolSpecification, options: ImportOptions = {}): ToolDefinition {
  const spec = 'toolSpec' in tool ? tool.toolSpec : tool;
  return importToolDefinition(spec.name, spec.description, restoreNotes(spec.inputSchema.json), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'bedrock',
  label: 'AWS Bedrock Converse',
  module: '@toolwright/providers/bedrock',
  nameProfile: BEDROCK_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: false }),
  argumentsEncoding: 'object',
  errorChannel: 'status: "error"',
  supportsStrict: true,
  createToolSet: (source, options) => createToolSet(source, options as BedrockToolsOptions | undefined),
  parametersOf: (tool) => (tool as BedrockTool).toolSpec.inputSchema.json,
  nameOf: (tool) => (tool as BedrockTool).toolSpec.name,
  lint: (_definitions, toolSet, options) =>
    options.strict ? anthropicStrictFindings('bedrock', toolSet, (tool) => (tool as BedrockTool).toolSpec.inputSchema.json) : [],
};

export {
  BedrockChatModel,
  type BedrockRuntimeClientLike,
  type ConverseCommandConstructor,
  type BedrockChatModelOptions,
  type BedrockRequestBlock,
  type BedrockRequestMessage,
  type BedrockConverseInput,
} from './chat-model';
