/**
 * The Vercel AI SDK's `streamText(...).fullStream`, read for its tool calls: `tool-input-start` opens a call,
 * `tool-input-delta` fragments are concatenated per `id`, `tool-input-end` completes it; a `tool-call` part that no
 * input parts announced (a model that does not stream tool input) is a whole call. Calls the provider ran itself
 * (`providerExecuted`) are not the application's and are skipped. Typed by shape: no import of `ai`.
 */
import type { ParsedToolCall, ParseToolCallsOptions } from './calls';
import { objectArguments } from './calls';
import { asRecord, stringAt, valueAt } from './read';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from './stream-events';
import { PartialCallTable, type ToolCallAccumulator } from './streaming';

/** Any part of `fullStream` (`TextStreamPart`); only the tool-input and tool-call parts are read. */
export interface AISDKStreamPartLike {
  readonly type: string;
}

/** Accumulates `fullStream` parts into complete calls (as `streamToolCalls` and the event stream use it). */
export function createAISDKStreamAccumulator(
  options: ParseToolCallsOptions = {},
): ToolCallAccumulator<AISDKStreamPartLike> {
  const table = new PartialCallTable(options);
  /** Calls whose input streamed: their `tool-call` part repeats them. */
  const streamed = new Set<string>();
  return {
    get pending() {
      return table.pending;
    },
    push(part): ParsedToolCall[] {
      const record = asRecord(part);
      if (valueAt(record, 'providerExecuted') === true) return [];
      switch (part.type) {
        case 'tool-input-start': {
          const id = stringAt(record, 'id') ?? '';
          streamed.add(id);
          table.start(id, id, stringAt(record, 'toolName') ?? '');
          return [];
        }
        case 'tool-input-delta': {
          const id = stringAt(record, 'id') ?? '';
          if (table.has(id)) table.append(id, stringAt(record, 'delta') ?? '');
          return [];
        }
        case 'tool-input-end':
          return table.complete(stringAt(record, 'id') ?? '');
        case 'tool-call': {
          const id = stringAt(record, 'toolCallId') ?? '';
          if (streamed.has(id)) return [];
          table.start(id, id, stringAt(record, 'toolName') ?? '', objectArguments(valueAt(record, 'input') ?? {}));
          return table.complete(id);
        }
        default:
          return [];
      }
    },
    finish: () => table.completeAll(),
  };
}

/**
 * Each tool call of an AI SDK `fullStream` as events (docs/streaming.md): give `streamText` the tools without
 * `execute` (or with `execute: false` here, only to show them), and the executor runs each complete call.
 */
export function streamAISDKCallEvents(
  parts: AsyncIterable<AISDKStreamPartLike>,
  options: ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(parts, createAISDKStreamAccumulator, options);
}
