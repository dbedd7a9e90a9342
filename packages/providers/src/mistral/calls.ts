/**
 * mistral: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §5).
 */
import { type CallIdCodec } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, firstDefined, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

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
export function parseToolCalls(
  response: object | readonly object[],
  options: MistralParseOptions = {},
): ParsedToolCall[] {
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
          if (id || name)
            table.start(key, id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id), name ?? '');
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

export function streamCalls(
  events: AsyncIterable<object>,
  options: MistralParseOptions = {},
): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

/**
 * Each call of an SDK stream as events: started (its tool resolved or refused), each argument checked by the tool's
 * plan as soon as it is complete, string text as it arrives (display only), complete with the executor's result
 * (docs/streaming.md).
 */
export function streamCallEvents(
  events: AsyncIterable<object>,
  options: MistralParseOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
