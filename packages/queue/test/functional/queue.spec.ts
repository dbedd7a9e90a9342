import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type ToolCall, type ToolResult } from '@toolwright/core';
import { Job } from 'bullmq';
import type Redis from 'ioredis';
import { ARGUMENTS_TEXT_OMITTED, JOB_STATUS_TOOL_NAME, QueuedToolExecutor, type ToolJobData } from '@toolwright/queue';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createToolTelemetry } from '@toolwright/core';
import { createToolWorker } from '@toolwright/queue';
import { RedisServer } from '../support/redis-server';
import { until, WorkerProcess } from '../support/workers';
const { registerTools } = require('../fixtures/tools.js') as {
  registerTools: (registry: ToolRegistry, client?: Redis) => ToolRegistry;
};

jest.setTimeout(120_000);

const SEALING_KEY = 'test sealing passphrase';
let redis: RedisServer;
let client: Redis;
const sharedClient = () => client;
let queueCount = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
  client = redis.client();
});

afterAll(async () => {
  client.disconnect();
  await redis.destroy();
});

/** A producer and its workers on a queue of their own (on `server`, default the shared Redis). */
async function setup(workerCount: number, env: Record<string, string> = {}, server: RedisServer = redis) {
  const client = server === redis ? sharedClient() : server.client();
  const queueName = `q${++queueCount}-${process.pid}`;
  const registry = registerTools(new ToolRegistry({ logger: silentLogger }));
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  const queued = new QueuedToolExecutor(executor, registry, {
    connection: server.connection,
    queueName,
    logger: silentLogger,
    sealingKey: SEALING_KEY,
  });
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () =>
      WorkerProcess.start({ REDIS_PORT: String(server.port), QUEUE_NAME: queueName, SEALING_KEY, ...env }),
    ),
  );
  const context = { sessionId: 'session-1', flowStepId: 'step-7', handlerConfig: { prefix: queueName } };
  const done = async () => client.lrange(`${queueName}:done`, 0, -1);
  const teardown = async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await queued.close();
    if (server !== redis) client.disconnect();
  };
  return { queueName, registry, queued, workers, context, done, teardown };
}

const call = (id: string, name: string, args: ToolCall['arguments']): ToolCall => ({ id, name, arguments: args });

describe('producer side: steps 1-6 here, invalid calls never reach Redis', () => {
  it('refuses invalid, unknown and malformed calls at once, with no job', async () => {
    const { queued, queueName, teardown } = await setup(0);
    try {
      const invalid = await queued.execute(call('c1', 'record_event', '{"event_id": "e1", "count": "many"}'), {
        handlerConfig: { prefix: queueName },
      });
      const unknown = await queued.execute(call('c2', 'no_such_tool', '{}'));
      const truncated = await queued.execute(call('c3', 'record_event', '{"event_id": "e1", "count": 2'));
      expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
      expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
      expect(truncated).toMatchObject({ ok: false, error: { code: 'MALFORMED_ARGUMENTS' } });
      const counts = await queued.queue.getJobCounts();
      expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(0);
      expect(await client.keys(`bull:${queueName}:c*`)).toEqual([]);
    } finally {
      await teardown();
    }
  });

  it('stores validated parameters without context fields, raw text or sensitive values in clear', async () => {
    const { queued, context, teardown } = await setup(0);
    try {
      const forged = await queued.enqueue(
        call('call_a', 'record_event', `{'event_id': 'e1', 'count': '3', 'session_id': 'forged'}`),
        context,
      );
      const secret = await queued.enqueue(
        call('call_b', 'store_secret', '{"label": "billing", "api_key": "sk-LIVE-0123456789", "session_id": "forged"}'),
        context,
      );
      if (!forged.accepted || !secret.accepted) throw new Error('expected both calls to be accepted');
      const stored = await client.hgetall(`bull:${queued.queue.name}:call_a`);
      const data = JSON.parse(stored.data!) as ToolJobData;
      expect(data.params).toEqual({ event_id: 'e1', count: 3 });
      expect(data.context).toEqual({
        sessionId: 'session-1',
        flowStepId: 'step-7',
        handlerConfig: { prefix: queued.queue.name },
      });
      expect(stored.data).not.toContain("'event_id'");
      expect(data.transformations.filter((t) => t.path === '')).toEqual(
        expect.arrayContaining([expect.objectContaining({ from: ARGUMENTS_TEXT_OMITTED, to: ARGUMENTS_TEXT_OMITTED })]),
      );
      expect(forged.transformations.map((t) => t.rule)).toEqual(expect.arrayContaining(['string-to-integer']));
      const secretData = JSON.parse((await client.hget(`bull:${queued.queue.name}:call_b`, 'data'))!) as ToolJobData;
      expect(secretData.params).toEqual({ label: 'billing', apiKey: '[redacted]' });
      expect(secretData.sealed).toMatch(/^v2\./);
      const secretJob = JSON.stringify(await client.hgetall(`bull:${queued.queue.name}:call_b`));
      expect(secretJob).not.toContain('sk-LIVE-0123456789');
      expect(secretJob).not.toContain('0123456789');
      expect(secretJob).toContain('[redacted]');
    } finally {
      await teardown();
    }
  });

  it('refuses a call with a sensitive value when no sealing key is configured', async () => {
    const registry = registerTools(new ToolRegistry({ logger: silentLogger }));
    const queued = new QueuedToolExecutor(new PersonaToolExecutor(registry, { logger: silentLogger }), registry, {
      connection: redis.connection,
      queueName: `nokey-${process.pid}`,
      logger: silentLogger,
      signingKey: 'a signing key, and no sealing key',
    });
    try {
      const result = await queued.execute(call('s1', 'store_secret', { label: 'x', apiKey: 'sk-secret' }), {});
      expect(result).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR', retryable: false } });
      expect(await queued.queue.count()).toBe(0);
    } finally {
      await queued.close();
    }
  });
});

