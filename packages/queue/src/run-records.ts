import type { ToolResult } from '@toolwright/core';

/**
 * Per-job records that keep a handler from running twice for one job id, beside BullMQ's own state: a claim (held
 * while a delivery runs the handler) and a run record (the result, once the handler has run; `settled` once BullMQ
 * completed or failed the job). They live under the queue's own prefix (one slot on a cluster) and expire with the job.
 *
 * Why beside BullMQ: Redis replicates asynchronously, so a failover can lose BullMQ's move of a job to `active` or
 * `completed` and deliver the job again. A redelivery finds the run record and gets the stored result; a job delivered
 * again after it settled (a replay) is refused.
 */

/** What a delivery of a job may do. */
export type RunStart =
  | { readonly kind: 'run' }
  | { readonly kind: 'ran'; readonly result: ToolResult }
  | { readonly kind: 'replayed' }
  | { readonly kind: 'busy'; readonly retryInMs: number };

/** The ioredis commands the records need (BullMQ's client passes them through to ioredis, single node or Cluster). */
interface RecordClient {
  eval(script: string, keyCount: number, ...keysAndArguments: Array<string | number>): Promise<unknown>;
  pipeline(): RecordPipeline;
}
interface RecordPipeline {
  eval(script: string, keyCount: number, ...keysAndArguments: Array<string | number>): RecordPipeline;
  wait(replicas: number, timeoutMs: number): RecordPipeline;
  exec(): Promise<Array<[Error | null, unknown]> | null>;
}

// KEYS: run record, claim. ARGV: token, claim ms, mac.
const BEGIN = `
local record = redis.call('HMGET', KEYS[1], 'settled', 'result', 'mac')
if record[1] then return {'replayed'} end
if record[2] then
  if record[3] ~= ARGV[3] then return {'replayed'} end
  return {'ran', record[2]}
end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return {'busy', tostring(redis.call('PTTL', KEYS[2]))} end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return {'run'}`;

// KEYS: run record, claim. ARGV: token, mac, result JSON, expire-at ms.
const FINISH = `
redis.call('HSET', KEYS[1], 'mac', ARGV[2], 'result', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

// KEYS: claim. ARGV: token, claim ms (0: release).
const HOLD = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '0' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;

// KEYS: run record.
const SETTLE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSET', KEYS[1], 'settled', '1')`;

/** How long a run record outlives its job's expiry (clock skew between producer and workers). */
const RECORD_MARGIN_MS = 10 * 60_000;

export class RunRecords {
  constructor(
    private readonly client: Promise<unknown>,
    /** `<prefix>:<queue>:toolwright`. */
    private readonly keyPrefix: string,
    private readonly claimMs: number,
    private readonly replicas: { readonly replicas: number; readonly timeoutMs: number } | undefined,
    /** Told when a write did not reach `replicas` replicas in time. */
    private readonly unconfirmed: (jobId: string, acknowledged: number) => void,
  ) {}

  /** Claims the job for this delivery (`token`), unless it ran already, settled, or another delivery holds it. */
  async begin(jobId: string, token: string, mac: string): Promise<RunStart> {
    const reply = (await this.write(
      jobId,
      BEGIN,
      [this.record(jobId), this.claim(jobId)],
      [token, this.claimMs, mac],
    )) as [string, string?];
    switch (reply[0]) {
      case 'run':
        return { kind: 'run' };
      case 'ran':
        return { kind: 'ran', result: JSON.parse(reply[1]!) as ToolResult };
      case 'busy':
        return { kind: 'busy', retryInMs: Math.max(100, Number(reply[1])) };
      default:
        return { kind: 'replayed' };
    }
  }

  /** The handler ran: its result is recorded (until the job expires) and the claim released. */
  async finish(jobId: string, token: string, mac: string, result: ToolResult, expiresAt: number): Promise<void> {
    await this.write(
      jobId,
      FINISH,
      [this.record(jobId), this.claim(jobId)],
      [token, mac, JSON.stringify(result), Math.max(expiresAt, Date.now()) + RECORD_MARGIN_MS],
    );
  }

  /** Keeps this delivery's claim alive while the handler runs. */
  async renew(jobId: string, token: string): Promise<void> {
    await this.command(HOLD, [this.claim(jobId)], [token, this.claimMs]);
  }

  /** Gives the claim up without a result (the attempt will be retried, or the job went back to the queue). */
  async release(jobId: string, token: string): Promise<void> {
    await this.command(HOLD, [this.claim(jobId)], [token, 0]);
  }

  /** BullMQ completed or failed the job for good: any later delivery is a replay. */
  async settle(jobId: string): Promise<void> {
    await this.command(SETTLE, [this.record(jobId)], []);
  }

  private record(jobId: string): string {
    return `${this.keyPrefix}:run:${jobId}`;
  }

  private claim(jobId: string): string {
    return `${this.keyPrefix}:claim:${jobId}`;
  }

  private async command(script: string, keys: string[], args: Array<string | number>): Promise<unknown> {
    const client = (await this.client) as RecordClient;
    return client.eval(script, keys.length, ...keys, ...args);
  }

  /** A script whose writes a later delivery depends on: with `waitForReplicas`, followed by WAIT on the same connection. */
  private async write(jobId: string, script: string, keys: string[], args: Array<string | number>): Promise<unknown> {
    if (this.replicas === undefined) return this.command(script, keys, args);
    const client = (await this.client) as RecordClient;
    const replies = await client
      .pipeline()
      .eval(script, keys.length, ...keys, ...args)
      .wait(this.replicas.replicas, this.replicas.timeoutMs)
      .exec();
    const [scriptReply, waitReply] = replies ?? [];
    if (!scriptReply || scriptReply[0]) throw scriptReply?.[0] ?? new Error('the pipeline returned nothing');
    const acknowledged = waitReply && !waitReply[0] ? Number(waitReply[1]) : 0;
    if (acknowledged < this.replicas.replicas) this.unconfirmed(jobId, acknowledged);
    return scriptReply[1];
  }
}
