import 'reflect-metadata';
import { Transform } from 'class-transformer';
import {
  Command,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ExecutionContext,
  type Logger,
  type ToolInvocationContext,
  type ToolResult,
} from '@toolwright/core';
import {
  createToolWorker,
  QueuedToolExecutor,
  RedisApprovalStore,
  REFUSED_JOB_PREFIX,
  type RunLedger,
  type ToolJobData,
  type ToolWorker,
} from '@toolwright/queue';
import { Job } from 'bullmq';
import type Redis from 'ioredis';
import { RedisServer } from '../support/redis-server';
import { until } from '../support/workers';

jest.setTimeout(90_000);

/**
 * Single use and one caller per job, against a real redis-server and a real worker (in this process, so the test sees
 * every handler run): approvals that come back after their decision, captured jobs put back after their run record was
 * deleted, two callers who send the same call id, a `@Transform` that must run once, and a handler that makes nested
 * calls with its own context.
 */

const SEALING_KEY = 'single use test key';

/** Every handler run in this process. */
const runs: Array<{ tool: string; jobId?: string; value: unknown }> = [];

class RefundParams {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  /** Dollars in, cents out: applied twice, 25 dollars would become 250,000 cents. */
  @ToolParam({ description: 'Amount in dollars', type: 'int', min: 1 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? value * 100 : value))
  cents!: number;
}
@Command({ name: 'refund', description: 'Refund an order', params: RefundParams, approval: true })
class Refund {
  execute(params: RefundParams, invocation: ToolInvocationContext) {
    runs.push({ tool: 'refund', jobId: invocation.context.jobId, value: params.cents });
    return { refunded: params.cents, by: invocation.context.approval?.by };
  }
}

@Command({ name: 'charge', description: 'Charge an order (no approval)', params: RefundParams })
class Charge {
  execute(params: RefundParams, invocation: ToolInvocationContext) {
    runs.push({ tool: 'charge', jobId: invocation.context.jobId, value: params.cents });
    return { charged: params.cents };
  }
}

class AccountParams {
  @ToolParam({ description: 'Which account field' }) field!: string;
}
@Command({ name: 'account', description: "The caller's account", params: AccountParams })
class Account {
  execute(params: AccountParams, invocation: ToolInvocationContext) {
    const configured = invocation.context.handlerConfig?.user;
    const user = typeof configured === 'string' ? configured : String(invocation.context.persona?.name);
    runs.push({ tool: 'account', jobId: invocation.context.jobId, value: user });
    return { [params.field]: `ACCT-${user}` };
  }
}

/** The worker's executor, for the agent tool's nested calls. */
let workerExecutor: PersonaToolExecutor | undefined;
const nested: ToolResult[] = [];

class AgentParams {
  @ToolParam({ description: 'Refunds to try', type: 'int' }) count!: number;
}
@Command({ name: 'agent', description: 'Runs the refunds a model picks', params: AgentParams, approval: true })
class Agent {
  async execute(params: AgentParams, invocation: ToolInvocationContext) {
    for (let index = 0; index < params.count; index++)
      nested.push(
        await workerExecutor!.execute(
          { id: `nested-${index}`, name: 'refund', arguments: { order_id: 'o-9', cents: 900 } },
          invocation.context,
        ),
      );
    return { tried: params.count };
  }
}

/** Times out on its first attempt (the handler ignores its signal), answers on the retry. */
let slowAttempts = 0;
@Command({
  name: 'slow_once',
  description: 'Slow on the first attempt',
  params: AccountParams,
  timeoutMs: 300,
  queue: { attempts: 2, backoff: { type: 'fixed', delayMs: 50 } },
})
class SlowOnce {
  async execute(params: AccountParams, invocation: ToolInvocationContext) {
    const attempt = ++slowAttempts;
    // The first attempt outlives its timeout; its late answer is discarded (and recorded nowhere).
    if (attempt === 1) return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 1_000));
    runs.push({ tool: 'slow_once', jobId: invocation.context.jobId, value: attempt });
    return { [params.field]: attempt };
  }
}

const tools = () => ToolRegistry.from([Refund, Charge, Account, Agent, SlowOnce], { logger: silentLogger });

/** A run ledger outside Redis: the application's own store (here a map in this process, standing in for a table). */
class MapRunLedger implements RunLedger {
  readonly claims = new Map<string, number>();
  async claim(key: string, expiresAt: number): Promise<boolean> {
    if (this.claims.has(key)) return false;
    this.claims.set(key, expiresAt);
    return true;
  }
  async release(key: string): Promise<void> {
    this.claims.delete(key);
  }
}