describe('workers: results, exactly once, retries', () => {
  it('runs 1,000 calls across tools on two worker processes, each exactly once, with the trusted context', async () => {
    const { queued, context, done, workers, teardown } = await setup(2, { CONCURRENCY: '8' });
    try {
      const calls = Array.from({ length: 1000 }, (_, index) =>
        index % 2 === 0
          ? call(`batch-${index}`, 'record_event', { eventId: `e${index}`, count: String(index), session_id: 'forged' })
          : call(`batch-${index}`, 'add_numbers', `{"a": ${index}, "b": "1"}`),
      );
      const results = await queued.executeAll(calls, context);
      expect(results.filter((result) => !result.ok)).toEqual([]);
      results.forEach((result, index) => {
        if (!result.ok) return;
        const value = result.value as Record<string, unknown>;
        expect(value).toMatchObject({ session: 'session-1', flowStepId: 'step-7', jobId: `batch-${index}` });
        if (index % 2 === 0) expect(value).toMatchObject({ event_id: `e${index}`, count: index });
        else expect(value).toMatchObject({ sum: index + 1 });
      });
      const executions = await done();
      expect(executions).toHaveLength(1000);
      expect(new Set(executions).size).toBe(1000);
      const byWorker = new Set(results.map((result) => (result.ok ? (result.value as { worker: number }).worker : 0)));
      expect(byWorker).toEqual(new Set(workers.map((worker) => worker.pid)));
      expect(results[0]!.transformations.map((t) => t.rule)).toEqual(
        expect.arrayContaining(['key-case', 'string-to-integer']),
      );
    } finally {
      await teardown();
    }
  });

  it('runs a repeated call id once, and both callers get its result', async () => {
    const { queued, context, done, teardown } = await setup(1);
    try {
      const same = call('call_dup', 'add_numbers', '{"a": 2, "b": 3}');
      const [first, second] = await Promise.all([queued.execute(same, context), queued.execute(same, context)]);
      const third = await queued.execute(same, context);
      for (const result of [first, second, third]) expect(result).toMatchObject({ ok: true, value: { sum: 5 } });
      expect(await done()).toEqual(['call_dup']);
    } finally {
      await teardown();
    }
  });

  it('runs a call id reused by another session or with other arguments as a call of its own', async () => {
    const { queued, context, done, teardown } = await setup(1);
    try {
      const first = await queued.execute(call('call_0', 'add_numbers', { a: 1, b: 1 }), context);
      const otherSession = await queued.execute(call('call_0', 'add_numbers', { a: 1, b: 1 }), {
        ...context,
        sessionId: 'session-2',
      });
      const otherArguments = await queued.execute(call('call_0', 'add_numbers', { a: 5, b: 5 }), context);
      const repeatOfOtherSession = await queued.execute(call('call_0', 'add_numbers', { a: 1, b: 1 }), {
        ...context,
        sessionId: 'session-2',
      });
      expect(first).toMatchObject({ ok: true, value: { sum: 2, session: 'session-1', jobId: 'call_0' } });
      expect(otherSession).toMatchObject({
        ok: true,
        value: { sum: 2, session: 'session-2', jobId: expect.stringMatching(/^call_0\.[0-9a-f]{16}$/) },
      });
      expect(otherArguments).toMatchObject({ ok: true, value: { sum: 10, session: 'session-1' } });
      expect(repeatOfOtherSession).toEqual({ ...otherSession, durationMs: expect.any(Number) });
      expect(await done()).toHaveLength(3);
    } finally {
      await teardown();
    }
  });

  it('retries a handler timeout per the tool policy, and never retries a handler error', async () => {
    const { queued, queueName, context, teardown } = await setup(1);
    try {
      const flaky = await queued.execute(call('flaky-1', 'flaky_lookup', { key: 'k1' }), context);
      expect(flaky).toMatchObject({ ok: true, value: { key: 'k1', attempt: 2 } });
      expect((await queued.queue.getJob('flaky-1'))!.attemptsMade).toBe(2);

      const slow = await queued.execute(call('slow-1', 'always_slow', { key: 'k2' }), context);
      expect(slow).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      expect(await client.get(`${queueName}:attempt:k2`)).toBe('2');

      const exploded = await queued.execute(call('boom-1', 'explode', { key: 'k3' }), context);
      expect(exploded).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR' } });
      expect(JSON.stringify(exploded)).not.toContain('hunter2');
      expect(await client.get(`${queueName}:attempt:k3`)).toBe('1');

      const failed = await queued.failedJobs();
      expect(failed.map((job) => [job.jobId, job.tool, job.error.code, job.sessionId]).sort()).toEqual([
        ['boom-1', 'explode', 'HANDLER_ERROR', 'session-1'],
        ['slow-1', 'always_slow', 'TIMEOUT', 'session-1'],
      ]);
      expect(JSON.stringify(failed)).not.toContain('hunter2');
    } finally {
      await teardown();
    }
  });

  it('opens sealed sensitive values on the worker only', async () => {
    const { queued, context, teardown } = await setup(1);
    try {
      const result = await queued.execute(
        call('secret-1', 'store_secret', { label: 'billing', api_key: 'sk-LIVE-0123456789', session_id: 'forged' }),
        context,
      );
      expect(result).toMatchObject({
        ok: true,
        value: { label: 'billing', keyLength: 18, keyEnd: '6789', session: 'session-1', jobId: 'secret-1' },
      });
    } finally {
      await teardown();
    }
  });

  it('returns a pending handle for a long call, and the status tool gives its result to the same session only', async () => {
    const { queued, context, teardown } = await setup(1);
    try {
      const pending = await queued.execute(call('long-1', 'slow_task', { ms: 600 }), context, { waitMs: 50 });
      expect(pending).toMatchObject({ ok: true, value: { status: 'pending', job_id: 'long-1' } });
      const ask = (sessionId: string) =>
        queued.execute(call(`status-${sessionId}`, JOB_STATUS_TOOL_NAME, { job_id: 'long-1' }), {
          ...context,
          sessionId,
        });
      expect(await ask('intruder')).toMatchObject({ ok: true, value: { status: 'unknown' } });
      const finished = await queued.result('long-1', 10_000);
      expect(finished).toMatchObject({ ok: true, value: { ms: 600 } });
      expect(await ask('session-1')).toMatchObject({ ok: true, value: { status: 'completed', result: { ms: 600 } } });
    } finally {
      await teardown();
    }
  });
});

