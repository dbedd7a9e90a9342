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
import { StreamedArgumentsReader } from './streamed-arguments-reader';
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
export function streamToolCallEvents<TEvent, TOptions extends ParseToolCallsOptions>(
  events: AsyncIterable<TEvent>,
  createAccumulator: (options: TOptions) => ToolCallAccumulator<TEvent>,
  options: TOptions & ToolCallEventOptions,
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  return new CallEventStream(events, () => {
    const session = new CallEventSession(options);
    return { session, accumulator: createAccumulator({ ...options, [CALL_STREAM_OBSERVER]: session.observer }) };
  });
}

type Result = IteratorResult<ToolCallStreamEvent, void>;
const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });
/** A result waits for the provider's next chunk. */
const READ = 0;
/** A result now, or what it waits for. */
type Step = Result | typeof READ | Promise<Result>;

/**
 * The events as an async generator would give them (one `next()` at a time, in order; the provider's stream closed
 * when the events end early, when the consumer stops, or when reading fails), written out by hand: a generator's
 * machinery costs more per event than the events themselves, and a long string streamed in small chunks is one event
 * per chunk. An event already settled is handed out in the same turn; the provider's stream is read only when none is.
 */
class CallEventStream<TEvent> implements AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  private source: AsyncIterator<TEvent> | undefined;
  private state: { readonly session: CallEventSession; readonly accumulator: ToolCallAccumulator<TEvent> } | undefined;
  /** The provider's stream ended (and the accumulator finished). */
  private ended = false;
  /** No more events: the stream ended, an early refusal was handed out, the consumer stopped, or reading failed. */
  private closed = false;
  /** An early refusal was handed out: the next call closes the provider's stream. */
  private refused = false;
  /** The call that waits for the provider's next chunk settles through these. */
  private resolveRead: ((result: Result | Promise<Result>) => void) | undefined;
  private rejectRead: ((error: unknown) => void) | undefined;
  /** A call waits for its result: calls made meanwhile wait in `waiting`, in order (results come in order). */
  private busy = false;
  private readonly waiting: Array<{
    readonly run: () => Promise<IteratorResult<ToolCallStreamEvent, void>>;
    readonly resolve: (result: IteratorResult<ToolCallStreamEvent, void>) => void;
    readonly reject: (error: unknown) => void;
  }> = [];

  constructor(
    private readonly events: AsyncIterable<TEvent>,
    private readonly begin: () => {
      readonly session: CallEventSession;
      readonly accumulator: ToolCallAccumulator<TEvent>;
    },
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** `await using`: the events stop and the provider's stream is closed, as with `return()`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.return().then(() => undefined);
  }

  next(): Promise<IteratorResult<ToolCallStreamEvent, void>> {
    if (this.busy) return this.later(() => this.next());
    const step = this.step();
    if (step !== READ && !(step instanceof Promise)) return Promise.resolve(step);
    // The result waits: calls made meanwhile wait for it (what settles it calls `resume`).
    this.busy = true;
    return this.wait(step);
  }

  return(value?: void | PromiseLike<void>): Promise<IteratorResult<ToolCallStreamEvent, void>> {
    if (this.busy) return this.later(() => this.return(value));
    const wasClosed = this.closed;
    this.closed = true;
    const result = (): Promise<IteratorResult<ToolCallStreamEvent, void>> =>
      Promise.resolve(value).then((settled) => ({ value: settled, done: true }));
    return wasClosed && !this.refused ? result() : this.closeSource().then(result);
  }

  throw(error: unknown): Promise<IteratorResult<ToolCallStreamEvent, void>> {
    if (this.busy) return this.later(() => this.throw(error));
    const wasClosed = this.closed;
    this.closed = true;
    // As a generator's `throw(error)`: the events end, and the promise rejects with the value given, whatever it is.
    const rethrow = (): never => {
      throw error;
    };
    return wasClosed && !this.refused ? Promise.resolve().then(rethrow) : this.closeSource().then(rethrow);
  }

  /** A call made while another waits: run once that one has its result. */
  private later(
    run: () => Promise<IteratorResult<ToolCallStreamEvent, void>>,
  ): Promise<IteratorResult<ToolCallStreamEvent, void>> {
    return new Promise((resolve, reject) => this.waiting.push({ run, resolve, reject }));
  }

  /** The waiting call has its result: the calls in line run, until one of them waits in turn. */
  private resume(): void {
    this.busy = false;
    while (!this.busy) {
      const next = this.waiting.shift();
      if (next === undefined) return;
      next.run().then(next.resolve, next.reject);
    }
  }

  /**
   * The next result when it is ready now; else what it waits for: the provider's next chunk (`READ`), or a promise (an
   * event still being checked, the provider's stream being closed after an early refusal).
   */
  private step(): Step {
    while (!this.closed) {
      if (this.state?.session.hasReady === true) {
        const pending = this.state.session.take();
        if (pending === undefined) continue;
        if (pending instanceof Promise)
          return pending.then(
            (settled) => this.settle(settled === undefined ? this.step() : this.handOut(settled)),
            (error: unknown) => this.fail(error),
          );
        return this.handOut(pending);
      }
      if (this.ended) {
        this.closed = true;
        break;
      }
      return READ;
    }
    if (this.refused) {
      this.refused = false;
      return this.closeSource().then(
        () => this.settle(DONE),
        (error: unknown) => {
          this.resume();
          throw error;
        },
      );
    }
    return DONE;
  }

  /** The promise of a result that waits (`step` is `READ` or a promise). */
  private wait(step: typeof READ | Promise<Result>): Promise<Result> {
    if (step !== READ) return step;
    // The next chunk usually makes the result (a long string: an event per chunk); when it does not, the call waits
    // on one promise settled by the chunk that does (not a promise per chunk, chained, kept until the chain's end).
    this.start();
    return this.source!.next().then(this.onFirstChunk, this.onFirstSourceError);
  }

  private readonly onFirstChunk = (chunk: IteratorResult<TEvent>): Result | Promise<Result> => {
    try {
      this.take(chunk);
    } catch (error) {
      return this.fail(error);
    }
    const step = this.step();
    if (step !== READ) return this.settle(step);
    return new Promise<Result>((resolve, reject) => {
      this.resolveRead = resolve;
      this.rejectRead = reject;
      this.read();
    });
  };

  /** In a step that waited: a result ready now settles the call that waited (the calls made meanwhile run). */
  private settle(step: Step): Result | Promise<Result> {
    if (step === READ || step instanceof Promise) return this.wait(step);
    this.resume();
    return step;
  }

  private readonly onFirstSourceError = (error: unknown): never => {
    // The provider's stream failed: it is over (not closed again).
    this.closed = true;
    this.resume();
    throw error;
  };

  /** The session and the provider's stream, made on the first read. */
  private start(): void {
    if (this.state !== undefined) return;
    this.state = this.begin();
    this.source = this.events[Symbol.asyncIterator]();
  }

  /** One chunk of the provider's stream (or its end) into the session's events. */
  private take(chunk: IteratorResult<TEvent>): void {
    const { session, accumulator } = this.state!;
    if (chunk.done === true) {
      this.ended = true;
      session.whole(accumulator.finish());
    } else session.whole(accumulator.push(chunk.value));
  }

  /** Reads the provider's next chunk (or its end); `onChunk` takes it. */
  private read(): void {
    this.source!.next().then(this.onChunk, this.onSourceError);
  }

  private readonly onChunk = (chunk: IteratorResult<TEvent>): void => {
    const resolve = this.resolveRead!;
    try {
      this.take(chunk);
    } catch (error) {
      resolve(this.fail(error));
      return;
    }
    const step = this.step();
    // No event yet: the same call waits for the next chunk.
    if (step === READ) {
      this.read();
      return;
    }
    if (step instanceof Promise) resolve(step);
    else {
      this.resume();
      resolve(step);
    }
  };

  private readonly onSourceError = (error: unknown): void => {
    // The provider's stream failed: it is over (not closed again).
    this.closed = true;
    const reject = this.rejectRead!;
    this.resume();
    reject(error);
  };

  private handOut(event: ToolCallStreamEvent): Result {
    if (event.type === 'call-refused') {
      // The events end here; the provider's stream is closed at the next call (or when the consumer stops).
      this.closed = true;
      this.refused = true;
    }
    return { value: event, done: false };
  }

  /** Reading failed (an accumulator, a check, the executor): the provider's stream is closed, then the error thrown. */
  private fail(error: unknown): Promise<never> {
    this.closed = true;
    // As a generator's body that threw: the error stands, whatever closing the stream gives.
    const rethrow = (): never => {
      this.resume();
      throw error;
    };
    return this.closeSource().then(rethrow, rethrow);
  }

  private closeSource(): Promise<void> {
    this.refused = false;
    const source = this.source;
    this.source = undefined;
    if (source?.return === undefined || this.ended) return Promise.resolve();
    // A `return()` that throws at once rejects, as one that rejects.
    return new Promise<unknown>((resolve) => resolve(source.return!())).then(() => undefined);
  }
}

