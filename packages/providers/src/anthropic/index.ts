/**
 * Anthropic Messages: `tools[] = {name, description, input_schema, strict?}` (`input_schema` must be an object
 * schema with no `oneOf`/`anyOf`/`allOf` at the root), calls as `tool_use` content blocks with object input,
 * streamed as `content_block_start` + `input_json_delta` fragments per block `index` + `content_block_stop`,
 * results as `tool_result` blocks in one `user` message, errors flagged with `is_error: true`.
 * Strict tool use has its own subset (no numeric/length constraints, `additionalProperties: false`) and keeps
 * optional properties optional (its union and optional-parameter limits rule out OpenAI's nullable trick).
 * Reference: provider-formats.md §3.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import { ANTHROPIC_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { isPlainObject, type JsonSchema } from '../shared/json-schema';
import { lowerByPolicy } from '../shared/lowering/keyword-policy';
import { ANTHROPIC_STRICT_POLICY, withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE, withMaxLength } from '../shared/name-profiles';
import type { ProviderDescriptor } from '../shared/provider';
import { arrayAt, asRecord, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { errorMessageText, successText } from '../shared/results';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { includes, notInVersion, resolveApiVersion } from '../shared/api-versions';
import { anthropicStrictFindings } from '../shared/strict-lint';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';
export { CallIdCodec, ANTHROPIC_CALL_ID_PROFILE } from '../shared/call-ids';

export interface AnthropicInputSchema {
  type: 'object';
  properties?: unknown;
  required?: string[];
  [keyword: string]: unknown;
}

/** `Tool` (custom tool) of the Messages API. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
  strict?: boolean;
  input_examples?: Array<Record<string, unknown>>;
}

export interface AnthropicToolsOptions extends ToolSetOptions {
  /** Strict tool use: the strict subset, `strict: true` on every tool. Default false. */
  readonly strict?: boolean;
  /**
   * The longest tool name to produce. Default 64 (older API versions and error messages); the current docs
   * allow 128.
   */
  readonly maxNameLength?: 64 | 128;
}

/** The portable name rule (§3.1: 64 in older docs and errors, 128 in the current docs). */
export const ANTHROPIC_NAME_PROFILE = Object.freeze({ ...OPENAI_NAME_PROFILE, id: 'anthropic' });

/** The `input_schema` for a canonical schema. Root `examples` (argument objects) become `input_examples`. */
export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): AnthropicInputSchema {
  const parameters = withoutDocumentKeywords(canonical);
  const lowered = options.strict ? lowerByPolicy(parameters, ANTHROPIC_STRICT_POLICY) : parameters;
  return { ...lowered, type: 'object' } as AnthropicInputSchema;
}

/** Strict tool use and `input_examples` arrived with the structured-outputs beta. */
const STRICT_SINCE = '2025-11-13';

export function createToolSet(source: ToolSource, options: AnthropicToolsOptions = {}): ToolSet<AnthropicTool> {
  const strict = options.strict ?? false;
  const version = resolveApiVersion('anthropic', options.version);
  const current = includes(version, STRICT_SINCE);
  if (strict && !current) throw notInVersion('anthropic', options.version, 'strict tool use', STRICT_SINCE, `leave strict off, or pin ${STRICT_SINCE} or later.`);
  return buildToolSet({
    provider: 'anthropic',
    source,
    profile: withMaxLength(ANTHROPIC_NAME_PROFILE, options.maxNameLength ?? 64),
    options,
    // Strict tool use keeps optional properties optional: no nulls to map back.
    strict: false,
    lower: ({ name, description, parameters }) => {
      const inputSchema = lowerParameters(parameters, { strict });
      const examples = inputSchema['examples'];
      // Before input_examples existed, root examples stay in input_schema (plain JSON Schema `examples`).
      const movedExamples = current && Array.isArray(examples) && examples.length > 0 && examples.every((example) => isPlainObject(example));
      if (movedExamples) delete inputSchema['examples'];
      const tool: AnthropicTool = { name, ...(description !== undefined ? { description } : {}), input_schema: inputSchema };
      if (movedExamples) tool.input_examples = examples as Array<Record<string, unknown>>;
      if (strict) tool.strict = true;
      return tool;
    },
  });
}

export function toTools(source: ToolSource, options: AnthropicToolsOptions = {}): AnthropicTool[] {
  return createToolSet(source, options).tools;
}

export interface AnthropicParseOptions extends ParseToolCallsOptions {
  /** Maps provider ids back to the ids they were derived from (see `toToolResultMessage`). */
  readonly callIds?: CallIdCodec;
}

