import { CancelledError } from '../errors/cancelled-error';
import { HandlerError } from '../errors/handler-error';
import { ServiceUnavailableError } from '../errors/service-unavailable-error';
import { TimeoutError } from '../errors/timeout-error';
import { ToolCallError } from '../errors/tool-call-error';
import { ToolwrightError } from '../errors/toolwright-error';
import { messages } from '../pipeline/messages';
import type { ExecutionContext, ToolCall } from '../types/execution';
import type { ToolInvocationContext } from '../types/handler';
import type { Logger } from '../logging/logger';
import { addDeadline, cancelDeadline, type Deadline } from './timeout-buckets';

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'ECONNRESET',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
]);

/** Whether an error (or one of its causes) is a network failure: connection refused, DNS, a fetch that failed. */
export function isNetworkError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && NETWORK_ERROR_CODES.has(candidate.code)) return true;
    if (candidate.name === 'TypeError' && candidate.message === 'fetch failed') return true;
    if (candidate.name === 'FetchError' || candidate.name === 'APIConnectionError') return true;
    current = candidate.cause;
  }
  return false;
}

export interface RunOptions {
  readonly tool: string;
  readonly timeoutMs: number;
  /** The caller's signal: aborting it cancels the call. */
  readonly signal?: AbortSignal;
}

/**
 * Pipeline step 7: run a handler with an AbortSignal that fires on timeout or on the caller's cancellation.
 * Whatever happens, the outcome is a value or a typed ToolCallError; a late result after a timeout is discarded.
 */
export async function runWithTimeout<T>(run: (signal: AbortSignal) => T | Promise<T>, options: RunOptions): Promise<T> {
  const controller = new AbortController();
  if (options.signal?.aborted)
    throw new CancelledError(messages.cancelled(options.tool), { cause: options.signal.reason });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let removeAbortListener: (() => void) | undefined;
  const interruption = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(messages.timeout(options.tool, options.timeoutMs));
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
    if (options.signal) {
      const onAbort = () => {
        const error = new CancelledError(messages.cancelled(options.tool), { cause: options.signal?.reason });
        controller.abort(error);
        reject(error);
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      removeAbortListener = () => options.signal?.removeEventListener('abort', onAbort);
    }
  });
  let running: Promise<T>;
  try {
    running = Promise.resolve(run(controller.signal));
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- whatever the handler threw travels on unchanged; the executor wraps it
    running = Promise.reject(error);
  }
  // A handler that settles after a timeout or cancellation must not raise an unhandled rejection.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, interruption]);
  } catch (error) {
    throw classifyError(error, options.tool, controller.signal);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    removeAbortListener?.();
  }
}

function classifyError(
  error: unknown,
  tool: string,
  signal: AbortSignal | undefined,
  interruption?: ToolCallError,
): ToolCallError {
  if (ToolwrightError.isInstance(error) && error instanceof ToolCallError) return error;
  if (interruption !== undefined) return interruption;
  if (signal?.aborted && signal.reason instanceof ToolCallError) return signal.reason;
  if (isNetworkError(error)) return new ServiceUnavailableError(messages.serviceUnavailable(tool), { cause: error });
  return new HandlerError(messages.handlerFailed(tool), { cause: error });
}

/**
 * The invocation context of one call, with a lazy `signal`: the AbortController is created only when the handler
 * reads it. A call interrupted before that gets a signal that is already aborted with the reason.
 */
export class CallInvocation implements ToolInvocationContext {
  #controller: AbortController | undefined;
  #interruption: ToolCallError | undefined;

  constructor(
    readonly callId: string,
    readonly tool: string,
    readonly context: ExecutionContext,
    readonly logger: Logger,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#interruption !== undefined) this.#controller.abort(this.#interruption);
    }
    return this.#controller.signal;
  }

  /** The timeout or cancellation that ended the call, if one did. */
  get interruption(): ToolCallError | undefined {
    return this.#interruption;
  }

  interrupt(reason: ToolCallError): void {
    if (this.#interruption !== undefined) return;
    this.#interruption = reason;
    this.#controller?.abort(reason);
  }
}

/** Settled once: what the deadline step is queued behind (one microtask, no AsyncResource as `queueMicrotask` makes). */
const SETTLED: Promise<void> = Promise.resolve();

/**
 * Pipeline step 7, the executor's core, for a handler that returned a promise: waits for it with the timeout and
 * cancellation contract of {@link runWithTimeout}, as one promise that never rejects. The caller's signal cancels the
 * call; the handler's deadline (counted from `startedAt`, the handler's start) goes into the shared timer of its
 * timeout length one microtask later, so a handler whose promise has settled by then (an `async` handler that waited
 * for nothing) never touches a timer. A result after a timeout or cancellation is discarded. The promise resolves with
 * `settlement.value(call, value)` or with `settlement.failure(call, error)`, `error` a typed ToolCallError (or, for an
 * error that cannot even be inspected, that error); either is called at most once, after the deadline and the abort
 * listener are gone, and must not throw.
 */
