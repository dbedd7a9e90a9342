/**
 * Streamed calls as events, for a UI that shows arguments while the model writes them: a call started (its tool
 * resolved, or refused at once), each top-level argument complete and checked by the tool's compiled plan (the value
 * the handler will get), the text of string arguments as it arrives (display only, unchecked), and the call complete
 * (the executor's result). Built on each provider's accumulator: the accumulator tells this module what arrives
 * (`CallStreamObserver`), the incremental reader finds complete arguments in the text, the executor checks them.
 */
import type {
  ExecutionContext,
  PersonaToolExecutor,
  StreamedCall,
  StreamedField,
  ToolErrorPayload,
  ToolResult,
  Transformation,
} from '@toolwright/core';
import { CallBuilder, type ParsedToolCall, type ParseToolCallsOptions } from './calls';
import { isPlainObject } from './json-schema';
import { StreamedArgumentsReader, type ArgumentsTextEvent } from './streamed-arguments-reader';
import { CALL_STREAM_OBSERVER, type CallStreamObserver, type ToolCallAccumulator } from './streaming';

/** One event of a streamed turn's tool calls. `call` numbers the calls of the stream in the order they started. */
export type ToolCallStreamEvent =
  | {
      readonly type: 'call-start';
      readonly call: number;
      /** The provider's call id, when the stream gave one at the start. */
      readonly id: string | undefined;
      /** The name as the provider sent it. */
      readonly providerName: string;
      /** The registry name it resolved to; `undefined` when it was refused (`refusal` says why). */
      readonly tool: string | undefined;
      /** UNKNOWN_TOOL (with suggestions) or PERMISSION_DENIED, known before any argument arrives. */
      readonly refusal: ToolErrorPayload | undefined;
    }
  | {
      readonly type: 'field';
      readonly call: number;
      /** The parameter's name. */
      readonly path: string;
      /** The value the handler will get for it (a `Date` for a class command's date-time, ...). */
      readonly value: unknown;
      readonly transformations: readonly Transformation[];
    }
  | {
      readonly type: 'field-refused';
      readonly call: number;
      readonly path: string;
      /** The refusal the whole call will get for this argument (INVALID_ARGUMENTS or MALFORMED_ARGUMENTS). */
      readonly error: ToolErrorPayload;
    }
  | {
      readonly type: 'text';
      readonly call: number;
      /** Where the string is (`note`, `items[0].label`). */
      readonly path: string;
      /** More of the string, decoded. Display only: nothing has checked it yet. */
      readonly text: string;
      readonly checked: false;
    }
  | {
      readonly type: 'call-end';
      readonly call: number;
      /** The complete call, as `parseToolCalls` would return it. */
      readonly toolCall: ParsedToolCall;
      /** The executor's result (`undefined` with `execute: false`). */
      readonly result: ToolResult | undefined;
    }
  | {
      readonly type: 'call-refused';
      readonly call: number;
      /** What was known of the call when it was refused. */
      readonly id: string | undefined;
      readonly providerName: string;
      /** The refusal (unknown tool, denied persona, or an argument refused by its rule); the stream ends here. */
      readonly error: ToolErrorPayload;
    };

export interface ToolCallEventOptions extends ParseToolCallsOptions {
  /** The executor that resolves names, checks arguments and runs the complete calls. */
  readonly executor: PersonaToolExecutor;
  /** The execution context of the calls (persona, time zone, trusted fields). */
  readonly context?: ExecutionContext;
  /**
   * `true`: run each complete call through `executor.execute` and report its result in `call-end` (the default);
   * `false`: report the complete call only (the application runs it, after an approval for example).
   */
  readonly execute?: boolean;
  /**
   * Stop reading the stream at the first call whose tool is unknown or denied, or whose argument is refused: a
   * `call-refused` event ends the events, and the provider's stream is closed (its request aborted). Default `false`:
   * every call runs to its end, and its result carries the refusal.
   */
  readonly refuseEarly?: boolean;
  /** Whether to report string text as it arrives (`text` events). Default `true`. */
  readonly text?: boolean;
}

