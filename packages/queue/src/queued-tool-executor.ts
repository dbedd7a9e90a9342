import {
  defaultLogger,
  type ApprovalDecision,
  type ExecuteAllOptions,
  type ExecutionContext,
  type Logger,
  type PersonaToolExecutor,
  type ToolCall,
  type ToolDefinition,
  type ToolErrorPayload,
  type ToolRegistry,
  type Transformation,
  type PreparedCall,
  type ToolResult,
} from '@toolwright/core';
import { Job, Queue, QueueEvents, type JobsOptions } from 'bullmq';
import {
  buildJobData,
  jobDataFor,
  REFUSED_JOB_PREFIX,
  SealingKeyMissingError,
  type JobDraft,
  type RefusedJobReason,
  type ToolJobData,
} from './job-data';
import { jobIdForCall, jobIdForLog } from './job-ids';
import { DEFAULT_QUEUE_NAME, queuePrefix, replicaWait, requiredKeyRing, type QueueConnectionOptions } from './options';
import { describeError } from './describe-error';
import { ReplicationBarrier, type BarrierClient } from './replication-barrier';
import { retryUntil } from './retry';
import { readRunRecord } from './run-records';
import type { SigningKeyRing } from './signing';

import { configurationError, failedResult, infrastructureError, pendingResult, withTransformations } from './results';
import { JOB_STATUS_TOOL_NAME, registerJobStatusTool } from './status-tool';

export interface QueuedToolExecutorOptions extends QueueConnectionOptions {
  /** How long `execute` waits for a job before it returns a pending result. Default 30,000 ms; `0` returns at once. */
  readonly waitMs?: number;
  /** Tools that run in this process, not on a worker (the job-status tool always does). */
  readonly inProcessTools?: readonly string[];
  /** BullMQ options every job gets (a tool's `@Command({ queue })` options override attempts, backoff and priority). */
  readonly defaultJobOptions?: JobsOptions;
  /** Register the `tool_job_status` tool in the executor's registry (so a model can ask for pending results). Default true. */
  readonly statusTool?: boolean;
  /**
   * How long a job may wait for a worker: after this, a worker refuses it (`expired`). Signed with the job, and the
   * bound on replaying a captured job. Default 24 hours.
   */
  readonly jobExpiryMs?: number;
}

/** A call accepted as a job, or refused before it reached Redis. */
export type EnqueueResult =
  | {
      readonly accepted: true;
      readonly jobId: string;
      readonly callId: string;
      readonly tool: string;
      readonly job: Job<ToolJobData, ToolResult>;
      /** Every transformation the producer made (complete, in memory; the job stores a redacted copy). */
      readonly transformations: readonly Transformation[];
    }
  | { readonly accepted: false; readonly result: ToolResult };

export interface FailedToolJob {
  readonly jobId: string;
  readonly callId: string;
  readonly tool: string;
  readonly sessionId?: string;
  /** The model-facing error the call ended with. */
  readonly error: ToolErrorPayload;
  readonly attemptsMade: number;
  readonly failedAt?: Date;
  /** Set when a worker refused the job before it ran (see docs/security.md): why. */
  readonly refused?: RefusedJobReason;
}

/** The raw Redis commands the executor needs beyond BullMQ's API (BullMQ's client passes them through to ioredis). */
interface RawClient {
  xrevrange(key: string, end: string, start: string, count: 'COUNT', limit: number): Promise<Array<[string, string[]]>>;
  duplicate(): BarrierClient;
}

const DAY_MS = 24 * 3600_000;
/**
 * When a waiting call looks at its job's state itself (an event lost in a failover must not hold it to waitMs): after
 * 1 s, then twice as long each time, at most every 8 s (so thousands of waiting calls cost little).
 */
const FIRST_STATE_POLL_MS = 1_000;
const MAX_STATE_POLL_MS = 8_000;
/** A job BullMQ ended while a delivery still runs its handler: its run record is read after 250 ms, then less often. */
const FIRST_RECORD_POLL_MS = 250;
/** How often a waiting call adds its job again when Redis lost it (a failover before the job reached a replica). */
const MAX_READDS = 3;

