import {
  defaultLogger,
  PersonaToolExecutor,
  ToolRegistry,
  type Logger,
  type PersonaToolExecutorOptions,
  type ToolCall,
  type ToolErrorCode,
  type ToolResult,
} from '@toolwright/core';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { contextForJob, restoreSensitive, type ToolJobData } from './job-data';
import { DEFAULT_QUEUE_NAME, type QueueConnectionOptions } from './options';
import { open } from './sealing';

export interface ToolWorkerOptions extends QueueConnectionOptions {
  /** Jobs this worker runs at once. Default 4. */
  readonly concurrency?: number;
  /** Options of the worker's PersonaToolExecutor (timeouts, slow-call threshold, resolveCommand, ...). */
  readonly executorOptions?: PersonaToolExecutorOptions;
  /** BullMQ worker name (shown as `processedBy`). Default `toolwright-<pid>`. */
  readonly name?: string;
  /** A job whose worker stops renewing its lock (a crash) is retried after this long. Default 30,000 ms. */
  readonly lockDurationMs?: number;
  /** How often stalled jobs are looked for. Default 30,000 ms. */
  readonly stalledIntervalMs?: number;
  /** How long `close()` lets in-flight jobs finish before it cancels them (they then return to the queue). Default 30,000 ms. */
  readonly shutdownTimeoutMs?: number;
}

/** Error codes a job is retried on (per the tool's `queue.attempts`); every other failure ends the job at once. */
export const RETRIED_CODES: ReadonlySet<ToolErrorCode> = new Set(['TIMEOUT', 'SERVICE_UNAVAILABLE']);

export interface ToolWorker {
  readonly worker: Worker<ToolJobData, ToolResult>;
  readonly executor: PersonaToolExecutor;
  /** Stops taking jobs, lets in-flight jobs finish (up to `shutdownTimeoutMs`), then cancels the rest, which go back to the queue. */
  close(): Promise<void>;
}

/** Thrown to BullMQ for an attempt that may be retried: the message is the model-facing error. */
class RetryableToolFailure extends Error {
  override readonly name = 'RetryableToolFailure';
}

/**
 * A BullMQ worker that runs tool jobs through the same pipeline as the in-process executor: the job's parameters are
 * checked again against this process's tool definitions (a deploy may have changed them), trusted context is injected
 * from the job (`jobId` is the job's own id; nothing comes from the model), and the handler runs with its timeout,
 * AbortSignal, slow-call warning and error mapping. TIMEOUT and SERVICE_UNAVAILABLE are retried per the tool's
 * `queue` options; invalid arguments, permission errors and handler errors are not.
 */
export function createToolWorker(tools: ToolRegistry | PersonaToolExecutor, options: ToolWorkerOptions): ToolWorker {
  const logger: Logger = options.logger ?? options.executorOptions?.logger ?? defaultLogger;
  const executor =
    tools instanceof ToolRegistry ? new PersonaToolExecutor(tools, { logger, ...options.executorOptions }) : tools;
  const concurrency = options.concurrency ?? 4;
  if (!(Number.isInteger(concurrency) && concurrency >= 1))
    throw new RangeError(`concurrency must be an integer >= 1; got ${String(options.concurrency)}.`);
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 30_000;

  let shuttingDown = false;
  const processor = async (
    job: Job<ToolJobData, ToolResult>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<ToolResult> => {
    const data = job.data;
    let params = data.params;
    if (data.sealed !== undefined) {
      if (options.sealingKey === undefined)
        return fail(job, unsealable(data.callId, data.tool), 'no sealingKey is configured on this worker');
      try {
        params = restoreSensitive(
          structuredClone(params),
          JSON.parse(open(data.sealed, options.sealingKey)) as Array<[Array<string | number>, unknown]>,
        );
      } catch {
        return fail(
          job,
          unsealable(data.callId, data.tool),
          'the sealed values could not be opened (another sealingKey?)',
        );
      }
    }
    const call: ToolCall = { id: data.callId, name: data.tool, arguments: params };
    const result = await executor.execute(call, contextForJob(data.context, String(job.id), signal));
    if (result.ok) return result;
    if (shuttingDown && result.error.code === 'CANCELLED') {
      // Cancelled by this worker's shutdown, not by the call: back to the queue for another worker, no attempt used.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const attempts = job.opts.attempts ?? 1;
    if (RETRIED_CODES.has(result.error.code) && job.attemptsMade + 1 < attempts) {
      logger.warn(
        `job ${String(job.id)} (${data.tool}) attempt ${job.attemptsMade + 1} of ${attempts} failed with ${result.error.code}; it will be retried`,
        {
          tool: data.tool,
          callId: data.callId,
          jobId: job.id,
        },
      );
      throw new RetryableToolFailure(result.error.message);
    }
    return fail(job, result, undefined);
  };

  async function fail(
    job: Job<ToolJobData, ToolResult>,
    result: ToolResult,
    reason: string | undefined,
  ): Promise<never> {
    if (reason !== undefined)
      logger.error(`job ${String(job.id)} (${job.data.tool}): ${reason}`, {
        tool: job.data.tool,
        callId: job.data.callId,
        jobId: job.id,
      });
    await job.updateData({ ...job.data, result });
    throw new UnrecoverableError(result.ok ? 'failed' : result.error.message);
  }

  const worker = new Worker<ToolJobData, ToolResult>(options.queueName ?? DEFAULT_QUEUE_NAME, processor, {
    connection: options.connection,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    concurrency,
    name: options.name ?? `toolwright-${process.pid}`,
    ...(options.lockDurationMs !== undefined ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs !== undefined ? { stalledInterval: options.stalledIntervalMs } : {}),
  });
  worker.on('error', (error) => logger.error(`tool worker: ${error.message}`, { queue: worker.name }));

  let closing: Promise<void> | undefined;
  return {
    worker,
    executor,
    close() {
      closing ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const finished = worker.close().then(() => true);
        const timedOut = new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), shutdownTimeoutMs);
        });
        const graceful = await Promise.race([finished, timedOut]);
        clearTimeout(timer);
        if (!graceful) {
          logger.warn(
            `tool worker: in-flight jobs did not finish within ${shutdownTimeoutMs} ms; cancelling them (they return to the queue)`,
            { queue: worker.name },
          );
          shuttingDown = true;
          worker.cancelAllJobs('worker shutting down');
          const returned = await Promise.race([
            finished,
            new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 5_000))),
          ]);
          clearTimeout(timer);
          // A handler that ignores its AbortSignal: stop without it; its job's lock expires and another worker runs it.
          if (!returned) await worker.close(true);
        }
      })();
      return closing;
    },
  };
}

function unsealable(callId: string, tool: string): ToolResult {
  return {
    callId,
    tool,
    ok: false,
    error: {
      code: 'HANDLER_ERROR',
      message: `The tool "${tool}" cannot run in this session (its job queue is not configured for it). Do not retry it.`,
      issues: [],
      retryable: false,
    },
    transformations: [],
    durationMs: 0,
  };
}
