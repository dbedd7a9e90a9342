import 'reflect-metadata';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type Logger, type ToolResult } from '@toolwright/core';
import { QueuedToolExecutor } from '@toolwright/queue';
import { Job } from 'bullmq';
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import { until, WorkerProcess } from '../support/workers';
const { registerTools } = require('../fixtures/tools.js') as {
  registerTools: (registry: ToolRegistry, client?: Redis) => ToolRegistry;
};
const { RedisCluster } = require('../fixtures/redis-cluster.js') as {
  RedisCluster: {
    start(options: { masters: number; nodeTimeoutMs: number }): Promise<RedisClusterHandle>;
  };
};

interface RedisClusterHandle {
  readonly startupNodes: Array<{ host: string; port: number }>;
  connect(): Cluster;
  node(port: number): Redis;
  shardOf(key: string): Promise<{ master: number; replicas: number[] }>;
  kill(port: number): Promise<void>;
  signal(port: number, signal: 'SIGSTOP' | 'SIGCONT'): void;
  untilHealthy(timeoutMs: number): Promise<void>;
  untilFailedOver(key: string, killed: number, timeoutMs: number): Promise<number>;
  destroy(): Promise<void>;
}

/**
 * A real Redis Cluster: 4 masters with 1 replica each (one shard for the queue, three for the loss measurement), cluster-node-timeout 1 s, all redis-server processes on
 * 127.0.0.1. Redis replicates asynchronously; these tests show what the queue promises through a failover
 * (at-least-once delivery, one handler run per job id) and measure what a failover loses without and with WAIT.
 */
const SEALING_KEY = 'cluster test sealing key';
const CALLS = 1_000;
const BATCH = 50;

let cluster: RedisClusterHandle;
let runDir: string;
const workers: WorkerProcess[] = [];
const clients: Array<{ disconnect(): void }> = [];
let queued: QueuedToolExecutor | undefined;

beforeAll(async () => {
  runDir = mkdtempSync(join(tmpdir(), 'toolwright-cluster-runs-'));
  cluster = await RedisCluster.start({ masters: 4, nodeTimeoutMs: 1_000 });
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await queued?.close().catch(() => undefined);
  for (const client of clients) client.disconnect();
  await cluster?.destroy();
  rmSync(runDir, { recursive: true, force: true });
}, 30_000);

function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const record = (message: string, details?: Record<string, unknown>) =>
    lines.push(details === undefined ? message : `${message} ${JSON.stringify(details)}`);
  return { lines, debug: () => undefined, info: record, warn: record, error: record };
}