/** The state of one stream's calls, fed by the accumulator's observer; `take` hands out what is ready to report, in order. */
export class CallEventSession {
  private readonly open = new Map<string, StreamingCall>();
  /** Calls the observer completed (the accumulator's returned calls that are not here arrived whole). */
  private readonly observed = new WeakSet<ParsedToolCall>();
  /** The events to report: `queue[taken]` to `queue[queued - 1]`. */
  private readonly queue: Pending[] = [];
  private queued = 0;
  private taken = 0;
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

  /** Whether an event is ready to report. */
  get hasReady(): boolean {
    return this.taken < this.queued;
  }

  /** The next event ready to report (a promise where a check or the handler is asynchronous; `undefined`: none). */
  take(): Pending {
    const pending = this.queue[this.taken];
    this.queue[this.taken] = undefined;
    this.taken += 1;
    // All taken: the array is written from its start again (kept, not emptied: no new array per chunk).
    if (this.taken === this.queued) this.taken = this.queued = 0;
    return pending;
  }

  private enqueue(pending: Pending): void {
    this.queue[this.queued] = pending;
    this.queued += 1;
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
      const created: StreamingCall = {
        number: this.numbered++,
        id: undefined,
        name: '',
        check: undefined,
        reader: new StreamedArgumentsReader(
          {
            member: (name, text) => this.member(created, name, text, undefined, false),
            text: (path, text) => this.shown(created, path, text),
          },
          { text: this.options.text },
        ),
        sawText: false,
        waiting: [],
        reported: new Set(),
      };
      call = created;
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
    this.enqueue({
      type: 'call-start',
      call: call.number,
      id: call.id,
      providerName: call.name,
      tool: check.ok ? check.tool : undefined,
      refusal,
    });
    if (refusal !== undefined && this.options.refuseEarly === true) {
      this.enqueue({
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
    call.reader.push(fragment);
  }

  private shown(call: StreamingCall, path: string, text: string): void {
    if (this.options.text === false) return;
    this.enqueue({ type: 'text', call: call.number, path, text, checked: false });
  }

  /** A complete top-level member: checked by the executor once the tool is known (reported once per key). */
  private member(call: StreamingCall, key: string, text: string | undefined, value: unknown, byValue: boolean): void {
    if (call.check === undefined) {
      call.waiting.push({ key, text, value, byValue });
      return;
    }
    if (!call.check.ok || call.reported.has(key)) return;
    const field = byValue ? call.check.field(key, value) : call.check.fieldText(key, text ?? '');
    if (field instanceof Promise) {
      call.reported.add(key);
      this.enqueue(field.then((settled) => this.fieldEvent(call, settled)));
      return;
    }
    // A deferred key reports nothing (and a second member under it is deferred again): only reported keys are kept,
    // so arguments of many unknown keys do not fill the set.
    if (field.status === 'deferred') return;
    call.reported.add(key);
    this.enqueue(this.fieldEvent(call, field));
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
      this.enqueue({ type: 'call-end', call: call.number, toolCall, result: undefined });
      return;
    }
    const number = call.number;
    this.enqueue(
      this.options.executor
        .execute(toolCall, this.options.context)
        .then((result): ToolCallStreamEvent => ({ type: 'call-end', call: number, toolCall, result })),
    );
  }
}