export function awaitHandler<C, R>(
  invocation: CallInvocation,
  running: PromiseLike<unknown>,
  timeoutMs: number,
  startedAt: number,
  settlement: HandlerSettlement<C, R>,
  call: C,
): Promise<R> {
  const callerSignal = invocation.context.signal;
  return new Promise<R>((resolve) => {
    const wait = new HandlerWait(invocation, callerSignal, timeoutMs, startedAt, settlement, call, resolve);
    try {
      running.then(
        (value) => wait.fulfilled(value),
        (error: unknown) => wait.rejected(error),
      );
    } catch (unreadable) {
      // A thenable whose `then` throws: that error, unclassified (the executor wraps it as a HANDLER_ERROR).
      wait.failed(unreadable);
      return;
    }
    // Queued after the handler's reaction when its promise has already settled: then there is nothing to time out.
    // Deadlines are added in the order the handlers started (one microtask queue), as the timer buckets expect.
    void SETTLED.then(() => wait.arm());
  });
}

/**
 * What a waiting handler's outcome is handed to: one object for every call (the executor's), told which call it is, so
 * a call makes no closures of its own for it.
 */
export interface HandlerSettlement<C, R> {
  value(call: C, value: unknown): R;
  failure(call: C, error: unknown): R;
}

/**
 * The state of one awaited handler (one object instead of a closure per step): settled at most once, by its value, its
 * failure, its deadline or the caller's cancellation, whichever comes first.
 */
class HandlerWait<C, R> {
  private settled = false;
  private deadline: Deadline | undefined = undefined;
  private readonly onAbort: (() => void) | undefined = undefined;

  constructor(
    private readonly invocation: CallInvocation,
    /** The caller's signal, read once by awaitHandler (its abort listener is removed from the same object). */
    private readonly callerSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
    private readonly startedAt: number,
    private readonly settlement: HandlerSettlement<C, R>,
    private readonly call: C,
    private readonly resolve: (result: R) => void,
  ) {
    if (callerSignal !== undefined) {
      this.onAbort = () =>
        this.stop(new CancelledError(messages.cancelled(invocation.tool), { cause: callerSignal.reason }));
      callerSignal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  fulfilled(value: unknown): void {
    if (this.settle()) this.resolve(this.settlement.value(this.call, value));
  }

  rejected(error: unknown): void {
    if (!this.settle()) return;
    const invocation = this.invocation;
    this.resolve(
      this.settlement.failure(this.call, classifiedOrUnreadable(error, invocation.tool, invocation.interruption)),
    );
  }

  /** A failure that is not the handler's rejection (a `then` that threw): passed on as it is. */
  failed(error: unknown): void {
    if (this.settle()) this.resolve(this.settlement.failure(this.call, error));
  }

  /** One microtask after the handler's start: its deadline, unless it has settled by then. */
  arm(): void {
    if (this.settled) return;
    const timeoutMs = this.timeoutMs;
    this.deadline = addDeadline(timeoutMs, this.startedAt, () =>
      this.stop(new TimeoutError(messages.timeout(this.invocation.tool, timeoutMs))),
    );
  }

  private stop(reason: ToolCallError): void {
    if (!this.settle()) return;
    this.invocation.interrupt(reason);
    this.resolve(this.settlement.failure(this.call, reason));
  }

  /** Whether this is the first outcome (then the deadline and the abort listener are gone); later ones are ignored. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.deadline !== undefined) cancelDeadline(this.timeoutMs, this.deadline);
    if (this.onAbort !== undefined) this.callerSignal!.removeEventListener('abort', this.onAbort);
    return true;
  }
}

/**
 * What a handler's failure becomes: a typed ToolCallError, or, when the thrown value cannot even be inspected (a revoked
 * proxy), that inspection's error, which the executor wraps as a HANDLER_ERROR.
 */
export function classifiedOrUnreadable(error: unknown, tool: string, interruption?: ToolCallError): unknown {
  try {
    return classifyError(error, tool, undefined, interruption);
  } catch (unreadable) {
    return unreadable;
  }
}

/**
 * The longest arguments text whose synchronous steps 1-6 let the call's start serve as the handler's start (decision
 * 0021): at most a fraction of a millisecond to read and check, below the timers' own 1 ms granularity.
 */
export const QUICK_PREPARATION_CHARACTERS = 16_384;

/**
 * Whether steps 1-6 of this call, run synchronously, took well under a millisecond: no arguments, or short text. Asked
 * after they succeeded, so it changes no outcome: arguments that cannot be read again count as long.
 */
export function preparesQuickly(call: ToolCall): boolean {
  try {
    const text: unknown = call?.arguments;
    return text === undefined || (typeof text === 'string' && text.length <= QUICK_PREPARATION_CHARACTERS);
  } catch {
    return false;
  }
}

/** Whether a value is a promise or another thenable (read once: a `then` getter runs once). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