interface StreamingCall {
  readonly number: number;
  id: string | undefined;
  name: string;
  /** The executor's view of the call once its name is known. */
  check: StreamedCall | undefined;
  readonly reader: StreamedArgumentsReader;
  /** Whether any arguments text arrived (else an object given at the start, or at the end, is read member by member). */
  sawText: boolean;
  /** Members complete before the name was known, checked once it is. */
  readonly waiting: Array<{ key: string; text?: string; value?: unknown; byValue: boolean }>;
  readonly reported: Set<string>;
}

/** An event, or the promise of one (an asynchronous rule); `undefined`: nothing to report. */
type Pending = ToolCallStreamEvent | undefined | Promise<ToolCallStreamEvent | undefined>;

/**
 * The events of every tool call in a provider stream. `createAccumulator` is the provider's `createStreamAccumulator`;
 * each provider subpath exports this as `streamCallEvents(stream, options)`.
 */
export async function* streamToolCallEvents<TEvent, TOptions extends ParseToolCallsOptions>(
  events: AsyncIterable<TEvent>,
  createAccumulator: (options: TOptions) => ToolCallAccumulator<TEvent>,
  options: TOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  const session = new CallEventSession(options);
  const accumulator = createAccumulator({ ...options, [CALL_STREAM_OBSERVER]: session.observer });
  for await (const event of events) {
    session.whole(accumulator.push(event));
    for (const pending of session.drain()) {
      // Awaited only when it is a promise: a settled event costs no turn of the microtask queue.
      const ready = pending instanceof Promise ? await pending : pending;
      if (ready === undefined) continue;
      yield ready;
      if (ready.type === 'call-refused') return;
    }
  }
  session.whole(accumulator.finish());
  for (const pending of session.drain()) {
    const ready = pending instanceof Promise ? await pending : pending;
    if (ready === undefined) continue;
    yield ready;
    if (ready.type === 'call-refused') return;
  }
}

/** The state of one stream's calls, fed by the accumulator's observer; `drain` hands out what is ready to report. */
export class CallEventSession {
  private readonly open = new Map<string, StreamingCall>();
  /** Calls the observer completed (the accumulator's returned calls that are not here arrived whole). */
  private readonly observed = new WeakSet<ParsedToolCall>();
  private queue: Pending[] = [];
  private numbered = 0;
  private readonly builder: CallBuilder;
  readonly observer: CallStreamObserver;

  constructor(private readonly options: ToolCallEventOptions) {
    this.builder = new CallBuilder(options);
    this.observer = {
      started: (key, id, name) => this.started(key, id, name),
      text: (key, fragment) => this.text(key, fragment),
      replaced: (key) => this.callFor(key).reader.stop(),
      member: (key, name, value) => this.member(this.callFor(key), name, undefined, value, true),
      shown: (key, path, text) => this.shown(this.callFor(key), path, text),
      completed: (key, call) => this.completed(key, call),
    };
  }

  /** The events ready to report, in order (promises where a check or the handler is asynchronous). */
  drain(): Pending[] {
    const ready = this.queue;
    this.queue = [];
    return ready;
  }

  /** The calls an accumulator returned: those that arrived whole (never observed) get their events now. */
  whole(calls: readonly ParsedToolCall[]): void {
    for (const call of calls) {
      if (this.observed.has(call)) continue;
      const key = `whole:${this.numbered}`;
      this.started(key, call.id, call.providerName);
      this.completed(key, call);
    }
  }

  private callFor(key: string): StreamingCall {
    let call = this.open.get(key);
    if (call === undefined) {
      call = {
        number: this.numbered++,
        id: undefined,
        name: '',
        check: undefined,
        reader: new StreamedArgumentsReader({ text: this.options.text }),
        sawText: false,
        waiting: [],
        reported: new Set(),
      };
      this.open.set(key, call);
    }
    return call;
  }