const DEFAULT_JOB_OPTIONS: JobsOptions = {
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * Runs pipeline steps 1-6 (resolve, permissions, parse, normalize, inject context, validate) in this process with the
 * given PersonaToolExecutor (a model gets invalid-argument errors at once, with no round trip through Redis), then
 * enqueues the prepared call as a BullMQ job that a `createToolWorker` process runs. The call id is the job id, so a
 * repeated call runs once. Results come back as the same `ToolResult` the in-process executor returns.
 */
export class QueuedToolExecutor {
  readonly queue: Queue<ToolJobData, ToolResult>;
  private events: Promise<QueueEvents> | undefined;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly logger: Logger;
  private readonly waitMs: number;
  private readonly inProcess: Set<string>;
  private readonly ring: SigningKeyRing | undefined;
  private readonly prefix: string;
  private readonly replicas: QueueConnectionOptions['waitForReplicas'];
  private readonly barrier: ReplicationBarrier | undefined;
  private readonly expiryMs: number;
  private readonly jobDefaults: JobsOptions;

  constructor(
    private readonly executor: PersonaToolExecutor,
    private readonly registry: ToolRegistry,
    private readonly options: QueuedToolExecutorOptions,
  ) {
    this.logger = options.logger ?? defaultLogger;
    this.waitMs = options.waitMs ?? 30_000;
    if (!(Number.isFinite(this.waitMs) && this.waitMs >= 0))
      throw new RangeError(`waitMs must be a number of milliseconds >= 0; got ${String(options.waitMs)}.`);
    this.expiryMs = options.jobExpiryMs ?? DAY_MS;
    if (!(Number.isInteger(this.expiryMs) && this.expiryMs >= 1))
      throw new RangeError(
        `jobExpiryMs must be an integer number of milliseconds >= 1; got ${String(options.jobExpiryMs)}.`,
      );
    this.ring = requiredKeyRing(options, 'QueuedToolExecutor');
    this.prefix = queuePrefix(options);
    this.replicas = replicaWait(options);
    this.jobDefaults = { ...DEFAULT_JOB_OPTIONS, ...options.defaultJobOptions };
    this.queue = new Queue<ToolJobData, ToolResult>(options.queueName ?? DEFAULT_QUEUE_NAME, {
      connection: options.connection,
      prefix: this.prefix,
      defaultJobOptions: this.jobDefaults,
    });
    this.barrier =
      this.replicas === undefined
        ? undefined
        : new ReplicationBarrier(
            this.queue.backend.client.then((client) => (client as unknown as RawClient).duplicate()),
            `${this.queue.toKey('toolwright')}:barrier`,
            this.replicas.replicas,
            this.replicas.timeoutMs,
          );
    this.inProcess = new Set(options.inProcessTools ?? []);
    if (options.statusTool !== false) {
      registerJobStatusTool(registry, this.queue, options.sealingKey);
      this.inProcess.add(JOB_STATUS_TOOL_NAME);
    }
  }

  /** The tools a tool loop offers the model. */
  tools(): readonly ToolDefinition[] {
    return this.executor.tools();
  }

  retriesFor(tool: string): number | undefined {
    return this.executor.retriesFor(tool);
  }

  /**
   * Prepares the call here and enqueues it; an invalid call comes back at once as a refusal and never reaches Redis.
   * Never throws for anything a model can send; a Redis failure is a SERVICE_UNAVAILABLE result.
   */
  async enqueue(call: ToolCall, context: ExecutionContext = {}): Promise<EnqueueResult> {
    const started = performance.now();
    const prepared = await this.executor.prepare(call, context);
    if (!prepared.ok) {
      return {
        accepted: false,
        result: failedResult(
          prepared.callId,
          prepared.tool,
          prepared.error,
          prepared.transformations,
          performance.now() - started,
        ),
      };
    }
    // A tool with `approval` asks a person here, in the API process: nothing reaches Redis's queue before a decision.
    if (prepared.definition.options.approval !== undefined) {
      const pending = await this.executor.approvals.request(prepared, context, started);
      if (pending !== undefined) return { accepted: false, result: pending };
    }
    // Only resolveApproval's calls carry an approval into the job (where the worker trusts it): a caller's is dropped.
    const { approval: _notAnApproval, ...trusted } = context;
    return this.enqueuePrepared(prepared, trusted, started);
  }

  /**
   * A person's decision on a pending approval (docs/approval.md): approved, the call is enqueued (with the validated
   * parameters and trusted context it was approved with, and who approved it) and its result awaited as `execute`
   * does; denied, an `APPROVAL_DENIED` result. An unknown, expired or used id resolves to `APPROVAL_NOT_FOUND`.
   */
  async resolveApproval(
    id: string,
    decision: ApprovalDecision,
    options: { readonly waitMs?: number } = {},
  ): Promise<ToolResult> {
    const claim = await this.executor.approvals.claim(id, decision, (tool) => this.registry.get(tool));
    if (!claim.granted) return claim.result;
    const started = performance.now();
    const { approval, context, outcome } = claim;
    const definition = this.registry.get(approval.tool);
    if (definition === undefined)
      return {
        ...failedResult(
          approval.callId,
          approval.tool,
          configurationError(approval.tool),
          approval.transformations,
          elapsed(started),
        ),
        approval: outcome,
      };
    // The approved call as the person saw it: the values its parameters are built from travel in the job, and the
    // worker runs the handler only with the parameters that were approved (a `@Transform` is applied once, there).
    const { callId, tool, params, transformations } = approval;
    const prepared: PreparedCall = {
      callId,
      tool,
      definition,
      params,
      input: approval.input ?? params,
      transformations,
      securityEvents: [],
    };
    const enqueued = await this.enqueuePrepared(prepared, context, started);
    const result = enqueued.accepted
      ? await this.waitForResult(enqueued, options.waitMs ?? this.waitMs, started)
      : enqueued.result;
    return { ...result, approval: outcome };
  }

  /** Enqueues a call steps 1-6 (and, for a tool with `approval`, a person) accepted. */
  private async enqueuePrepared(
    prepared: PreparedCall,
    context: ExecutionContext,
    started: number,
  ): Promise<EnqueueResult> {
    const { definition } = prepared;
    let draft: JobDraft;
    try {
      draft = buildJobData(
        definition,
        prepared.callId,
        prepared.params,
        prepared.input ?? prepared.params,
        prepared.transformations,
        context,
        this.options.sealingKey,
        this.expiryMs,
      );
    } catch (error) {
      this.logger.error(
        error instanceof SealingKeyMissingError
          ? error.message
          : `tool ${prepared.tool}: its parameters could not be stored as job data`,
        {
          tool: prepared.tool,
          callId: prepared.callId,
        },
      );
      return {
        accepted: false,
        result: failedResult(
          prepared.callId,
          prepared.tool,
          configurationError(prepared.tool),
          prepared.transformations,
          performance.now() - started,
        ),
      };
    }
    try {
      const toolOptions = jobOptionsFor(definition);
      const signedOptions = { ...this.jobDefaults, ...toolOptions };
      const add = (jobId: string) =>
        this.queue.add(prepared.tool, jobDataFor(draft, jobId, signedOptions, this.options.sealingKey, this.ring), {
          ...toolOptions,
          jobId,
        });
      let jobId = jobIdForCall(prepared.callId);
      let job = await add(jobId);
      // BullMQ does not add a job whose id exists (and returns our data, not the stored one): read what is stored.
      const stored = await Job.fromId<ToolJobData, ToolResult>(this.queue, jobId);
      if (stored && stored.data.fingerprint !== draft.data.fingerprint) {
        // The id belongs to another call (another session, tool or arguments): this call runs as a job of its own,
        // whose id is still stable, so its own repeats are recognised.
        jobId = `${jobId}.${draft.data.fingerprint.slice(0, 16)}`;
        job = await add(jobId);
      }
      await this.confirmReplicated(job);
      return {
        accepted: true,
        jobId,
        callId: prepared.callId,
        tool: prepared.tool,
        job,
        transformations: prepared.transformations,
      };
    } catch (error) {
      this.logger.error(`tool ${prepared.tool}: the job could not be enqueued`, {
        tool: prepared.tool,
        callId: prepared.callId,
        cause: describeError(error),
      });
      return {
        accepted: false,
        result: failedResult(
          prepared.callId,
          prepared.tool,
          infrastructureError(prepared.tool),
          prepared.transformations,
          performance.now() - started,
        ),
      };
    }
  }

  /**
   * Runs one call: in this process for in-process tools; otherwise as a job, waiting up to `waitMs` for its result,
   * after which the result is a pending value that tells the model to ask `tool_job_status` later.
   */
  async execute(
    call: ToolCall,
    context: ExecutionContext = {},
    options: { readonly waitMs?: number } = {},
  ): Promise<ToolResult> {
    const started = performance.now();
    const name = typeof call?.name === 'string' ? call.name : '';
    if (this.inProcess.has(name)) return this.executor.execute(call, context);
    const enqueued = await this.enqueue(call, context);
    if (!enqueued.accepted) return enqueued.result;
    return this.waitForResult(enqueued, options.waitMs ?? this.waitMs, started);
  }

  /** Runs calls at once (enqueueing is cheap); results come back in call order. */
  async executeAll(
    calls: readonly ToolCall[],
    context: ExecutionContext = {},
    _options: ExecuteAllOptions = {},
  ): Promise<ToolResult[]> {
    return Promise.all(calls.map((call) => this.execute(call, context)));
  }

  /** Waits for an accepted job's result (deadline `waitMs`), as a ToolResult. */
  async result(jobId: string, waitMs = this.waitMs): Promise<ToolResult | undefined> {
    // A read that fails (a failover) is retried until the deadline; Redis' answer that there is no such job is believed.
    const job = await retryUntil(
      () => Job.fromId<ToolJobData, ToolResult>(this.queue, jobId),
      performance.now() + waitMs,
    );
    if (!job) return undefined;
    const { callId, tool, transformations } = job.data;
    return this.waitForResult({ accepted: true, jobId, callId, tool, job, transformations }, waitMs, performance.now());
  }

  /** The dead-letter view: jobs that failed for good, with the error their model got. */
  async failedJobs(start = 0, end = 99): Promise<FailedToolJob[]> {
    const jobs = await this.queue.getFailed(start, end);
    return jobs.map((job) => {
      const refused = job.failedReason?.startsWith(REFUSED_JOB_PREFIX)
        ? (job.failedReason.slice(REFUSED_JOB_PREFIX.length) as RefusedJobReason)
        : undefined;
      // A refused job's data is whatever was written to Redis: only its (log-safe) id is reported, not its contents.
      if (refused !== undefined)
        return {
          jobId: jobIdForLog(job.id),
          callId: '',
          tool: '',
          error: refusedError(),
          attemptsMade: job.attemptsMade,
          refused,
          ...(job.finishedOn !== undefined ? { failedAt: new Date(job.finishedOn) } : {}),
        };
      return {
        jobId: String(job.id),
        callId: job.data.callId,
        tool: job.data.tool,
        ...(job.data.context.sessionId !== undefined ? { sessionId: job.data.context.sessionId } : {}),
        error: job.data.result && !job.data.result.ok ? job.data.result.error : infrastructureError(job.data.tool),
        attemptsMade: job.attemptsMade,
        ...(job.finishedOn !== undefined ? { failedAt: new Date(job.finishedOn) } : {}),
      };
    });
  }

  async close(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    await events?.close();
    await this.barrier?.close();
    await this.queue.close();
  }

  /** One QueueEvents subscription for every waiting call (created on first use). */
  private queueEvents(): Promise<QueueEvents> {
    if (this.events) return this.events;
    const subscribing = (async () => {
      // Start reading the event stream where it stands now (not at '$' when the reader first blocks, which can be later):
      // a job that finishes between here and a caller's own state check is then still seen.
      const client = (await this.queue.backend.client) as unknown as RawClient;
      const [last] = await client.xrevrange(this.queue.keys.events!, '+', '-', 'COUNT', 1);
      const events = new QueueEvents(this.queue.name, {
        connection: this.options.connection,
        lastEventId: last?.[0] ?? '0',
        prefix: this.prefix,
      });
      events.on('completed', ({ jobId }) => this.settle(jobId));
      events.on('failed', ({ jobId }) => this.settle(jobId));
      events.on('error', (error) =>
        this.logger.warn(`queue events: ${describeError(error)}`, { queue: this.queue.name }),
      );
      try {
        await events.waitUntilReady();
      } catch (error) {
        await events.close().catch(() => undefined);
        throw error;
      }
      return events;
    })();
    this.events = subscribing;
    // A subscription that failed (Redis unreachable) is not kept: the next waiting call, or a retry, subscribes again.
    subscribing.catch(() => {
      if (this.events === subscribing) this.events = undefined;
    });
    return subscribing;
  }

  private settle(jobId: string): void {
    const waiting = this.waiters.get(jobId);
    if (!waiting) return;
    this.waiters.delete(jobId);
    for (const wake of waiting) wake();
  }

  /**
   * Resolves when the job has finished (completed or failed, or it is not in Redis after MAX_READDS re-adds) or the
   * deadline passed: `true` when finished. Besides the completion event, the job's state is read every 1 to 8 s (an
   * event can be lost in a failover; a read that fails is no answer and is read again next time), and a job that Redis
   * answers it does not have (lost before it reached a replica) is added again (same id, same signed data:
   * at-least-once delivery).
   */
  private async finished(
    job: Job<ToolJobData, ToolResult>,
    deadline: number,
    readds: { count: number },
  ): Promise<boolean> {
    // Without the subscription the call cannot learn of the job's end: at the deadline, it is pending.
    if (
      !(await retryUntil(() => this.queueEvents(), deadline).then(
        () => true,
        () => false,
      ))
    )
      return false;
    const jobId = String(job.id);
    let wake!: () => void;
    const woken = new Promise<true>((resolve) => (wake = () => resolve(true)));
    const waiting = this.waiters.get(jobId) ?? new Set();
    waiting.add(wake);
    this.waiters.set(jobId, waiting);
    let pollMs = FIRST_STATE_POLL_MS;
    try {
      for (;;) {
        // The job may have finished before the subscription saw it, or its event may be lost: look at its state.
        const state = await job.getState().catch(() => 'error');
        if (state === 'completed' || state === 'failed') return true;
        if (state === 'unknown') {
          if (readds.count === MAX_READDS) return true;
          readds.count++;
          this.logger.warn(`job ${jobIdForLog(jobId)} (${job.name}) is not in Redis any more; adding it again`, {
            jobId: jobIdForLog(jobId),
            queue: this.queue.name,
          });
          await this.queue.add(job.name, job.data, job.opts).catch(() => undefined);
        }
        const remaining = deadline - performance.now();
        if (remaining <= 0) return false;
        let timer: NodeJS.Timeout | undefined;
        const tick = new Promise<false>(
          (resolve) => (timer = setTimeout(() => resolve(false), Math.min(remaining, pollMs))),
        );
        const woke = await Promise.race([woken, tick]);
        clearTimeout(timer);
        pollMs = Math.min(pollMs * 2, MAX_STATE_POLL_MS);
        if (woke) return true;
      }
    } finally {
      const remaining = this.waiters.get(jobId);
      remaining?.delete(wake);
      if (remaining?.size === 0) this.waiters.delete(jobId);
    }
  }

  /** With `waitForReplicas`: the job confirmed on replicas (a shared WAIT), so an accepted job survives a failover. */
  private async confirmReplicated(job: Job<ToolJobData, ToolResult>): Promise<void> {
    if (this.barrier === undefined || this.replicas === undefined) return;
    const acknowledged = await this.barrier.confirm().catch(() => 0);
    if (acknowledged < this.replicas.replicas)
      this.logger.warn(
        `job ${jobIdForLog(job.id)} reached ${acknowledged} of ${this.replicas.replicas} replicas in ${this.replicas.timeoutMs} ms; a failover now could lose it (the waiting caller adds it again)`,
        { jobId: jobIdForLog(job.id), queue: this.queue.name },
      );
  }

  /**
   * Waits for the job's end (deadline `waitMs`) and returns the call's result: BullMQ's (the return value, or the
   * model-facing result a failed job stores), else the run record's (the handler ran, but BullMQ ended the job without
   * its outcome: failed for stalling in a failover, or a redelivery refused as a replay). Reads that fail are retried
   * until the deadline and never taken for a missing job: a job that is still in Redis or still runs gives a pending
   * result at the deadline, and only a job that ended without any result (or stayed lost through the re-adds) gets
   * SERVICE_UNAVAILABLE.
   */
  private async waitForResult(
    enqueued: Extract<EnqueueResult, { accepted: true }>,
    waitMs: number,
    started: number,
  ): Promise<ToolResult> {
    const { job, jobId, callId, tool, transformations } = enqueued;
    const elapsed = () => performance.now() - started;
    const deadline = performance.now() + waitMs;
    const pending = () => pendingResult(callId, tool, jobId, JOB_STATUS_TOOL_NAME, transformations, elapsed());
    if (waitMs === 0) return pending();
    let pollMs = FIRST_RECORD_POLL_MS;
    const readds = { count: 0 };
    for (;;) {
      if (!(await this.finished(job, deadline, readds))) return pending();
      let end: JobEnd;
      try {
        end = await retryUntil(() => this.jobEnd(jobId, job.data.signature?.mac ?? ''), deadline);
      } catch (error) {
        this.logger.warn(`job ${jobIdForLog(jobId)} (${tool}): its result could not be read before the deadline`, {
          jobId: jobIdForLog(jobId),
          cause: describeError(error),
        });
        return pending();
      }
      if (end.kind === 'result') return withTransformations(end.result, transformations, elapsed());
      // Reported finished, but Redis has no such job now (a failover lost it after its event): add it again first.
      if (end.kind === 'gone' && !(end.state === 'unknown' && readds.count < MAX_READDS)) {
        this.logger.error(`tool ${tool}: job ${jobId} ended outside the handler (${end.state})`, {
          tool,
          callId,
          jobId,
          cause: end.failedReason,
        });
        return failedResult(callId, tool, infrastructureError(tool), transformations, elapsed());
      }
      // Still queued or running (an event or state read ahead of a redelivery), BullMQ ended the job while a delivery
      // still runs its handler, or it is to be added again: wait for the job or its run record.
      const remaining = deadline - performance.now();
      if (remaining <= 0) return pending();
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, remaining)));
      pollMs = Math.min(pollMs * 2, MAX_STATE_POLL_MS);
    }
  }

  /** How a job that `finished` reported ended, read once (a failed read throws). */
  private async jobEnd(jobId: string, mac: string): Promise<JobEnd> {
    const current = await Job.fromId<ToolJobData, ToolResult>(this.queue, jobId);
    const state = current ? await current.getState() : 'unknown';
    if (state === 'completed' && current?.returnvalue) return { kind: 'result', result: current.returnvalue };
    const stored = current?.data.result;
    if (state === 'failed' && stored && !stored.ok) return { kind: 'result', result: stored };
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return { kind: 'waiting' };
    const record = await readRunRecord(this.queue.backend.client, this.queue.toKey('toolwright'), jobId, mac);
    if (record.kind === 'ran') {
      this.logger.warn(
        `job ${jobIdForLog(jobId)} ended outside its handler (${state}${current?.failedReason ? `: ${current.failedReason}` : ''}); its handler ran, and its recorded result is used`,
        { jobId: jobIdForLog(jobId), queue: this.queue.name },
      );
      return { kind: 'result', result: record.result };
    }
    if (record.kind === 'running') return { kind: 'waiting' };
    return { kind: 'gone', state, failedReason: current?.failedReason };
  }
}