function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string, details?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(details ?? {})}`);
  return { lines, debug: () => undefined, info: record('info'), warn: record('warn'), error: record('error') };
}

let redis: RedisServer;
let client: Redis;
let queueCount = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
  client = redis.client();
});

afterAll(async () => {
  client.disconnect();
  await redis.destroy();
});

beforeEach(() => {
  runs.length = 0;
  nested.length = 0;
});

/** A producer (with a Redis approval store) and a worker on a queue of their own. */
function setup(options: { jobExpiryMs?: number; runLedger?: RunLedger; approvalExpiresInMs?: number } = {}) {
  const queueName = `single${++queueCount}-${process.pid}`;
  const registry = tools();
  const logger = recordingLogger();
  const store = new RedisApprovalStore({ client, sealingKey: SEALING_KEY, logger });
  const executor = new PersonaToolExecutor(registry, {
    logger: silentLogger,
    approvals: {
      store,
      ...(options.approvalExpiresInMs !== undefined ? { expiresInMs: options.approvalExpiresInMs } : {}),
    },
  });
  const queued = new QueuedToolExecutor(executor, registry, {
    connection: redis.connection,
    queueName,
    logger: silentLogger,
    sealingKey: SEALING_KEY,
    waitMs: 15_000,
    ...(options.jobExpiryMs !== undefined ? { jobExpiryMs: options.jobExpiryMs } : {}),
  });
  const worker: ToolWorker = createToolWorker(tools(), {
    connection: redis.connection,
    queueName,
    logger,
    sealingKey: SEALING_KEY,
    ...(options.runLedger !== undefined ? { runLedger: options.runLedger } : {}),
  });
  workerExecutor = worker.executor;
  /** What someone who can write and delete Redis keys does: the job put back as captured, its run record deleted. */
  const replay = async (captured: Job<ToolJobData>, deleteRunRecord: boolean) => {
    const jobId = String(captured.id);
    await (await Job.fromId(queued.queue, jobId))?.remove();
    if (deleteRunRecord) await client.del(`bull:${queueName}:toolwright:run:${jobId}`);
    await queued.queue.add(captured.name, captured.data, captured.opts);
    await until(
      async () => ['completed', 'failed'].includes(await queued.queue.getJobState(jobId)),
      20_000,
      `replayed job ${jobId} to settle`,
    );
    return (await Job.fromId(queued.queue, jobId))!;
  };
  const close = async () => {
    await worker.close();
    await queued.close();
  };
  return { queueName, registry, executor, queued, worker, logger, replay, close, store };
}

function pendingId(result: ToolResult): string {
  if (result.ok || result.pendingApproval === undefined) throw new Error(`not pending: ${JSON.stringify(result)}`);
  return result.pendingApproval.id;
}

describe('a decided approval never comes back (RedisApprovalStore)', () => {
  const context: ExecutionContext = { sessionId: 'victim' };
  const ask = (executor: PersonaToolExecutor, id: string, cents = 900) =>
    executor.execute({ id, name: 'refund', arguments: { order_id: `o-${id}`, cents } }, context);

  it('someone who can write to Redis puts the record back after a denial, or after it ran: it runs nothing', async () => {
    const { executor, close } = setup();
    try {
      const denied = pendingId(await ask(executor, 'd1'));
      const saved = (await client.get(`toolwright:approval:${denied}`))!;
      expect(await executor.resolveApproval(denied, { approved: false, by: 'ops' })).toMatchObject({
        error: { code: 'APPROVAL_DENIED' },
      });
      // Put back byte for byte, with its time to live.
      await client.set(`toolwright:approval:${denied}`, saved, 'PX', 60_000);
      expect(await executor.resolveApproval(denied, { approved: true, by: 'attacker' })).toMatchObject({
        error: { code: 'APPROVAL_NOT_FOUND' },
      });
      expect(runs).toEqual([]);

      const ran = pendingId(await ask(executor, 'd2'));
      const savedRun = (await client.get(`toolwright:approval:${ran}`))!;
      expect(await executor.resolveApproval(ran, { approved: true, by: 'ops' })).toMatchObject({ ok: true });
      await client.set(`toolwright:approval:${ran}`, savedRun, 'PX', 60_000);
      expect(await executor.resolveApproval(ran, { approved: true, by: 'ops' })).toMatchObject({
        error: { code: 'APPROVAL_NOT_FOUND' },
      });
      expect(runs).toHaveLength(1);

      // A tombstone overwritten with anything still counts as decided (it can only be deleted, not forged).
      const third = pendingId(await ask(executor, 'd3'));
      const savedThird = (await client.get(`toolwright:approval:${third}`))!;
      await executor.resolveApproval(third, { approved: false });
      await client.set(`toolwright:approval:${third}:decided`, 'not a tombstone', 'PX', 60_000);
      await client.set(`toolwright:approval:${third}`, savedThird, 'PX', 60_000);
      expect(await executor.resolveApproval(third, { approved: true })).toMatchObject({
        error: { code: 'APPROVAL_NOT_FOUND' },
      });
      expect(runs).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('someone who can also delete keys (the tombstone) replays only until the signed expiry the application set', async () => {
    const { executor, close, logger } = setup({ approvalExpiresInMs: 2_000 });
    try {
      const id = pendingId(await ask(executor, 'e1'));
      const saved = (await client.get(`toolwright:approval:${id}`))!;
      await executor.resolveApproval(id, { approved: false, by: 'ops' });
      // Tombstone deleted and record put back: within the record's own expiry, this is the replay that remains.
      await client.del(`toolwright:approval:${id}:decided`);
      await client.set(`toolwright:approval:${id}`, saved, 'PX', 60_000);
      expect(await executor.resolveApproval(id, { approved: true, by: 'attacker' })).toMatchObject({ ok: true });
      expect(runs).toHaveLength(1);
      // After the signed expiry, the same replay runs nothing, whatever Redis holds.
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      await client.del(`toolwright:approval:${id}:decided`);
      await client.set(`toolwright:approval:${id}`, saved, 'PX', 60_000);
      expect(await executor.resolveApproval(id, { approved: true, by: 'attacker' })).toMatchObject({
        error: { code: 'APPROVAL_NOT_FOUND' },
      });
      expect(runs).toHaveLength(1);
      expect(logger.lines.some((line) => line.includes('security:'))).toBe(false);
    } finally {
      await close();
    }
  });

  it('the approved parameters are what runs: 25 dollars approved as 2,500 cents refunds 2,500 (Redis store, queue)', async () => {
    const { executor, queued, close } = setup();
    try {
      // In-process executor, the approval decided through Redis.
      const asked = await ask(executor, 't1', 25);
      expect(!asked.ok && asked.pendingApproval?.params).toEqual({ orderId: 'o-t1', cents: 2500 });
      expect(await executor.resolveApproval(pendingId(asked), { approved: true })).toMatchObject({
        ok: true,
        value: { refunded: 2500 },
      });
      // Through the queue: approved in the API process, run on the worker.
      const queuedAsk = await queued.execute({ id: 't2', name: 'refund', arguments: { order_id: 'o', cents: 25 } });
      const result = await queued.resolveApproval(pendingId(queuedAsk), { approved: true, by: 'ops' });
      expect(result).toMatchObject({ ok: true, value: { refunded: 2500, by: 'ops' } });
      expect(runs.map((run) => run.value)).toEqual([2500, 2500]);
    } finally {
      await close();
    }
  });
});

describe('queue jobs: the values enqueued are the values run, once', () => {
  it('a @Transform runs once through the worker: 25 enqueued, 2,500 charged', async () => {
    const { queued, close } = setup();
    try {
      const result = await queued.execute({ id: 'c1', name: 'charge', arguments: { order_id: 'o-1', cents: 25 } });
      expect(result).toMatchObject({ ok: true, value: { charged: 2500 } });
      expect(runs).toEqual([{ tool: 'charge', jobId: 'c1', value: 2500 }]);
    } finally {
      await close();
    }
  });

  it('without a run ledger, a job put back after its run record was deleted runs again only until its signed expiry', async () => {
    const { queued, replay, close } = setup({ jobExpiryMs: 4_000 });
    try {
      expect(
        await queued.execute({ id: 'x1', name: 'charge', arguments: { order_id: 'o-1', cents: 1 } }),
      ).toMatchObject({ ok: true });
      const captured = (await Job.fromId<ToolJobData>(queued.queue, 'x1'))!;
      // Put back with its run record: refused as a replay.
      expect((await replay(captured, false)).failedReason).toBe(`${REFUSED_JOB_PREFIX}replayed`);
      // With the run record deleted too, it runs again: this is what the signed expiry bounds.
      expect((await replay(captured, true)).finishedOn).toBeDefined();
      expect(runs).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, captured.data.expiresAt - Date.now() + 200)));
      expect((await replay(captured, true)).failedReason).toBe(`${REFUSED_JOB_PREFIX}expired`);
      expect(runs).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it('with a run ledger outside Redis, a captured job never runs twice, even with its Redis keys deleted', async () => {
    const ledger = new MapRunLedger();
    const { queued, replay, close, logger } = setup({ runLedger: ledger });
    try {
      expect(
        await queued.execute({ id: 'l1', name: 'charge', arguments: { order_id: 'o-1', cents: 3 } }),
      ).toMatchObject({ ok: true, value: { charged: 300 } });
      const captured = (await Job.fromId<ToolJobData>(queued.queue, 'l1'))!;
      for (let attempt = 0; attempt < 5; attempt++) {
        const replayed = await replay(captured, true);
        expect(replayed.failedReason).toBe(`${REFUSED_JOB_PREFIX}replayed`);
      }
      expect(runs).toHaveLength(1);
      expect(ledger.claims.size).toBe(1);
      expect(logger.lines.filter((line) => line.includes('security: job l1'))).toHaveLength(5);
      expect([...ledger.claims.keys()][0]).toMatch(/^job:l1:/);
    } finally {
      await close();
    }
  });
});

describe('the run ledger still lets a retried attempt run', () => {
  it('a TIMEOUT attempt releases its claim; the retry runs; a replay afterwards does not', async () => {
    slowAttempts = 0;
    const ledger = new MapRunLedger();
    const { queued, replay, close } = setup({ runLedger: ledger });
    try {
      const result = await queued.execute({ id: 'r1', name: 'slow_once', arguments: { field: 'attempt' } });
      expect(result).toMatchObject({ ok: true, value: { attempt: 2 } });
      expect(ledger.claims.size).toBe(1);
      const captured = (await Job.fromId<ToolJobData>(queued.queue, 'r1'))!;
      expect((await replay(captured, true)).failedReason).toBe(`${REFUSED_JOB_PREFIX}replayed`);
      expect(runs.filter((run) => run.tool === 'slow_once')).toHaveLength(1);
    } finally {
      await close();
    }
  });
});

describe('a job serves one caller', () => {
  it('two users told apart by handlerConfig, no session id, same call id and arguments: each gets their own result', async () => {
    const { queued, close } = setup();
    try {
      const call = { id: 'call_0', name: 'account', arguments: { field: 'number' } };
      const alice = await queued.execute(call, { handlerConfig: { user: 'alice' } });
      const bob = await queued.execute(call, { handlerConfig: { user: 'bob' } });
      expect(alice).toMatchObject({ ok: true, value: { number: 'ACCT-alice' } });
      expect(bob).toMatchObject({ ok: true, value: { number: 'ACCT-bob' } });
      // Told apart by persona alone, too.
      const first = await queued.execute(call, { persona: { name: 'carol' } });
      const second = await queued.execute(call, { persona: { name: 'dave' } });
      expect(first).toMatchObject({ ok: true, value: { number: 'ACCT-carol' } });
      expect(second).toMatchObject({ ok: true, value: { number: 'ACCT-dave' } });
      expect(runs.map((run) => run.value)).toEqual(['alice', 'bob', 'carol', 'dave']);
      // The same caller repeating its call id still runs it once.
      expect(await queued.execute(call, { handlerConfig: { user: 'alice' } })).toMatchObject({
        value: { number: 'ACCT-alice' },
      });
      expect(runs).toHaveLength(4);
    } finally {
      await close();
    }
  });

  it('tool_job_status shows a job only to the caller that enqueued it (no session ids)', async () => {
    const { queued, close } = setup();
    try {
      const alice = { handlerConfig: { user: 'alice' } };
      const accepted = await queued.enqueue({ id: 'call_0', name: 'account', arguments: { field: 'n' } }, alice);
      if (!accepted.accepted) throw new Error('not accepted');
      await queued.result(accepted.jobId, 15_000);
      const status = (context: ExecutionContext) =>
        queued.execute({ id: 's', name: 'tool_job_status', arguments: { job_id: accepted.jobId } }, context);
      expect(await status(alice)).toMatchObject({
        ok: true,
        value: { status: 'completed', result: { n: 'ACCT-alice' } },
      });
      for (const other of [{ handlerConfig: { user: 'bob' } }, {}, { persona: { name: 'alice' } }]) {
        const answer = await status(other);
        expect(answer).toMatchObject({ ok: true, value: { status: 'unknown' } });
        expect(JSON.stringify(answer)).not.toContain('ACCT-alice');
      }
    } finally {
      await close();
    }
  });
});

describe('an approval covers one call on the worker too', () => {
  it('an approved agent job whose handler calls a gated tool with its own invocation.context is asked again', async () => {
    const { queued, close } = setup();
    try {
      const asked = await queued.execute({ id: 'a1', name: 'agent', arguments: { count: 2 } }, { sessionId: 's' });
      const result = await queued.resolveApproval(pendingId(asked), { approved: true, by: 'ops' });
      expect(result).toMatchObject({ ok: true, value: { tried: 2 } });
      expect(nested.map((outcome) => !outcome.ok && outcome.error.code)).toEqual([
        'APPROVAL_REQUIRED',
        'APPROVAL_REQUIRED',
      ]);
      expect(runs.filter((run) => run.tool === 'refund')).toEqual([]);
    } finally {
      await close();
    }
  });
});