it('keeps a queue in one slot; through a failover every accepted call completes and no handler runs twice', async () => {
  const queueName = `failover-${process.pid}`;
  const logger = recordingLogger();
  const connection = cluster.connect();
  clients.push(connection);
  const registry = registerTools(new ToolRegistry({ logger: silentLogger }));
  queued = new QueuedToolExecutor(new PersonaToolExecutor(registry, { logger: silentLogger }), registry, {
    connection,
    queueName,
    sealingKey: SEALING_KEY,
    logger,
    waitForReplicas: { replicas: 1, timeoutMs: 250 },
  });
  // One hash tag for every key of the queue: one slot, one master.
  expect(queued.queue.toKey('wait')).toBe(`{bull}:${queueName}:wait`);
  const { master: victim } = await cluster.shardOf(queued.queue.toKey('wait'));

  const runLogs = [join(runDir, 'worker-1.log'), join(runDir, 'worker-2.log')];
  for (const runLog of runLogs)
    workers.push(
      await WorkerProcess.start({
        REDIS_CLUSTER_PORTS: cluster.startupNodes.map((node) => node.port).join(','),
        QUEUE_NAME: queueName,
        SEALING_KEY,
        CONCURRENCY: '8',
        LOCK_MS: '2000',
        WAIT_REPLICAS: '1:250',
        RUN_LOG: runLog,
        WORKER_LOG: '1',
      }),
    );
  const runs = () =>
    runLogs.flatMap((runLog) => (existsSync(runLog) ? readFileSync(runLog, 'utf8').split('\n').filter(Boolean) : []));

  // Calls go in batches while the workers run them; the master of the queue's slot is killed after 200 runs.
  const context = { sessionId: 'session-1', handlerConfig: { prefix: queueName } };
  const accepted: Array<{ jobId: string; result: Promise<ToolResult | undefined> }> = [];
  let refused = 0;
  let killedAt: number | undefined;
  for (let start = 0; start < CALLS; start += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: BATCH }, (_, offset) =>
        queued!.enqueue({ id: `fo-${start + offset}`, name: 'slow_task', arguments: { ms: 10 } }, context),
      ),
    );
    for (const enqueued of batch) {
      if (enqueued.accepted) accepted.push({ jobId: enqueued.jobId, result: queued.result(enqueued.jobId, 90_000) });
      else refused++;
    }
    if (killedAt === undefined && runs().length >= 200) {
      killedAt = runs().length;
      await cluster.kill(victim);
    }
  }
  if (killedAt === undefined) {
    await until(() => runs().length >= 200, 30_000, '200 runs before the kill');
    killedAt = runs().length;
    await cluster.kill(victim);
  }
  expect(killedAt).toBeLessThan(CALLS * 0.8); // the kill came mid-run

  const results = await Promise.all(accepted.map((call) => call.result));
  // A call that failed comes with what the producer and the workers logged about its job, and the job as Redis has it.
  const workerLines = () => workers.flatMap((worker) => worker.output.join('').split('\n'));
  const mentions = (line: string, jobId: string) => new RegExp(`\\b${jobId}(?![\\w.-])`).test(line);
  const failures = await Promise.all(
    results.flatMap((result, index) => {
      if (result?.ok) return [];
      const { jobId } = accepted[index]!;
      return [
        (async () => {
          const job = await Job.fromId(queued!.queue, jobId).catch((error: unknown) => String(error));
          const state = typeof job === 'object' && job ? await job.getState().catch(String) : undefined;
          return {
            jobId,
            result,
            job:
              typeof job === 'object' && job
                ? {
                    state,
                    failedReason: job.failedReason,
                    attemptsMade: job.attemptsMade,
                    stalledCounter: job.stalledCounter,
                    stored: job.data.result,
                    returned: job.returnvalue !== null && job.returnvalue !== undefined,
                  }
                : job,
            producerLog: logger.lines.filter((line) => mentions(line, jobId)),
            workerLog: workerLines().filter((line) => mentions(line, jobId)),
            runs: runs().filter((line) => line === jobId).length,
          };
        })(),
      ];
    }),
  );
  expect(failures).toEqual([]);
  expect(accepted.length + refused).toBe(CALLS);
  expect(accepted.length).toBeGreaterThan(CALLS * 0.9);

  const ranPerJob = new Map<string, number>();
  for (const jobId of runs()) ranPerJob.set(jobId, (ranPerJob.get(jobId) ?? 0) + 1);
  expect([...ranPerJob].filter(([, count]) => count > 1)).toEqual([]);
  expect(new Set(ranPerJob.keys())).toEqual(new Set(accepted.map((call) => call.jobId)));

  // The replica took over the slot.
  expect(await cluster.untilFailedOver(queued.queue.toKey('wait'), victim, 20_000)).not.toBe(victim);

  const workerLog = workers.map((worker) => worker.output.join('')).join('\n');
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
  process.stderr.write(
    `cluster failover: ${accepted.length} accepted, ${refused} refused, killed after ${killedAt} runs; ` +
      `producer: ${count(logger.lines.join('\n'), /adding it again/g)} jobs added again, ` +
      `${count(logger.lines.join('\n'), /a failover now could lose it/g)} adds unconfirmed, ` +
      `${count(logger.lines.join('\n'), /its recorded result is used/g)} results read from the run record of a job BullMQ ended outside its handler; workers: ` +
      `${count(workerLog, /lost its lock \(stalled\)/g)} lost locks, ` +
      `${count(workerLog, /delivered again after its handler ran/g)} redeliveries answered from the run record, ` +
      `${count(workerLog, /while another delivery runs it/g)} deferred while another delivery ran, ` +
      `${count(workerLog, /refused before it ran: it already ran/g)} refused as replays\n`,
  );
}, 120_000);

