/**
 * OpenAI Responses API: flat function tools `{type: "function", name, description, parameters, strict}` (strict is
 * always sent explicitly: the API's default differs from Chat Completions), calls as `function_call` output items
 * (`call_id` answers them), streamed as `response.output_item.added` / `response.function_call_arguments.delta` /
 * `.done` events keyed by `output_index`, results as `function_call_output` input items (no error flag).
 * Reference: provider-formats.md §2.
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
import { arrayAt, asRecord, numberAt, stringAt } from '../shared/read';
import { resultText } from '../shared/results';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { strictModeFindings } from '../shared/strict-lint';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export type { ParsedToolCall, ParseToolCallsOptions } from '../shared/calls';
export type { ToolSet, ToolSetOptions } from '../shared/tool-set';

/** `FunctionTool` of the Responses API. */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

export interface OpenAIResponsesToolsOptions extends ToolSetOptions {
  /** Strict mode (see `@toolwright/providers/openai`). Default false; always sent explicitly. */
  readonly strict?: boolean;
}

/** Same limits as Chat Completions; the name length is assumed (§2.1 ⚠️). */
export const OPENAI_RESPONSES_LIMITS = Object.freeze({
  maxTools: 128,
  maxDescriptionLength: 1024,
  rootUnionsRejected: true,
});

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  return lowerOpenAIParameters(canonical, options);
}

export function createToolSet(source: ToolSource, options: OpenAIResponsesToolsOptions = {}): ToolSet<OpenAIResponsesFunctionTool> {
  const strict = options.strict ?? false;
  return buildToolSet({
    provider: 'openai-responses',
    source,
    profile: OPENAI_NAME_PROFILE,
    options,
    strict,
    lower: ({ name, description, parameters }) => {
      const tool: OpenAIResponsesFunctionTool = { type: 'function', name, parameters: lowerParameters(parameters, { strict }), strict };
      if (description !== undefined) tool.description = description;
      return tool;
    },
  });
}

export function toTools(source: ToolSource, options: OpenAIResponsesToolsOptions = {}): OpenAIResponsesFunctionTool[] {
  return createToolSet(source, options).tools;
}

/**
 * The calls of a `Response` (its `function_call` output items), or of an output item array. The call id is
 * `call_id` (what `function_call_output` answers), not the item id.
 */
export function parseToolCalls(response: object | readonly object[], options: ParseToolCallsOptions = {}): ParsedToolCall[] {
  const items = Array.isArray(response) ? response : arrayAt(response, 'output');
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const item of items) {
    const type = stringAt(item, 'type');
    if (type === 'function_call') {
      calls.push(builder.build(stringAt(item, 'call_id'), stringAt(item, 'name') ?? '', stringAt(item, 'arguments') ?? null));
    } else if (type === 'custom_tool_call') {
      calls.push(builder.build(stringAt(item, 'call_id'), stringAt(item, 'name') ?? '', stringAt(item, 'input') ?? null));
    }
  }
  return calls;
}

/** Any Responses stream event (`ResponseStreamEvent`); only the function-call events are read. */
export interface OpenAIResponsesStreamEventLike {
  readonly type: string;
}

/**
 * Accumulates Responses stream events: `output_item.added` starts a call, `function_call_arguments.delta`
 * fragments are concatenated per `output_index`, and `function_call_arguments.done` (or `output_item.done`)
 * completes it with the full arguments.
 */
export function createStreamAccumulator(options: ParseToolCallsOptions = {}): ToolCallAccumulator<OpenAIResponsesStreamEventLike> {
  const table = new PartialCallTable(options);
  return {
    get pending() {
      return table.pending;
    },
    push(event) {
      const outputIndex = numberAt(event, 'output_index');
      const key = outputIndex ?? stringAt(event, 'item_id') ?? '';
      switch (event.type) {
        case 'response.output_item.added': {
          const item = asRecord((event as { item?: unknown }).item);
          if (stringAt(item, 'type') === 'function_call') {
            table.start(key, stringAt(item, 'call_id'), stringAt(item, 'name') ?? '', undefined, stringAt(item, 'arguments') ?? '');
          }
          return [];
        }
        case 'response.function_call_arguments.delta':
          table.append(key, stringAt(event, 'delta') ?? '');
          return [];
        case 'response.function_call_arguments.done': {
          const name = stringAt(event, 'name');
          if (name) table.update(key, { name });
          return table.complete(key, stringAt(event, 'arguments'));
        }
        case 'response.output_item.done': {
          const item = asRecord((event as { item?: unknown }).item);
          if (stringAt(item, 'type') !== 'function_call') return [];
          if (!table.has(key)) return [];
          table.update(key, { id: stringAt(item, 'call_id'), name: stringAt(item, 'name') });
          return table.complete(key, stringAt(item, 'arguments'));
        }
        default:
          return [];
      }
    },
    finish: () => table.completeAll(),
  };
}

export function streamCalls(events: AsyncIterable<OpenAIResponsesStreamEventLike>, options: ParseToolCallsOptions = {}): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

/** `ResponseInputItem.FunctionCallOutput`. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** A result as a `function_call_output` input item; an error is a JSON `{"error": ...}` output (no error flag). */
export function toToolResultMessage(result: ToolResult): OpenAIFunctionCallOutput {
  return { type: 'function_call_output', call_id: result.callId, output: resultText(result) };
}

export function toToolResultMessages(results: readonly ToolResult[]): OpenAIFunctionCallOutput[] {
  return results.map((result) => toToolResultMessage(result));
}

/** Imports a Responses function tool into the IR, undoing this package's lowering. */
export function fromTool(tool: OpenAIResponsesFunctionTool, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema = tool.parameters ?? { type: 'object', properties: {} };
  return importToolDefinition(tool.name, tool.description, undoLowering(parameters, { strict: tool.strict === true }), options);
}

export const descriptor: ProviderDescriptor = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  module: '@toolwright/providers/openai-responses',
  nameProfile: OPENAI_NAME_PROFILE,
  limits: OPENAI_RESPONSES_LIMITS,
  argumentsEncoding: 'json-text',
  errorChannel: undefined,
  supportsStrict: true,
  createToolSet: (source, options) => createToolSet(source, options as OpenAIResponsesToolsOptions | undefined),
  parametersOf: (tool) => (tool as OpenAIResponsesFunctionTool).parameters ?? undefined,
  nameOf: (tool) => (tool as OpenAIResponsesFunctionTool).name,
  lint: (_definitions, toolSet, options) =>
    options.strict ? strictModeFindings('openai-responses', toolSet, (tool) => (tool as OpenAIResponsesFunctionTool).parameters) : [],
};

export {
  OpenAIResponsesChatModel,
  type OpenAIResponsesClient,
  type OpenAIResponsesChatModelOptions,
  type OpenAIResponsesInputItem,
  type OpenAIResponsesRequestBody,
} from './chat-model';