/** The calls of a `Message` (its `tool_use` blocks), or of a content block array. Input is an object. */
export function parseToolCalls(response: object | readonly object[], options: AnthropicParseOptions = {}): ParsedToolCall[] {
  const blocks = Array.isArray(response) ? response : arrayAt(response, 'content');
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const block of blocks) {
    if (stringAt(block, 'type') !== 'tool_use') continue;
    const id = stringAt(block, 'id');
    calls.push(builder.build(id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id), stringAt(block, 'name') ?? '', objectArguments(valueAt(block, 'input'))));
  }
  return calls;
}

/** Any Messages stream event (`MessageStreamEvent`/`RawMessageStreamEvent`). */
export interface AnthropicStreamEventLike {
  readonly type: string;
}

/**
 * Accumulates Messages stream events: `content_block_start` (tool_use) opens a call, `input_json_delta`
 * fragments are concatenated per block `index`, `content_block_stop` completes it.
 */
export function createStreamAccumulator(options: AnthropicParseOptions = {}): ToolCallAccumulator<AnthropicStreamEventLike> {
  const table = new PartialCallTable(options);
  return {
    get pending() {
      return table.pending;
    },
    push(event) {
      const index = numberAt(event, 'index') ?? 0;
      switch (event.type) {
        case 'content_block_start': {
          const block = recordAt(event, 'content_block');
          if (stringAt(block, 'type') === 'tool_use') {
            const id = stringAt(block, 'id');
            table.start(index, id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id), stringAt(block, 'name') ?? '', objectArguments(valueAt(block, 'input') ?? {}));
          }
          return [];
        }
        case 'content_block_delta': {
          const delta = asRecord((event as { delta?: unknown }).delta);
          if (stringAt(delta, 'type') === 'input_json_delta' && table.has(index)) table.append(index, stringAt(delta, 'partial_json') ?? '');
          return [];
        }
        case 'content_block_stop':
          return table.complete(index);
        default:
          return [];
      }
    },
    finish: () => table.completeAll(),
  };
}

export function streamCalls(events: AsyncIterable<AnthropicStreamEventLike>, options: AnthropicParseOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

/** `ToolResultBlockParam`. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** The `user` message that carries tool results (`MessageParam`). */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

export interface AnthropicResultOptions {
  /** Rewrites ids that do not match `^[a-zA-Z0-9_-]+$` and remembers them (pass the same codec to parse). */
  readonly callIds?: CallIdCodec;
}

const defaultCallIds = (): CallIdCodec => new CallIdCodec(ANTHROPIC_CALL_ID_PROFILE);

/** A result as a `tool_result` block: errors as `is_error: true` with the message as text. */
export function toToolResultBlock(result: ToolResult, options: AnthropicResultOptions = {}): AnthropicToolResultBlock {
  const toolUseId = (options.callIds ?? defaultCallIds()).toProvider(result.callId);
  if (result.ok) return { type: 'tool_result', tool_use_id: toolUseId, content: successText(result.value) };
  return { type: 'tool_result', tool_use_id: toolUseId, is_error: true, content: errorMessageText(result.error) };
}

/** One result as the `user` message that answers its call. */
export function toToolResultMessage(result: ToolResult, options: AnthropicResultOptions = {}): AnthropicToolResultMessage {
  return { role: 'user', content: [toToolResultBlock(result, options)] };
}

/** Parallel results: all `tool_result` blocks in one `user` message, in call order (as the API requires). */
export function toToolResultMessages(results: readonly ToolResult[], options: AnthropicResultOptions = {}): AnthropicToolResultMessage[] {
  const callIds = options.callIds ?? defaultCallIds();
  return results.length === 0 ? [] : [{ role: 'user', content: results.map((result) => toToolResultBlock(result, { callIds })) }];
}

/** Imports an Anthropic tool into the IR, undoing this package's lowering (notes, input_examples). */
export function fromTool(tool: AnthropicTool, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema = { ...tool.input_schema };
  if (tool.input_examples && tool.input_examples.length > 0) parameters['examples'] = tool.input_examples;
  return importToolDefinition(tool.name, tool.description, restoreNotes(parameters), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  module: '@toolwright/providers/anthropic',
  nameProfile: ANTHROPIC_NAME_PROFILE,
  limits: Object.freeze({ rootUnionsRejected: true }),
  argumentsEncoding: 'object',
  errorChannel: 'is_error',
  supportsStrict: true,
  createToolSet: (source, options) => createToolSet(source, options as AnthropicToolsOptions | undefined),
  parametersOf: (tool) => (tool as AnthropicTool).input_schema,
  nameOf: (tool) => (tool as AnthropicTool).name,
  lint: (_definitions, toolSet, options) =>
    options.strict ? anthropicStrictFindings('anthropic', toolSet, (tool) => (tool as AnthropicTool).input_schema) : [],
};

export {
  AnthropicChatModel,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  type AnthropicMessagesClient,
  type AnthropicChatModelOptions,
  type AnthropicRequestBlock,
  type AnthropicRequestMessage,
  type AnthropicRequestBody,
} from './chat-model';
