// `npm run bench:queue`: throughput and added latency of @toolwright/queue against the in-process executor, with 1, 2
// and 4 worker processes on a private redis-server (127.0.0.1, append-only file fsynced every second), then with 2
// workers on a private Redis Cluster (3 masters, 1 replica each), without and with `waitForReplicas`. Writes
// bench/results/queue.json and prints a markdown table.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PersonaToolExecutor, silentLogger, type ToolCall } from '@toolwright/core';
import { QueuedToolExecutor } from '@toolwright/queue';
import { benchRegistry, connection, replicaWait, SEALING_KEY } from './tools';

/** The cluster launcher the queue's cluster test uses (plain JavaScript, shared). */
const { RedisCluster } = require(
  join(__dirname, '..', '..', '..', 'packages', 'queue', 'test', 'fixtures', 'redis-cluster.js'),
) as {
  RedisCluster: {
    start(options: { masters: number }): Promise<{
      startupNodes: Array<{ port: number }>;
      destroy(): Promise<void>;
    }>;
  };
};

const LATENCY_CALLS = 300;
const THROUGHPUT_CALLS = 3_000;
const WORKER_COUNTS = [1, 2, 4];

const call = (id: string): ToolCall => ({
  id,
  name: 'record_order',
  arguments: `{"order_id": "${id}", "quantity": "3", "express": "yes", "tags": "[\\"a\\"]"}`,
});
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

interface Row {
  readonly setup: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly callsPerSecond: number;
}

async function measure(
  setup: string,
  run: (call: ToolCall) => Promise<unknown>,
  runAll: (calls: ToolCall[]) => Promise<unknown>,
): Promise<Row> {
  for (let index = 0; index < 50; index++) await run(call(`${setup}-warm-${index}`));
  const latencies: number[] = [];
  for (let index = 0; index < LATENCY_CALLS; index++) {
    const started = performance.now();
    await run(call(`${setup}-lat-${index}`));
    latencies.push(performance.now() - started);
  }
  const calls = Array.from({ length: THROUGHPUT_CALLS }, (_, index) => call(`${setup}-tp-${index}`));
  const started = performance.now();
  await runAll(calls);
  const seconds = (performance.now() - started) / 1000;
  return {
    setup,
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
    callsPerSecond: Math.round(THROUGHPUT_CALLS / seconds),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const redis = await startRedis();
  process.env.REDIS_PORT = String(redis.port);
  const rows: Row[] = [];
  try {
    const registry = benchRegistry();
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    rows.push(
      await measure(
        'in-process PersonaToolExecutor',
        (c) => executor.execute(c),
        (cs) => executor.executeAll(cs, {}, { concurrency: 64 }),
      ),
    );
    for (const count of WORKER_COUNTS)
      rows.push(
        await measureQueue(`QueuedToolExecutor, ${count} worker${count > 1 ? 's' : ''}`, `bench-${count}`, count),
      );
  } finally {
    await redis.stop();
  }
  const cluster = await RedisCluster.start({ masters: 3 });
  process.env.REDIS_CLUSTER_PORTS = cluster.startupNodes.map((node) => node.port).join(',');
  try {
    rows.push(await measureQueue('QueuedToolExecutor, 2 workers, Redis Cluster', 'bench-cluster', 2));
    process.env.WAIT_REPLICAS = '1:250';
    rows.push(
      await measureQueue('QueuedToolExecutor, 2 workers, Redis Cluster, waitForReplicas 1', 'bench-cluster-wait', 2),
    );
  } finally {
    delete process.env.REDIS_CLUSTER_PORTS;
    delete process.env.WAIT_REPLICAS;
    await cluster.destroy();
  }
  const baseline = rows[0]!;
  const table = [
    '| setup | latency p50 | latency p99 | added p50 | throughput (calls/s) |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.setup} | ${row.p50Ms.toFixed(3)} ms | ${row.p99Ms.toFixed(3)} ms | ${row === baseline ? '-' : `+${(row.p50Ms - baseline.p50Ms).toFixed(2)} ms`} | ${row.callsPerSecond} |`,
    ),
  ].join('\n');
  const report = {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    node: process.version,
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg(),
    latencyCalls: LATENCY_CALLS,
    throughputCalls: THROUGHPUT_CALLS,
    rows,
  };
  mkdirSync(join(__dirname, '..', '..', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', '..', 'results', 'queue.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `${table}\n\nload average ${loadAtStart.map((v) => v.toFixed(2)).join(' / ')} at the start, ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' / ')} at the end; ${cpus().length} cores\n`,
  );
}

/** `count` worker processes and a producer on `queueName` (single node or cluster, per the environment), measured. */
async function measureQueue(setup: string, queueName: string, count: number): Promise<Row> {
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(queueName)));
  const queuedRegistry = benchRegistry();
  const queued = new QueuedToolExecutor(
    new PersonaToolExecutor(queuedRegistry, { logger: silentLogger }),
    queuedRegistry,
    { connection: connection(), queueName, logger: silentLogger, sealingKey: SEALING_KEY, ...replicaWait() },
  );
  try {
    return await measure(
      setup,
      (c) => queued.execute(c),
      (cs) => queued.executeAll(cs),
    );
  } finally {
    await queued.close();
    await Promise.all(workers.map(stop));
  }
}

function startWorker(queueName: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, 'worker.js')], {
    env: { ...process.env, QUEUE_NAME: queueName },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function startRedis(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--dir',
      dir,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
