/**
 * ollama: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §6).
 */
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, recordAt, stringAt, valueAt } from '../shared/read';
import { streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';

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