it('measures what a failover loses, and how min-replicas-to-write and WAIT narrow it', async () => {
  await cluster.untilHealthy(20_000);
  const value = 'x'.repeat(512);
  /**
   * 8 writers push numbered 512-byte items to a shard's master; its replica stops reading (SIGSTOP) for 2.5 s, then the
   * master is killed and the replica resumes and takes over. Counts the acknowledged items the new master lacks.
   */
  const lossThroughFailover = async (tag: string, mode: 'plain' | 'min-replicas' | 'wait') => {
    const key = `{${tag}}:acknowledged`;
    const { master, replicas } = await cluster.shardOf(key);
    expect(replicas.length).toBe(1);
    const primary = cluster.node(master);
    clients.push(primary);
    if (mode === 'min-replicas') {
      await primary.config('SET', 'min-replicas-to-write', '1');
      await primary.config('SET', 'min-replicas-max-lag', '1');
    }
    const acknowledged: number[] = [];
    let refusedWrites = 0;
    let stopped = false;
    let next = 0;
    const writer = async () => {
      while (!stopped && next < 10_000_000) {
        const first = next;
        next += 20;
        const pipeline = primary.pipeline();
        for (let index = first; index < first + 20; index++) pipeline.rpush(key, `${index}:${value}`);
        if (mode === 'wait') pipeline.wait(1, 100);
        const replies = await pipeline.exec().catch(() => null);
        if (!replies) return;
        if (replies.some(([error]) => error)) {
          refusedWrites += 20; // NOREPLICAS under min-replicas-to-write
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        const confirmed = mode !== 'wait' || Number(replies[replies.length - 1]![1]) >= 1;
        if (confirmed) for (let index = first; index < first + 20; index++) acknowledged.push(index);
      }
    };
    const writing = Promise.all(Array.from({ length: 8 }, writer));
    await until(() => acknowledged.length >= 2_000, 30_000, 'writes before the pause');
    cluster.signal(replicas[0]!, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await cluster.kill(master);
    cluster.signal(replicas[0]!, 'SIGCONT');
    stopped = true;
    await writing;
    const promoted = cluster.node(await cluster.untilFailedOver(key, master, 30_000));
    clients.push(promoted);
    const kept = new Set((await promoted.lrange(key, 0, -1)).map((item) => item.split(':')[0]));
    const lost = acknowledged.filter((item) => !kept.has(String(item))).length;
    return { mode, acknowledged: acknowledged.length, lost, refusedWrites };
  };
  // Three shards that still have their replica (the first test's failover left one without).
  const tags: string[] = [];
  const masters = new Set<number>();
  for (let index = 0; tags.length < 3 && index < 1_000; index++) {
    const shard = await cluster.shardOf(`{loss-${index}}:acknowledged`);
    if (shard.replicas.length === 1 && !masters.has(shard.master)) {
      tags.push(`loss-${index}`);
      masters.add(shard.master);
    }
  }
  const plain = await lossThroughFailover(tags[0]!, 'plain');
  const minReplicas = await lossThroughFailover(tags[1]!, 'min-replicas');
  const waited = await lossThroughFailover(tags[2]!, 'wait');
  expect(waited.lost).toBe(0);
  expect(minReplicas.refusedWrites).toBeGreaterThan(0);
  process.stderr.write(
    `failover loss (replica paused 2.5 s, then the master killed): ${[plain, minReplicas, waited]
      .map(
        (run) =>
          `${run.mode}: ${run.lost} of ${run.acknowledged} acknowledged writes lost, ${run.refusedWrites} refused or failed`,
      )
      .join('; ')}\n`,
  );
}, 120_000);
