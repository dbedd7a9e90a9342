/**
 * bedrock: calls in, whole and streamed.
 * The wire format is summarized in `./index.ts` (provider-formats.md §7).
 */
import { type CallIdCodec } from '../shared/call-ids';
import { CallBuilder, objectArguments, type ParsedToolCall, type ParseToolCallsOptions } from '../shared/calls';
import { arrayAt, asRecord, numberAt, recordAt, stringAt, valueAt } from '../shared/read';
import { PartialCallTable, streamToolCalls, type ToolCallAccumulator } from '../shared/streaming';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';

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
export function parseToolCalls(
  response: object | readonly object[],
  options: BedrockParseOptions = {},
): ParsedToolCall[] {
  const builder = new CallBuilder(options);
  const calls: ParsedToolCall[] = [];
  for (const block of contentOf(response)) {
    const toolUse = recordAt(block, 'toolUse');
    if (!toolUse) continue;
    const id = stringAt(toolUse, 'toolUseId');
    calls.push(
      builder.build(
        id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id),
        stringAt(toolUse, 'name') ?? '',
        objectArguments(valueAt(toolUse, 'input') ?? {}),
      ),
    );
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
          table.start(
            numberAt(start, 'contentBlockIndex') ?? 0,
            id === undefined ? undefined : (options.callIds?.fromProvider(id) ?? id),
            stringAt(toolUse, 'name') ?? '',
            {},
          );
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

export function streamCalls(
  events: AsyncIterable<object>,
  options: BedrockParseOptions = {},
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
  options: BedrockParseOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(events, createStreamAccumulator, options);
}
