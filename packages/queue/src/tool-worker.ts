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
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import {
  contextForJob,
  jobProblem,
  REFUSED_JOB_PREFIX,
  restoreSensitive,
  matchesValuesDigest,
  type RefusedJobReason,
  type ToolJobData,
} from './job-data';
import { jobIdForLog } from './job-ids';
import { DEFAULT_QUEUE_NAME, queuePrefix, replicaWait, requiredKeyRing, type QueueConnectionOptions } from './options';
import { ReplicationBarrier, type BarrierClient } from './replication-barrier';
import { describeError } from './describe-error';
import { retryUntil } from './retry';
import { RunRecords, type RunStart } from './run-records';
import { runLedgerKey, type RunLedger } from './run-ledger';
import { open, sealBinding } from './sealing';

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
  /**
   * How often a job may lose its lock (its worker died or stalled, or a failover lost the lock) and go back to the queue
   * before BullMQ fails it. Default 5 (BullMQ's own default is 1). A lost lock never makes a handler run twice (a
   * redelivery finds the run record or waits for the claim), so this only bounds how often a job whose handler keeps
   * killing its worker is run again; a failover alone can cost each job that was active one or two.
   */
  readonly maxStalledCount?: number;
  /**
   * A record of started runs outside Redis (the application's own database): consulted before the handler of every
   * job whose tool is not marked `readOnlyHint`, so that a captured job never runs twice, even when its Redis keys are
   * deleted and it is put back. Without it, such a replay is bounded by the job's signed expiry (`jobExpiryMs`).
   */
  readonly runLedger?: RunLedger;
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

/** How often a job may lose its lock before BullMQ fails it (see `ToolWorkerOptions.maxStalledCount`). */
const DEFAULT_MAX_STALLED_COUNT = 5;

const REFUSAL_TEXT: Readonly<Record<RefusedJobReason, string>> = {
  malformed: 'its data is not a toolwright job',
  unsigned: 'it carries no signature',
  'unknown-key': 'it is signed with a key this worker does not have',
  'bad-signature': 'its signature does not match its id, tool, data or options (edited, or moved from another job)',
  expired: 'it expired before a worker took it',
  replayed: 'it already ran (delivered again after it completed or failed)',
};

/**
 * A BullMQ worker that runs tool jobs through the same pipeline as the in-process executor: the job's parameters are
 * checked again against this process's tool definitions (a deploy may have changed them), trusted context is injected
 * from the job (`jobId` is the job's own id; nothing comes from the model), and the handler runs with its timeout,
 * AbortSignal, slow-call warning and error mapping. TIMEOUT and SERVICE_UNAVAILABLE are retried per the tool's
 * `queue` options; invalid arguments, permission errors and handler errors are not.
 *
 * Before anything of a job is used, its envelope is verified (signature, key id, expiry; see `signing.ts`), and its run
 * record is checked so a handler never runs twice for one job id: a refused job goes to the failed set with its reason
 * and a `security:` warning, and never runs.
 */
