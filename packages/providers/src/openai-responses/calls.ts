/**
 * openai-responses: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §2).
 */
import { CallBuilder, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, asRecord, numberAt, stringAt } from '../shared/read';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

/**
 * The calls of a `Response` (its `function_call` output items), or of an output item array. The call id is
 * `call_id` (what `function_call_output` answers), not the item id.
 */
export function parseToolCalls(
  response: object | readonly object[],
  options: ParseToolCallsOptions = {},
): ParsedToolCall[] {
  const items = Array.isArray(response) ? response : arrayAt(response, 'output');
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const item of items) {
    const type = stringAt(item, 'type');
    if (type === 'function_call') {
      calls.push(
        builder.build(stringAt(item, 'call_id'), stringAt(item, 'name') ?? '', stringAt(item, 'arguments') ?? null),
      );
    } else if (type === 'custom_tool_call') {
      calls.push(
        builder.build(stringAt(item, 'call_id'), stringAt(item, 'name') ?? '', stringAt(item, 'input') ?? null),
      );
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
export function createStreamAccumulator(
  options: ParseToolCallsOptions = {},
): ToolCallAccumulator<OpenAIResponsesStreamEventLike> {
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
            table.start(
              key,
              stringAt(item, 'call_id'),
              stringAt(item, 'name') ?? '',
              undefined,
              stringAt(item, 'arguments') ?? '',
            );
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

export function streamCalls(
  events: AsyncIterable<OpenAIResponsesStreamEventLike>,
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
  events: AsyncIterable<OpenAIResponsesStreamEventLike>,
  options: ParseToolCallsOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
