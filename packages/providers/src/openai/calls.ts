/**
 * openai: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §1).
 */
import { CallBuilder, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

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

/** Streams complete calls out of an SDK stream of chunks. */
export function streamCalls(
  chunks: AsyncIterable<OpenAIChatChunkLike>,
  options: OpenAIParseOptions = {},
): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(chunks, createStreamAccumulator(options));
}

/**
 * Each call of an SDK stream as events: started (its tool resolved or refused), each argument checked by the tool's
 * plan as soon as it is complete, string text as it arrives (display only), complete with the executor's result
 * (docs/streaming.md).
 */
export function streamCallEvents(
  events: AsyncIterable<OpenAIChatChunkLike>,
  options: OpenAIParseOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
