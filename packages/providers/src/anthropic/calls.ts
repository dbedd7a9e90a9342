/**
 * anthropic: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §3).
 */
import { type CallIdCodec } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, asRecord, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

export interface AnthropicParseOptions extends ParseToolCallsOptions {
  /** Maps provider ids back to the ids they were derived from (see `toToolResultMessage`). */
  readonly callIds?: CallIdCodec;
}

/** The calls of a `Message` (its `tool_use` blocks), or of a content block array. Input is an object. */
export function parseToolCalls(
  response: object | readonly object[],
  options: AnthropicParseOptions = {},
): ParsedToolCall[] {
  const blocks = Array.isArray(response) ? response : arrayAt(response, 'content');
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const block of blocks) {
    if (stringAt(block, 'type') !== 'tool_use') continue;
    const id = stringAt(block, 'id');
    calls.push(
      builder.build(
        id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id),
        stringAt(block, 'name') ?? '',
        objectArguments(valueAt(block, 'input')),
      ),
    );
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
export function createStreamAccumulator(
  options: AnthropicParseOptions = {},
): ToolCallAccumulator<AnthropicStreamEventLike> {
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
            table.start(
              index,
              id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id),
              stringAt(block, 'name') ?? '',
              objectArguments(valueAt(block, 'input') ?? {}),
            );
          }
          return [];
        }
        case 'content_block_delta': {
          const delta = asRecord((event as { delta?: unknown }).delta);
          if (stringAt(delta, 'type') === 'input_json_delta' && table.has(index))
            table.append(index, stringAt(delta, 'partial_json') ?? '');
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

export function streamCalls(
  events: AsyncIterable<AnthropicStreamEventLike>,
  options: AnthropicParseOptions = {},
): AsyncGenerator<ParsedToolCall, void, undefined> {
  return streamToolCalls(events, createStreamAccumulator(options));
}

/**
 * Each call of an SDK stream as events: started (its tool resolved or refused), each argument checked by the tool's
 * plan as soon as it is complete, string text as it arrives (display only), complete with the executor's result
 * (docs/streaming.md).
 */
export function streamCallEvents(
  events: AsyncIterable<AnthropicStreamEventLike>,
  options: AnthropicParseOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