export function createToolWorker(tools: ToolRegistry | PersonaToolExecutor, options: ToolWorkerOptions): ToolWorker {
  const logger: Logger = options.logger ?? options.executorOptions?.logger ?? defaultLogger;
  const executor =
    tools instanceof ToolRegistry ? new PersonaToolExecutor(tools, { logger, ...options.executorOptions }) : tools;
  const concurrency = options.concurrency ?? 4;
  if (!(Number.isInteger(concurrency) && concurrency >= 1))
    throw new RangeError(`concurrency must be an integer >= 1; got ${String(options.concurrency)}.`);
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 30_000;
  const maxStalledCount = options.maxStalledCount ?? DEFAULT_MAX_STALLED_COUNT;
  if (!(Number.isInteger(maxStalledCount) && maxStalledCount >= 0))
    throw new RangeError(`maxStalledCount must be an integer >= 0; got ${String(options.maxStalledCount)}.`);

  const ring = requiredKeyRing(options, 'createToolWorker');
  const allowUnauthenticated = options.allowUnauthenticatedJobs === true;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const prefix = queuePrefix(options);
  const lockDurationMs = options.lockDurationMs ?? 30_000;
  const replicas = replicaWait(options);
  /**
   * How long a delivery's claim on a job outlives its last renewal: longer than BullMQ's lock, so a worker cut off by a
   * failover (its lock expired, its result not yet recorded) still holds the job when it is delivered again. A job
   * whose worker crashed mid-run runs again once the claim has expired.
   */
  const claimMs = Math.max(3 * lockDurationMs, 10_000);

  let shuttingDown = false;
  const processor = async (
    job: Job<ToolJobData, ToolResult>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<ToolResult> => {
    const problem = jobProblem(job, ring, allowUnauthenticated, Date.now());
    if (problem !== undefined) return refuse(job, problem);
    const data = job.data;
    const jobId = String(job.id);
    const delivery = token ?? '';
    const mac = data.signature?.mac ?? '';
    let start: RunStart;
    try {
      start = await records.begin(jobId, delivery, mac);
    } catch (error) {
      // Redis did not take the claim for as long as a claim lasts: the handler has not run, and the job is no failure
      // of the call. It goes back to the queue (or, with Redis still unreachable, to the stall check, which does so).
      logger.warn(
        `job ${jobIdForLog(jobId)} (${data.tool}) could not be claimed (${describeError(error)}); it goes back to the queue`,
        { queue: queueName, jobId: jobIdForLog(jobId) },
      );
      await job.moveToWait(token).catch(() => undefined);
      throw new WaitingError();
    }
    if (start.kind === 'replayed') return refuse(job, 'replayed');
    if (start.kind === 'ran') {
      logger.warn(
        `job ${jobIdForLog(jobId)} (${data.tool}) was delivered again after its handler ran (a failover or a lost lock); its recorded result is used`,
        { queue: queueName, jobId: jobIdForLog(jobId) },
      );
      return start.result.ok ? start.result : fail(job, start.result, undefined);
    }
    if (start.kind === 'busy') {
      logger.warn(
        `job ${jobIdForLog(jobId)} (${data.tool}) was delivered again while another delivery runs it; it is retried in ${start.retryInMs} ms`,
        { queue: queueName, jobId: jobIdForLog(jobId) },
      );
      // Another delivery of this job (one a failover brought back) holds the claim: try again when it expires.
      await job.moveToDelayed(Date.now() + start.retryInMs, token);
      throw new DelayedError();
    }
    let params = data.params;
    if (data.sealed !== undefined) {
      if (options.sealingKey === undefined) {
        await release(jobId, delivery);
        return fail(job, unsealable(data.callId, data.tool), 'no sealingKey is configured on this worker');
      }
      try {
        params = restoreSensitive(
          structuredClone(params),
          JSON.parse(open(data.sealed, options.sealingKey, sealBinding(jobId, data.tool))) as Array<
            [Array<string | number>, unknown]
          >,
        );
      } catch {
        await release(jobId, delivery);
        return fail(
          job,
          unsealable(data.callId, data.tool),
          'the sealed values could not be opened (another sealingKey, or moved from another job?)',
        );
      }
    }
    const call: ToolCall = { id: data.callId, name: data.tool, arguments: params };
    const ledgerKey = ledgerKeyFor(data.tool, jobId, mac);
    if (ledgerKey !== undefined) {
      let first: boolean;
      try {
        first = await options.runLedger!.claim(ledgerKey, typeof data.expiresAt === 'number' ? data.expiresAt : 0);
      } catch (error) {
        await release(jobId, delivery);
        logger.warn(
          `job ${jobIdForLog(jobId)} (${data.tool}): the run ledger could not be asked (${describeError(error)}); it goes back to the queue`,
          { queue: queueName, jobId: jobIdForLog(jobId) },
        );
        await job.moveToWait(token).catch(() => undefined);
        throw new WaitingError();
      }
      if (!first) {
        await release(jobId, delivery);
        return refuse(job, 'replayed');
      }
    }
    // The claim is kept alive from the handler's start until its outcome is recorded (which a failover can delay).
    const renewal = setInterval(
      () => void records.renew(jobId, delivery).catch(() => undefined),
      Math.max(100, Math.floor(claimMs / 4)),
    );
    try {
      const context = contextForJob(data.context, jobId, signal);
      // A permit for this one call: a call a person approved in the API process (the approval is in the signed job) is
      // not asked again here, and the handler runs only with the parameters the producer validated (`values`). The
      // handler never holds the permit: a call it makes itself is asked about like any other.
      const expected = data.values;
      const permit = executor.approvals.bind({
        callId: data.callId,
        tool: data.tool,
        approved: data.context.approval !== undefined,
        ...(typeof expected === 'string'
          ? { accepts: (built: Record<string, unknown>) => matchesValuesDigest(built, expected, options.sealingKey) }
          : {}),
      });
      return await outcome(job, delivery, ledgerKey, await executor.executeBound(call, context, permit));
    } finally {
      clearInterval(renewal);
    }
  };

  /** Records what the handler returned and ends the job: completed, retried, back to the queue, or failed for good. */
  async function outcome(
    job: Job<ToolJobData, ToolResult>,
    delivery: string,
    ledgerKey: string | undefined,
    result: ToolResult,
  ): Promise<ToolResult> {
    const data = job.data;
    const jobId = String(job.id);
    const token = delivery;
    if (result.ok) {
      await record(job, delivery, result);
      return result;
    }
    if (shuttingDown && result.error.code === 'CANCELLED') {
      // Cancelled by this worker's shutdown, not by the call: back to the queue for another worker, no attempt used.
      await releaseLedger(ledgerKey);
      await release(jobId, delivery);
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const attempts = job.opts.attempts ?? 1;
    if (RETRIED_CODES.has(result.error.code) && job.attemptsMade + 1 < attempts) {
      logger.warn(
        `job ${jobIdForLog(jobId)} (${data.tool}) attempt ${job.attemptsMade + 1} of ${attempts} failed with ${result.error.code}; it will be retried`,
        {
          tool: data.tool,
          callId: data.callId,
          jobId: job.id,
        },
      );
      await releaseLedger(ledgerKey);
      await release(jobId, delivery);
      throw new RetryableToolFailure(result.error.message);
    }
    await record(job, delivery, result);
    return fail(job, result, undefined);
  }

  /**
   * Records the handler's result (retried for as long as a claim lasts). Should Redis still refuse it, the result is not
   * lost: BullMQ stores it with the job, which is what the caller reads; only a redelivery could then run it again.
   */
  async function record(job: Job<ToolJobData, ToolResult>, delivery: string, result: ToolResult): Promise<void> {
    const { data } = job;
    const expiresAt = typeof data.expiresAt === 'number' ? data.expiresAt : Date.now();
    await records
      .finish(String(job.id), delivery, data.signature?.mac ?? '', result, expiresAt)
      .catch((error) =>
        logger.error(
          `job ${jobIdForLog(job.id)} (${data.tool}): its result could not be recorded (${describeError(error)}); a redelivery may run it again`,
          { queue: queueName, jobId: jobIdForLog(job.id) },
        ),
      );
  }

  /** The ledger key of a job whose handler may have side effects (`undefined`: no ledger, or a read-only tool). */
  function ledgerKeyFor(tool: string, jobId: string, mac: string): string | undefined {
    if (options.runLedger === undefined) return undefined;
    if (executor.tools().find((definition) => definition.name === tool)?.options.annotations?.readOnlyHint === true)
      return undefined;
    return runLedgerKey(jobId, mac);
  }

  /** Gives the ledger's claim up for an attempt that is retried (should the ledger refuse, the retry is refused). */
  async function releaseLedger(key: string | undefined): Promise<void> {
    if (key === undefined) return;
    await options.runLedger!.release(key).catch((error: unknown) =>
      logger.warn(`run ledger: a claim could not be released (${describeError(error)}); its retry will not run`, {
        queue: queueName,
      }),
    );
  }

  /** Gives the claim up (retried; should Redis refuse, the claim expires by itself after claimMs). */
  async function release(jobId: string, delivery: string): Promise<void> {
    await records.release(jobId, delivery).catch((error) =>
      logger.warn(`job ${jobIdForLog(jobId)}: its claim could not be released (${describeError(error)}); it expires`, {
        queue: queueName,
        jobId: jobIdForLog(jobId),
      }),
    );
  }

  async function fail(
    job: Job<ToolJobData, ToolResult>,
    result: ToolResult,
    reason: string | undefined,
  ): Promise<never> {
    if (reason !== undefined)
      logger.error(`job ${jobIdForLog(job.id)} (${job.data.tool}): ${reason}`, {
        tool: job.data.tool,
        callId: job.data.callId,
        jobId: jobIdForLog(job.id),
      });
    // The result the caller gets: stored with the job (retried through a failover, for as long as the job's lock lasts).
    await retryUntil(() => job.updateData({ ...job.data, result }), performance.now() + lockDurationMs);
    throw new UnrecoverableError(result.ok ? 'failed' : result.error.message);
  }

  /** A job that must not run: a security event (the reason, never the job's data), and the failed set. */
  function refuse(job: Job<ToolJobData, ToolResult>, reason: RefusedJobReason): never {
    logger.warn(
      `security: job ${jobIdForLog(job.id)} of queue ${queueName} was refused before it ran: ${REFUSAL_TEXT[reason]}`,
      { queue: queueName, jobId: jobIdForLog(job.id), reason },
    );
    throw new UnrecoverableError(`${REFUSED_JOB_PREFIX}${reason}`);
  }

  const worker = new Worker<ToolJobData, ToolResult>(queueName, processor, {
    connection: options.connection,
    prefix,
    concurrency,
    name: options.name ?? `toolwright-${process.pid}`,
    lockDuration: lockDurationMs,
    maxStalledCount,
    ...(options.stalledIntervalMs !== undefined ? { stalledInterval: options.stalledIntervalMs } : {}),
  });
  const recordPrefix = `${prefix}:${queueName}:toolwright`;
  const barrier =
    replicas === undefined
      ? undefined
      : new ReplicationBarrier(
          worker.backend.client.then((client) => client.duplicate() as unknown as BarrierClient),
          `${recordPrefix}:barrier`,
          replicas.replicas,
          replicas.timeoutMs,
        );
  const records = new RunRecords(
    worker.backend.client,
    recordPrefix,
    claimMs,
    barrier && replicas ? { barrier, replicas: replicas.replicas } : undefined,
    (jobId, acknowledged) =>
      logger.warn(
        `job ${jobIdForLog(jobId)}: a run record reached ${acknowledged} of ${replicas?.replicas} replicas in ${replicas?.timeoutMs} ms`,
        { queue: queueName, jobId: jobIdForLog(jobId) },
      ),
  );
  const settle = (job: Job<ToolJobData, ToolResult> | undefined) => {
    if (job?.id === undefined) return;
    records.settle(job.id).catch((error: unknown) =>
      logger.warn(`job ${jobIdForLog(job.id)}: its run record could not be marked settled`, {
        queue: queueName,
        cause: describeError(error),
      }),
    );
  };
  worker.on('completed', (job) => settle(job));
  worker.on('failed', (job, error) => {
    // A refused job never ran: its id's record (if any) belongs to the genuine job, which must keep its own outcome.
    if (!job || error.message.startsWith(REFUSED_JOB_PREFIX)) return;
    if (error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts || 1)) settle(job);
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
        await barrier?.close();
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
