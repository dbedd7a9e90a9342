import { CancelledError } from '../errors/cancelled-error';
import { HandlerError } from '../errors/handler-error';
import { ServiceUnavailableError } from '../errors/service-unavailable-error';
import { TimeoutError } from '../errors/timeout-error';
import { ToolCallError } from '../errors/tool-call-error';
import { ToolwrightError } from '../errors/toolwright-error';
import { messages } from '../pipeline/messages';

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT',
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
  if (options.signal?.aborted) throw new CancelledError(messages.cancelled(options.tool), { cause: options.signal.reason });
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

function classifyError(error: unknown, tool: string, signal: AbortSignal): ToolCallError {
  if (ToolwrightError.isInstance(error) && error instanceof ToolCallError) return error;
  if (signal.aborted && signal.reason instanceof ToolCallError) return signal.reason;
  if (isNetworkError(error)) return new ServiceUnavailableError(messages.serviceUnavailable(tool), { cause: error });
  return new HandlerError(messages.handlerFailed(tool), { cause: error });
}
