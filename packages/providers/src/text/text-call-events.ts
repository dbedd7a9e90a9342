/**
 * Tool calls written into a model's text, as streamed call events: the text parser's streaming form
 * (`createTextToolCallParser`, linear and monotonic) returns each call once it is final, and the event stream reports
 * it (started, each argument checked by the tool's plan, complete with the executor's result). A text call's arguments
 * are read whole by the parser, so they are reported together, as soon as the call is final.
 */
import { CallBuilder, type ParsedToolCall } from '../shared/calls';
import { streamToolCallEvents, type ToolCallEventOptions, type ToolCallStreamEvent } from '../shared/stream-events';
import type { ToolCallAccumulator } from '../shared/streaming';
import { createTextToolCallParser, type ParseTextToolCallsOptions, type TextToolCall } from './parse';

/** The text parser's streaming form as an accumulator of text deltas. */
function textAccumulator(options: ParseTextToolCallsOptions & ToolCallEventOptions): ToolCallAccumulator<string> {
  const parser = createTextToolCallParser(options);
  const builder = new CallBuilder(options);
  const toCall = (call: TextToolCall): ParsedToolCall => builder.build(undefined, call.name, call.arguments);
  let ended = false;
  return {
    pending: 0,
    push: (delta) => parser.push(delta).map(toCall),
    finish: () => {
      if (ended) return [];
      ended = true;
      return parser.end().calls.map(toCall);
    },
  };
}

/**
 * Each tool call in a stream of text deltas (a model that writes its calls into its text: Hermes, pythonic, Mistral,
 * ... `getTextDialects()`), as events. Calls the parser rejects (cut off, naming no tool offered) are not calls and are
 * not reported; `parseTextToolCalls` on the whole text lists them.
 */
export function streamTextCallEvents(
  deltas: AsyncIterable<string>,
  options: ParseTextToolCallsOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return streamToolCallEvents(deltas, textAccumulator, options);
}