describe('faults', () => {
  it('retries the job of a worker killed mid-job (SIGKILL) on the other worker; nothing is lost', async () => {
    const { queued, queueName, context, done, workers, teardown } = await setup(2, {
      LOCK_MS: '1000',
      CONCURRENCY: '1',
    });
    try {
      const running = queued.execute(call('killed-1', 'slow_task', { ms: 1500 }), context);
      let started: string[] = [];
      await until(
        async () => (started = await client.lrange(`${queueName}:started`, 0, -1)).length === 1,
        10_000,
        'the job to start',
      );
      const pid = Number(started[0]!.split('@')[1]);
      const victim = workers.find((worker) => worker.pid === pid)!;
      await victim.kill();
      const result = await running;
      expect(result).toMatchObject({ ok: true, value: { ms: 1500 } });
      expect((result as Extract<ToolResult, { ok: true }>).value).toMatchObject({
        worker: workers.find((worker) => worker !== victim)!.pid,
      });
      expect(await done()).toEqual(['killed-1']);
      expect((await client.lrange(`${queueName}:started`, 0, -1)).length).toBe(2);
    } finally {
      await teardown();
    }
  });

  it('loses no accepted job when Redis is killed (SIGKILL) and restarted mid-run', async () => {
    const durable = await RedisServer.start('always');
    const { queued, context, done, teardown } = await setup(2, { CONCURRENCY: '2' }, durable);
    try {
      const accepted: string[] = [];
      for (let index = 0; index < 200; index++) {
        const result = await queued.enqueue(call(`restart-${index}`, 'slow_task', { ms: 20 }), context);
        if (result.accepted) accepted.push(result.jobId);
      }
      expect(accepted).toHaveLength(200);
      await until(async () => (await done()).length >= 20, 20_000, 'some jobs to finish');
      await durable.restart('SIGKILL');
      await until(
        async () => (await queued.queue.getCompletedCount().catch(() => 0)) === 200,
        60_000,
        'every job to complete after the restart',
      );
      const executions = await done();
      expect(new Set(executions)).toEqual(new Set(accepted));
    } finally {
      await teardown();
      await durable.destroy();
    }
  });

  it('a job BullMQ fails for stalling while its handler still runs gets the handler result, from its run record', async () => {
    // maxStalledCount 0: the first lost lock fails the job (what a failover plus a lock lost under load did with BullMQ's
    // default of 1). The first worker is paused mid-handler, so its lock expires and the second worker's stall check
    // fails the job without running it; then the first worker goes on, records its result, and the caller gets it.
    const env = { LOCK_MS: '1000', CONCURRENCY: '1', MAX_STALLED: '0' };
    const { queued, queueName, context, done, workers, teardown } = await setup(1, env);
    const [first] = workers;
    let second: WorkerProcess | undefined;
    try {
      const running = queued.execute(call('stalled-1', 'slow_task', { ms: 2_500 }), context, { waitMs: 60_000 });
      await until(async () => (await client.llen(`${queueName}:started`)) === 1, 10_000, 'the job to start');
      first!.child.kill('SIGSTOP');
      second = await WorkerProcess.start({
        REDIS_PORT: String(redis.port),
        QUEUE_NAME: queueName,
        SEALING_KEY,
        ...env,
      });
      await until(
        async () => (await queued.queue.getJobState('stalled-1')) === 'failed',
        20_000,
        'the stall to fail it',
      );
      expect((await queued.queue.getJob('stalled-1'))!.failedReason).toBe('job stalled more than allowable limit');
      first!.child.kill('SIGCONT');
      expect(await running).toMatchObject({ ok: true, value: { ms: 2_500, worker: first!.pid } });
      expect(await done()).toEqual(['stalled-1']);
    } finally {
      first!.child.kill('SIGCONT');
      await second?.stop();
      await teardown();
    }
  });

  it('a read that fails while Redis is unreachable is retried until the deadline, not taken for a missing job', async () => {
    const durable = await RedisServer.start('always');
    const registry = registerTools(new ToolRegistry({ logger: silentLogger }));
    const queueName = `offline-${process.pid}`;
    // enableOfflineQueue: false (BullMQ's advice for producers): a command sent while Redis is down fails at once.
    const queued = new QueuedToolExecutor(new PersonaToolExecutor(registry, { logger: silentLogger }), registry, {
      connection: { ...durable.connection, enableOfflineQueue: false },
      queueName,
      logger: silentLogger,
      sealingKey: SEALING_KEY,
    });
    let worker: WorkerProcess | undefined;
    try {
      const context = { sessionId: 'session-1', handlerConfig: { prefix: queueName } };
      const enqueued = await queued.enqueue(call('offline-1', 'slow_task', { ms: 10 }), context);
      expect(enqueued.accepted).toBe(true);
      await durable.stop();
      const reading = queued.result('offline-1', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await durable.restart();
      worker = await WorkerProcess.start({ REDIS_PORT: String(durable.port), QUEUE_NAME: queueName, SEALING_KEY });
      expect(await reading).toMatchObject({ ok: true, value: { ms: 10, worker: worker.pid } });
    } finally {
      await worker?.stop();
      await queued.close();
      await durable.destroy();
    }
  });

  it('a worker told to stop finishes its in-flight job first', async () => {
    const { queued, queueName, context, workers, teardown } = await setup(1);
    try {
      const running = queued.execute(call('graceful-1', 'slow_task', { ms: 800 }), context);
      await until(async () => (await client.llen(`${queueName}:started`)) === 1, 10_000, 'the job to start');
      expect(await workers[0]!.stop()).toBe(0);
      expect(await running).toMatchObject({ ok: true, value: { ms: 800 } });
      expect(workers[0]!.output.join('')).toContain(`closed ${workers[0]!.pid}`);
    } finally {
      await teardown();
    }
  });

  it('a worker whose in-flight job outlasts the shutdown timeout returns it to the queue, and another worker runs it', async () => {
    const { queued, queueName, context, workers, done, teardown } = await setup(1, {
      SHUTDOWN_MS: '300',
      CONCURRENCY: '1',
    });
    try {
      const running = queued.execute(call('returned-1', 'slow_task', { ms: 2_000 }), context);
      await until(async () => (await client.llen(`${queueName}:started`)) === 1, 10_000, 'the job to start');
      expect(await workers[0]!.stop()).toBe(0);
      expect(await queued.queue.getJobState('returned-1')).toBe('waiting');
      const second = await WorkerProcess.start({ REDIS_PORT: String(redis.port), QUEUE_NAME: queueName, SEALING_KEY });
      try {
        expect(await running).toMatchObject({ ok: true, value: { ms: 2_000, worker: second.pid } });
        expect(await done()).toEqual(['returned-1']);
        expect((await queued.queue.getJob('returned-1'))!.attemptsMade).toBe(1);
      } finally {
        await second.stop();
      }
    } finally {
      await teardown();
    }
  });
});

describe('job data', () => {
  it('is what Job.fromId reads back', async () => {
    const { queued, context, teardown } = await setup(0);
    try {
      await queued.enqueue(call('plain-1', 'add_numbers', { a: 1, b: 2 }), context);
      const job = await Job.fromId<ToolJobData>(queued.queue, 'plain-1');
      expect(job!.data).toMatchObject({ format: 2, callId: 'plain-1', tool: 'add_numbers', params: { a: 1, b: 2 } });
      expect(job!.name).toBe('add_numbers');
    } finally {
      await teardown();
    }
  });
});

describe('telemetry', () => {
  it("a worker's tool-call span carries the job id", async () => {
    const queueName = `telemetry-${process.pid}`;
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const producerRegistry = registerTools(new ToolRegistry({ logger: silentLogger }));
    const queued = new QueuedToolExecutor(
      new PersonaToolExecutor(producerRegistry, { logger: silentLogger }),
      producerRegistry,
      { connection: redis.connection, queueName, logger: silentLogger, sealingKey: SEALING_KEY },
    );
    const worker = createToolWorker(registerTools(new ToolRegistry({ logger: silentLogger }), client), {
      connection: redis.connection,
      queueName,
      logger: silentLogger,
      sealingKey: SEALING_KEY,
      executorOptions: { telemetry: createToolTelemetry({ tracerProvider })! },
    });
    try {
      const result = await queued.execute(call('traced-1', 'add_numbers', { a: 1, b: 2 }), {
        sessionId: 's',
        handlerConfig: { prefix: queueName },
      });
      expect(result).toMatchObject({ ok: true, value: { sum: 3 } });
      const [span] = spans.getFinishedSpans();
      expect(span!.attributes).toMatchObject({
        'toolwright.tool': 'add_numbers',
        'toolwright.call_id': 'traced-1',
        'toolwright.job_id': 'traced-1',
        'toolwright.outcome': 'ok',
      });
    } finally {
      await worker.close();
      await queued.close();
      await tracerProvider.shutdown();
    }
  });
});
