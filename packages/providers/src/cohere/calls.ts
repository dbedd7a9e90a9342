/**
 * cohere: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §8).
 */
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { firstDefined, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

function toolCallsOf(message: unknown): readonly unknown[] {
  const calls = firstDefined(message, 'toolCalls', 'tool_calls');
  return Array.isArray(calls) ? calls : [];
}

/** The calls of a `V2ChatResponse` (SDK or wire), its `message`, or a tool call array. */
export function parseToolCalls(
  response: object | readonly object[],
  options: ParseToolCallsOptions = {},
): ParsedToolCall[] {
  const toolCalls = Array.isArray(response) ? response : toolCallsOf(recordAt(response, 'message') ?? response);
  const builder = new CallBuilder(options);
  return toolCalls.map((toolCall) =>
    builder.build(
      stringAt(toolCall, 'id'),
      stringAt(toolCall, 'function', 'name') ?? '',
      objectArguments(valueAt(toolCall, 'function', 'arguments') ?? null),
    ),
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
          table.start(
            index,
            stringAt(toolCall, 'id'),
            stringAt(toolCall, 'function', 'name') ?? '',
            undefined,
            stringAt(toolCall, 'function', 'arguments') ?? '',
          );
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

export function streamCalls(
  events: AsyncIterable<object>,
  options: ParseToolCallsOptions = {},
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
  options: ParseToolCallsOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
