import 'reflect-metadata';
import {
  Command,
  DefinitionError,
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ExecutionContext,
  type Logger,
  type ToolInvocationContext,
} from '@toolwright/core';
import {
  createToolWorker,
  QueuedToolExecutor,
  REFUSED_JOB_PREFIX,
  type QueueConnectionOptions,
  type ToolJobData,
  type ToolWorker,
} from '@toolwright/queue';
import { Job } from 'bullmq';
import type Redis from 'ioredis';
import { RedisServer } from '../support/redis-server';
import { until } from '../support/workers';

jest.setTimeout(60_000);

/** The audit's attacks on jobs in Redis (issue 28), against a real redis-server and a real worker. */

interface Run {
  readonly tool: string;
  readonly jobId: string;
  readonly session?: string;
  readonly apiKey?: string;
  readonly persona?: unknown;
}

/** What handlers ran, in this process (the worker runs here, so the test sees every execution). */
const runs: Run[] = [];

class PayParams {
  @ToolParam({ description: 'Amount in cents', type: 'int' }) amount!: number;
  @ToolParam({ description: 'The payment provider key', sensitive: true }) apiKey!: string;
  @FromContext('session_id') sessionId?: string;
}
@Command({ name: 'pay', description: 'Pay with the caller key', params: PayParams })
class Pay {
  execute(params: PayParams, invocation: ToolInvocationContext) {
    runs.push({
      tool: 'pay',
      jobId: String(invocation.context.jobId),
      session: params.sessionId,
      apiKey: params.apiKey,
    });
    return { paid: params.amount };
  }
}

class WipeParams {
  @ToolParam({ description: 'What to wipe' }) target!: string;
}
@Command({ name: 'wipe', description: 'Wipe data (admins only)', params: WipeParams, permissions: ['admin'] })
class Wipe {
  execute(params: WipeParams, invocation: ToolInvocationContext) {
    runs.push({ tool: 'wipe', jobId: String(invocation.context.jobId), persona: invocation.context.persona });
    return { wiped: params.target };
  }
}

class NoteParams {
  @ToolParam({ description: 'The note' }) target!: string;
}
@Command({ name: 'note', description: 'Write a note', params: NoteParams })
class Note {
  execute(params: NoteParams, invocation: ToolInvocationContext) {
    runs.push({ tool: 'note', jobId: String(invocation.context.jobId), session: invocation.context.sessionId });
    return { noted: params.target };
  }
}

const registry = () => {
  const tools = new ToolRegistry({ logger: silentLogger });
  for (const command of [Pay, Wipe, Note]) tools.register(command);
  return tools;
};

