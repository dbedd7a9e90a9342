import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type ToolResult } from '@toolwright/core';
import type Redis from 'ioredis';
import { QueuedToolExecutor, RedisApprovalStore } from '@toolwright/queue';
import { RedisServer } from '../support/redis-server';
import { WorkerProcess } from '../support/workers';
const { registerTools } = require('../fixtures/tools.js') as {
  registerTools: (registry: ToolRegistry, client?: Redis) => ToolRegistry;
};

jest.setTimeout(120_000);

const SEALING_KEY = 'test sealing passphrase';
let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await RedisServer.start();
  client = redis.client();
});

afterAll(async () => {
  client.disconnect();
  await redis.destroy();
});

/** An API process: its own registry, executor, approval store (its own Redis client) and queue producer. */
function apiProcess(queueName: string, expiresInMs?: number) {
  const storeClient = redis.client();
  const registry = registerTools(new ToolRegistry({ logger: silentLogger }));
  const store = new RedisApprovalStore({ client: storeClient, sealingKey: SEALING_KEY, logger: silentLogger });
  const executor = new PersonaToolExecutor(registry, {
    logger: silentLogger,
    approvals: { store, ...(expiresInMs !== undefined ? { expiresInMs } : {}) },
  });
  const queued = new QueuedToolExecutor(executor, registry, {
    connection: redis.connection,
    queueName,
    logger: silentLogger,
    sealingKey: SEALING_KEY,
  });
  return {
    queued,
    close: async () => {
      await queued.close();
      storeClient.disconnect();
    },
  };
}

function pendingId(result: ToolResult): string {
  if (result.ok || result.pendingApproval === undefined) throw new Error(`not pending: ${JSON.stringify(result)}`);
  return result.pendingApproval.id;
}

describe('approvals with @toolwright/queue and the Redis approval store', () => {
  it('asks in the API process before anything is enqueued; approved from another process after a worker restart, it runs once', async () => {
    const queueName = `approval-${process.pid}`;
    const context = { sessionId: 'session-a', handlerConfig: { prefix: queueName } };
    const first = apiProcess(queueName);
    let worker = await WorkerProcess.start({ REDIS_PORT: String(redis.port), QUEUE_NAME: queueName, SEALING_KEY });
    try {
      const invalid = await first.queued.execute(
        { id: 'r0', name: 'issue_refund', arguments: '{"order_id": "o-1", "cents": 0}' },
        context,
      );
      expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
      const pending = await first.queued.execute(
        { id: 'r1', name: 'issue_refund', arguments: '{"order_id": "o-1", "cents": "1500"}' },
        context,
      );
      expect(pending).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_REQUIRED' },
        pendingApproval: { callId: 'r1', tool: 'issue_refund', params: { order_id: 'o-1', cents: 1500 } },
      });
      const id = pendingId(pending);
      const counts = await first.queued.queue.getJobCounts();
      expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(0);
      // Sealed in Redis: neither the parameters nor the session are readable there.
      const stored = await client.get(`toolwright:approval:${id}`);
      expect(stored).not.toBeNull();
      expect(stored).not.toContain('session-a');
      expect(stored).not.toContain('o-1');
      await first.close();

      // The worker restarts, and a second API process (which never saw the call) decides.
      expect(await worker.stop()).toBe(0);
      worker = await WorkerProcess.start({ REDIS_PORT: String(redis.port), QUEUE_NAME: queueName, SEALING_KEY });
      const second = apiProcess(queueName);
      try {
        const result = await second.queued.resolveApproval(id, { approved: true, by: 'manager@example.com' });
        expect(result).toMatchObject({
          ok: true,
          callId: 'r1',
          tool: 'issue_refund',
          value: {
            order_id: 'o-1',
            cents: 1500,
            session: 'session-a',
            worker: worker.pid,
            approvedBy: 'manager@example.com',
          },
          approval: { id, approved: true, by: 'manager@example.com' },
        });
        expect(await client.lrange(`${queueName}:done`, 0, -1)).toEqual(['r1']);
        const again = await second.queued.resolveApproval(id, { approved: true, by: 'manager@example.com' });
        expect(again).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
        expect(await client.lrange(`${queueName}:done`, 0, -1)).toEqual(['r1']);
      } finally {
        await second.close();
      }
    } finally {
      await worker.stop();
    }
  });

  it('refuses a tampered, expired or concurrently reused approval and runs nothing', async () => {
    const queueName = `approval-b-${process.pid}`;
    const context = { sessionId: 'session-b', handlerConfig: { prefix: queueName } };
    const api = apiProcess(queueName, 1_500);
    const worker = await WorkerProcess.start({ REDIS_PORT: String(redis.port), QUEUE_NAME: queueName, SEALING_KEY });
    try {
      const ask = async (id: string) =>
        pendingId(
          await api.queued.execute(
            { id, name: 'issue_refund', arguments: { order_id: `o-${id}`, cents: 100 } },
            context,
          ),
        );
      // Tampered: a field changed in Redis breaks the signature.
      const tampered = await ask('t1');
      const key = `toolwright:approval:${tampered}`;
      const record = JSON.parse((await client.get(key))!) as Record<string, unknown>;
      await client.set(key, JSON.stringify({ ...record, callId: 'other' }), 'KEEPTTL');
      expect(await api.queued.resolveApproval(tampered, { approved: true })).toMatchObject({
        error: { code: 'APPROVAL_NOT_FOUND' },
      });
      // Concurrent decisions on one id: one runs.
      const raced = await ask('t2');
      const results = await Promise.all(
        Array.from({ length: 8 }, () => api.queued.resolveApproval(raced, { approved: true, by: 'x' })),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      // Expired (1.5 s): Redis dropped it.
      const expired = await ask('t3');
      await new Promise((resolve) => setTimeout(resolve, 1_700));
      expect(await api.queued.resolveApproval(expired, { approved: true })).toMatchObject({
        error: { code: 'APPROVAL_NOT_FOUND' },
      });
      // A denial reaches nothing either.
      const denied = await ask('t4');
      expect(await api.queued.resolveApproval(denied, { approved: false, reason: 'no' })).toMatchObject({
        ok: false,
        callId: 't4',
        error: { code: 'APPROVAL_DENIED' },
      });
      expect(await client.lrange(`${queueName}:done`, 0, -1)).toEqual(['t2']);
    } finally {
      await worker.stop();
      await api.close();
    }
  });
});