  private started(key: string, id: string | undefined, name: string): void {
    const call = this.callFor(key);
    if (id) call.id = id;
    if (!name || call.check !== undefined) return;
    call.name = name;
    this.resolve(call);
  }

  /** Steps 1 and 2 for the call's name: reported at once, then the members that waited for it are checked. */
  private resolve(call: StreamingCall): void {
    const tool = this.builder.decodeName(call.name);
    const check = this.options.executor.streamedCall(tool, this.options.context);
    call.check = check;
    const refusal = check.ok ? undefined : check.error;
    this.queue.push({
      type: 'call-start',
      call: call.number,
      id: call.id,
      providerName: call.name,
      tool: check.ok ? check.tool : undefined,
      refusal,
    });
    if (refusal !== undefined && this.options.refuseEarly === true) {
      this.queue.push({
        type: 'call-refused',
        call: call.number,
        id: call.id,
        providerName: call.name,
        error: refusal,
      });
      return;
    }
    for (const waiting of call.waiting.splice(0))
      this.member(call, waiting.key, waiting.text, waiting.value, waiting.byValue);
  }

  private text(key: string, fragment: string): void {
    const call = this.callFor(key);
    call.sawText = true;
    const found: ArgumentsTextEvent[] = [];
    call.reader.push(fragment, found);
    for (const event of found) {
      if (event.kind === 'text') this.shown(call, event.path, event.text);
      else this.member(call, event.key, event.text, undefined, false);
    }
  }

  private shown(call: StreamingCall, path: string, text: string): void {
    if (this.options.text === false) return;
    this.queue.push({ type: 'text', call: call.number, path, text, checked: false });
  }

  /** A complete top-level member: checked by the executor once the tool is known (reported once per key). */
  private member(call: StreamingCall, key: string, text: string | undefined, value: unknown, byValue: boolean): void {
    if (call.check === undefined) {
      call.waiting.push({ key, text, value, byValue });
      return;
    }
    if (!call.check.ok || call.reported.has(key)) return;
    call.reported.add(key);
    const field = byValue ? call.check.field(key, value) : call.check.fieldText(key, text ?? '');
    this.queue.push(
      field instanceof Promise ? field.then((settled) => this.fieldEvent(call, settled)) : this.fieldEvent(call, field),
    );
  }

  private fieldEvent(call: StreamingCall, field: StreamedField): ToolCallStreamEvent | undefined {
    if (field.status === 'deferred') return undefined;
    if (field.status === 'checked')
      return {
        type: 'field',
        call: call.number,
        path: field.path,
        value: field.value,
        transformations: field.transformations,
      };
    if (this.options.refuseEarly === true)
      return { type: 'call-refused', call: call.number, id: call.id, providerName: call.name, error: field.error };
    return { type: 'field-refused', call: call.number, path: field.path, error: field.error };
  }

  private completed(key: string, toolCall: ParsedToolCall): void {
    this.observed.add(toolCall);
    const call = this.callFor(key);
    this.open.delete(key);
    if (toolCall.id) call.id = toolCall.id;
    if (call.check === undefined) {
      call.name = toolCall.providerName;
      this.resolve(call);
    }
    // Arguments given as an object (a start event's `input`, a whole call): its members, in order.
    if (!call.sawText && isPlainObject(toolCall.arguments))
      for (const [name, value] of Object.entries(toolCall.arguments)) this.member(call, name, undefined, value, true);
    if (this.options.refuseEarly === true && call.check !== undefined && !call.check.ok) return;
    if (this.options.execute === false) {
      this.queue.push({ type: 'call-end', call: call.number, toolCall, result: undefined });
      return;
    }
    const number = call.number;
    this.queue.push(
      this.options.executor
        .execute(toolCall, this.options.context)
        .then((result): ToolCallStreamEvent => ({ type: 'call-end', call: number, toolCall, result })),
    );
  }
}