/** How a job ended: with a result, not yet (it waits, runs, or a delivery still runs its handler), or without one. */
type JobEnd =
  | { readonly kind: 'result'; readonly result: ToolResult }
  | { readonly kind: 'waiting' }
  | { readonly kind: 'gone'; readonly state: string; readonly failedReason: string | undefined };

/** A tool's `@Command({ queue })` options as BullMQ job options. */
export function jobOptionsFor(definition: ToolDefinition): JobsOptions {
  const queue = definition.options.queue;
  const options: { -readonly [K in keyof JobsOptions]: JobsOptions[K] } = {};
  if (queue?.attempts !== undefined) options.attempts = queue.attempts;
  if (queue?.backoff !== undefined) options.backoff = { type: queue.backoff.type, delay: queue.backoff.delayMs };
  else if ((queue?.attempts ?? 1) > 1) options.backoff = { type: 'exponential', delay: 1_000 };
  if (queue?.priority !== undefined) options.priority = queue.priority;
  return options;
}

function refusedError(): ToolErrorPayload {
  return {
    code: 'SERVICE_UNAVAILABLE',
    message: 'The job was refused by the worker before it ran (it failed verification).',
    issues: [],
    retryable: false,
  };
}

function elapsed(started: number): number {
  return performance.now() - started;
}