/** A logger that keeps every line (message and details, as JSON) to check what was reported and what was not echoed. */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string, details?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(details ?? {})}`);
  return { lines, debug: () => undefined, info: record('info'), warn: record('warn'), error: record('error') };
}

const SEALING_KEY = 'queue authentication test key';
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
});

type Keys = Pick<
  QueueConnectionOptions,
  'sealingKey' | 'signingKey' | 'previousSigningKeys' | 'allowUnauthenticatedJobs'
>;

/** A producer on a queue of its own; workers start later, after the jobs were tampered with. */
function producer(keys: Keys = { sealingKey: SEALING_KEY }, extra: { jobExpiryMs?: number } = {}) {
  const queueName = `auth${++queueCount}-${process.pid}`;
  const tools = registry();
  const queued = new QueuedToolExecutor(new PersonaToolExecutor(tools, { logger: silentLogger }), tools, {
    connection: redis.connection,
    queueName,
    logger: silentLogger,
    waitMs: 0,
    ...keys,
    ...extra,
  });
  const workers: ToolWorker[] = [];
  const logger = recordingLogger();
  const startWorker = (workerKeys: Keys = { sealingKey: SEALING_KEY }) => {
    const worker = createToolWorker(registry(), {
      connection: redis.connection,
      queueName,
      logger,
      ...workerKeys,
    });
    workers.push(worker);
    return worker;
  };
  const enqueue = async (id: string, tool: string, args: Record<string, unknown>, context: ExecutionContext) => {
    const result = await queued.enqueue({ id, name: tool, arguments: args }, context);
    if (!result.accepted) throw new Error(`expected ${id} to be accepted: ${JSON.stringify(result.result)}`);
    return result.jobId;
  };
  const jobKey = (jobId: string) => `bull:${queueName}:${jobId}`;
  const readData = async (jobId: string) => JSON.parse((await client.hget(jobKey(jobId), 'data'))!) as ToolJobData;
  const writeData = async (jobId: string, data: unknown) => client.hset(jobKey(jobId), 'data', JSON.stringify(data));
  const settled = (jobIds: readonly string[]) =>
    until(
      async () => {
        const states = await Promise.all(jobIds.map((jobId) => queued.queue.getJobState(jobId)));
        return states.every((state) => state === 'completed' || state === 'failed');
      },
      20_000,
      `jobs ${jobIds.join(', ')} to settle`,
    );
  const failedReason = async (jobId: string) => (await Job.fromId(queued.queue, jobId))?.failedReason;
  const close = async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await queued.close();
  };
  return { queued, queueName, logger, startWorker, enqueue, readData, writeData, settled, failedReason, close };
}

const victim = { sessionId: 'victim-session', persona: { name: 'customer' } };
const attacker = { sessionId: 'attacker-session', persona: { name: 'customer' } };

describe('tampered jobs never run: they go to the failed set with a reason and a security event', () => {
  it("moved sealed payload, edited tool, context, persona, handler config, removed seal, another job's id", async () => {
    const setup = producer();
    try {
      const payVictim = await setup.enqueue('pay-victim', 'pay', { amount: 100, api_key: 'sk-VICTIM-0001' }, victim);
      const payAttacker = await setup.enqueue('pay-attacker', 'pay', { amount: 1, api_key: 'sk-ATTACKER' }, attacker);
      const noteToWipe = await setup.enqueue('note-1', 'note', { target: 'x' }, attacker);
      const noteSession = await setup.enqueue('note-2', 'note', { target: 'y' }, attacker);
      const noteConfig = await setup.enqueue('note-3', 'note', { target: 'z' }, attacker);
      const removedSeal = await setup.enqueue('pay-2', 'pay', { amount: 5, api_key: 'sk-VICTIM-0002' }, victim);
      const untouched = await setup.enqueue('note-ok', 'note', { target: 'fine' }, attacker);
      const moved = await setup.enqueue('note-4', 'note', { target: 'w' }, attacker);

      // 1. The victim's sealed API key moved into the attacker's own job.
      const victimData = await setup.readData(payVictim);
      await setup.writeData(payAttacker, { ...(await setup.readData(payAttacker)), sealed: victimData.sealed });
      // 2. A note job turned into the admin-only wipe, with an admin persona.
      const wipe = await setup.readData(noteToWipe);
      await setup.writeData(noteToWipe, {
        ...wipe,
        tool: 'wipe',
        params: { target: 'everything' },
        context: { ...wipe.context, persona: { name: 'customer', permissions: ['admin'] } },
      });
      await client.hset(`bull:${setup.queueName}:${noteToWipe}`, 'name', 'wipe');
      // 3. Another job's session, and a handler config.
      const session = await setup.readData(noteSession);
      await setup.writeData(noteSession, { ...session, context: { ...session.context, sessionId: 'victim-session' } });
      const config = await setup.readData(noteConfig);
      await setup.writeData(noteConfig, { ...config, context: { ...config.context, handlerConfig: { admin: true } } });
      // 4. The sealed payload deleted (the audit's job ran with apiKey "[redacted]").
      const { sealed: _sealed, ...withoutSeal } = await setup.readData(removedSeal);
      await setup.writeData(removedSeal, withoutSeal);
      // 5. The victim's whole envelope, signature and all, moved to another job id.
      await setup.writeData(moved, victimData);
      await client.hset(`bull:${setup.queueName}:${moved}`, 'name', 'pay');

      setup.startWorker();
      const tampered = [payAttacker, noteToWipe, noteSession, noteConfig, removedSeal, moved];
      await setup.settled([payVictim, ...tampered, untouched]);

      expect(runs.map((run) => run.jobId).sort()).toEqual([payVictim, untouched].sort());
      expect(runs.find((run) => run.jobId === payVictim)).toMatchObject({
        apiKey: 'sk-VICTIM-0001',
        session: 'victim-session',
      });
      expect(runs.some((run) => run.tool === 'wipe')).toBe(false);
      for (const jobId of tampered) {
        expect(await setup.queued.queue.getJobState(jobId)).toBe('failed');
        expect(await setup.failedReason(jobId)).toBe(`${REFUSED_JOB_PREFIX}bad-signature`);
      }
      const security = setup.logger.lines.filter((line) => line.includes('security:'));
      expect(security).toHaveLength(tampered.length);
      for (const jobId of tampered) expect(security.some((line) => line.includes(`job ${jobId} `))).toBe(true);
      const logged = setup.logger.lines.join('\n');
      for (const echoed of ['sk-VICTIM', 'sk-ATTACKER', 'everything', 'admin', 'victim-session', victimData.sealed!])
        expect(logged).not.toContain(echoed);
      const deadLetters = await setup.queued.failedJobs();
      expect(
        deadLetters
          .filter((job) => job.refused === 'bad-signature')
          .map((job) => job.jobId)
          .sort(),
      ).toEqual([...tampered].sort());
      expect(JSON.stringify(deadLetters)).not.toContain('sk-');
    } finally {
      await setup.close();
    }
  });

  it('a replay of a completed job is refused, and its handler ran once', async () => {
    const setup = producer();
    try {
      const jobId = await setup.enqueue('pay-once', 'pay', { amount: 7, api_key: 'sk-VICTIM-0003' }, victim);
      setup.startWorker();
      await setup.settled([jobId]);
      expect(await setup.queued.queue.getJobState(jobId)).toBe('completed');
      // Someone with Redis write access puts the captured job back (same id, data and options) through BullMQ itself.
      const captured = (await Job.fromId<ToolJobData>(setup.queued.queue, jobId))!;
      await captured.remove();
      await setup.queued.queue.add(captured.name, captured.data, captured.opts);
      await until(
        async () => (await setup.queued.queue.getJobState(jobId)) === 'failed',
        20_000,
        'the replay to be refused',
      );
      expect(runs.filter((run) => run.jobId === jobId)).toHaveLength(1);
      expect(await setup.failedReason(jobId)).toBe(`${REFUSED_JOB_PREFIX}replayed`);
      expect(setup.logger.lines.filter((line) => line.includes('security:'))).toEqual([
        expect.stringContaining(`job ${jobId} of queue ${setup.queueName} was refused before it ran: it already ran`),
      ]);
    } finally {
      await setup.close();
    }
  });

  it('an expired job is refused', async () => {
    const setup = producer({ sealingKey: SEALING_KEY }, { jobExpiryMs: 100 });
    try {
      const jobId = await setup.enqueue('late-1', 'note', { target: 'late' }, attacker);
      await new Promise((resolve) => setTimeout(resolve, 250));
      setup.startWorker();
      await setup.settled([jobId]);
      expect(runs).toEqual([]);
      expect(await setup.failedReason(jobId)).toBe(`${REFUSED_JOB_PREFIX}expired`);
    } finally {
      await setup.close();
    }
  });

  it('a job signed with a key the worker does not have is refused; rotation with previousSigningKeys works', async () => {
    const oldKey = { id: 'signing-2026-10', secret: 'the October signing key' };
    const newKey = { id: 'signing-2026-11', secret: 'the November signing key' };
    const setup = producer({ sealingKey: SEALING_KEY, signingKey: oldKey });
    try {
      const before = await setup.enqueue('rotate-1', 'note', { target: 'signed with the old key' }, attacker);
      const stranger = await setup.enqueue('rotate-2', 'note', { target: 'signed with the old key' }, attacker);
      const data = await setup.readData(stranger);
      await setup.writeData(stranger, { ...data, signature: { ...data.signature!, keyId: 'signing-2026-12' } });
      // The workers moved to the new key and still accept the old one while old jobs drain.
      setup.startWorker({ sealingKey: SEALING_KEY, signingKey: newKey, previousSigningKeys: [oldKey] });
      await setup.settled([before, stranger]);
      expect(runs.map((run) => run.jobId)).toEqual([before]);
      expect(await setup.failedReason(stranger)).toBe(`${REFUSED_JOB_PREFIX}unknown-key`);
    } finally {
      await setup.close();
    }
    // A worker that dropped the old key refuses what it signed.
    const late = producer({ sealingKey: SEALING_KEY, signingKey: oldKey });
    try {
      const jobId = await late.enqueue('rotate-3', 'note', { target: 'old' }, attacker);
      late.startWorker({ sealingKey: SEALING_KEY, signingKey: newKey });
      await late.settled([jobId]);
      expect(await late.failedReason(jobId)).toBe(`${REFUSED_JOB_PREFIX}unknown-key`);
    } finally {
      await late.close();
    }
  });
});

describe('keys are required unless the application opts out', () => {
  it('producer and worker refuse to start with neither key (a DefinitionError naming the fix)', () => {
    const tools = registry();
    const options = { connection: redis.connection, queueName: `nokey-${process.pid}`, logger: silentLogger };
    expect(() => new QueuedToolExecutor(new PersonaToolExecutor(tools), tools, options)).toThrow(DefinitionError);
    expect(() => new QueuedToolExecutor(new PersonaToolExecutor(tools), tools, options)).toThrow(/sealingKey/);
    expect(() => createToolWorker(registry(), options)).toThrow(DefinitionError);
  });

  it('with allowUnauthenticatedJobs and no key, jobs go unsigned; a worker that opts out runs unsigned jobs', async () => {
    const setup = producer({ allowUnauthenticatedJobs: true });
    try {
      const jobId = await setup.enqueue('open-1', 'note', { target: 'unsigned' }, attacker);
      expect((await setup.readData(jobId)).signature).toBeUndefined();
      setup.startWorker({ allowUnauthenticatedJobs: true });
      await setup.settled([jobId]);
      expect(runs.map((run) => run.jobId)).toEqual([jobId]);
    } finally {
      await setup.close();
    }
  });

  it('a worker that runs unsigned jobs still cannot open a sealed payload moved to another job', async () => {
    const setup = producer();
    try {
      const payVictim = await setup.enqueue('open-victim', 'pay', { amount: 100, api_key: 'sk-VICTIM-0004' }, victim);
      const payAttacker = await setup.enqueue('open-attacker', 'pay', { amount: 1, api_key: 'sk-ATTACKER' }, attacker);
      const victimData = await setup.readData(payVictim);
      const { signature: _signature, ...unsigned } = await setup.readData(payAttacker);
      await setup.writeData(payAttacker, { ...unsigned, sealed: victimData.sealed });
      setup.startWorker({ sealingKey: SEALING_KEY, allowUnauthenticatedJobs: true });
      await setup.settled([payVictim, payAttacker]);
      expect(runs.map((run) => [run.jobId, run.apiKey])).toEqual([[payVictim, 'sk-VICTIM-0004']]);
      expect(await setup.queued.queue.getJobState(payAttacker)).toBe('failed');
      expect(setup.logger.lines.join('\n')).toContain('the sealed values could not be opened');
    } finally {
      await setup.close();
    }
  });
});
