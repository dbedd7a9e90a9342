// The queue example: one API process (this one) and two worker processes on a Redis server.
// `node examples/queue-app` starts a private redis-server (the Debian/Ubuntu package) on a free 127.0.0.1 port unless
// REDIS_PORT is set, replays the demo's malformed calls through QueuedToolExecutor, runs a long report as a pending
// job, then stops everything. No network. Producer and workers share one key (SEALING_KEY, e.g. from a secret store;
// a random one per run here): it seals sensitive values and signs every job, so workers run only what this process sent.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PersonaToolExecutor, type ToolResult } from '@toolwright/core';
import { replayCalls } from '@toolwright/example-persona-app/commands';
import { JOB_STATUS_TOOL_NAME, QueuedToolExecutor } from '@toolwright/queue';
import { createQueueAppRegistry, redisConnection } from './tools';
import { stderrLogger } from './stderr-logger';

async function main(): Promise<number> {
  const redis = process.env.REDIS_PORT ? undefined : await startRedis();
  if (redis) process.env.REDIS_PORT = String(redis.port);
  process.env.QUEUE_NAME ??= `queue-app-${process.pid}`;
  process.env.SEALING_KEY ??= randomBytes(32).toString('base64');
  const workers = [await startWorker(), await startWorker()];
  const registry = createQueueAppRegistry();
  const queued = new QueuedToolExecutor(new PersonaToolExecutor(registry, { logger: stderrLogger }), registry, {
    connection: redisConnection(),
    queueName: process.env.QUEUE_NAME,
    logger: stderrLogger,
    sealingKey: process.env.SEALING_KEY,
    waitMs: 15_000,
  });
  let failures = 0;
  try {
    console.log(
      `API process ${process.pid}, workers ${workers.map((worker) => worker.pid).join(' and ')}, Redis on 127.0.0.1:${process.env.REDIS_PORT}\n`,
    );
    const outcomes = new Map<string, number>();
    for (const replay of replayCalls) {
      const result = await queued.execute(replay.call, replay.context);
      const where = result.ok
        ? `ran as job ${replay.call.id} on a worker`
        : 'refused in the API process (never reached Redis)';
      console.log(`${replay.title}\n  -> ${describe(result)}; ${where}`);
      const key = result.ok ? 'ok' : result.error.code;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    console.log(
      `\nreplayed ${replayCalls.length} calls: ${[...outcomes].map(([key, count]) => `${count} ${key}`).join(', ')}\n`,
    );

    const report = await queued.execute(
      { id: 'call_report', name: 'render_report', arguments: '{"topic": "Q3 results", "pages": "8"}' },
      { sessionId: 'session-42' },
      { waitMs: 100 },
    );
    console.log(`render_report, not waited for -> ${JSON.stringify(report.ok ? report.value : report.error)}`);
    const final = await queued.result('call_report', 15_000);
    const status = await queued.execute(
      { id: 'call_status', name: JOB_STATUS_TOOL_NAME, arguments: { job_id: 'call_report' } },
      { sessionId: 'session-42' },
    );
    console.log(`tool_job_status later -> ${JSON.stringify(status.ok ? status.value : status.error)}`);
    if (!final?.ok || !status.ok || (status.value as { status?: string }).status !== 'completed') failures++;
    if ((outcomes.get('ok') ?? 0) === 0) failures++;
  } finally {
    await queued.close();
    await Promise.all(workers.map(stop));
    await redis?.stop();
  }
  console.log(failures === 0 ? '\nqueue example: done' : '\nqueue example: FAILED');
  return failures === 0 ? 0 : 1;
}

function describe(result: ToolResult): string {
  if (result.ok) return `ok ${JSON.stringify(result.value)} (${result.transformations.length} transformations)`;
  return `${result.error.code}: ${result.error.message.split('\n')[0]}`;
}

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, 'worker.js')], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a worker did not start within 30 s')), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`a worker exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
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
  const dir = mkdtempSync(join(tmpdir(), 'queue-app-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dir],
    { stdio: 'ignore' },
  );
  child.once('error', (error) =>
    console.error(
      `redis-server could not start (${error.message}); install it (apt-get install redis-server) or set REDIS_PORT`,
    ),
  );
  const { Redis } = await import('ioredis');
  const probe = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await probe.connect();
      break;
    } catch (error) {
      if (attempt >= 100 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  probe.disconnect();
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
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
