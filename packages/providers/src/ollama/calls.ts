/**
 * ollama: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §6).
 */
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, recordAt, stringAt, valueAt } from '../shared/read';
import { streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

function toolCallsOf(response: object | readonly object[]): readonly unknown[] {
  if (Array.isArray(response)) return response;
  const message = recordAt(response, 'message');
  return arrayAt(message ?? response, 'tool_calls');
}

/**
 * The calls of a `ChatResponse` (or stream chunk), its `message`, or a `tool_calls` array. Ids (`call_…`) are
 * kept when the server sent them (the JS client's type does not declare `id` yet); otherwise generated.
 */
export function parseToolCalls(
  response: object | readonly object[],
  options: ParseToolCallsOptions = {},
): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  return toolCallsOf(response).map((toolCall) =>
    builder.build(
      stringAt(toolCall, 'id'),
      stringAt(toolCall, 'function', 'name') ?? '',
      objectArguments(valueAt(toolCall, 'function', 'arguments') ?? {}),
    ),
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

export function streamCalls(
  chunks: AsyncIterable<object>,
  options: ParseToolCallsOptions = {},
): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(chunks, createStreamAccumulator(options));
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
