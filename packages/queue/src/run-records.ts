import type { ToolResult } from '@toolwright/core';
import type { ReplicationBarrier } from './replication-barrier';
import { retryUntil } from './retry';

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

/**
 * What the records say about a job, for a caller whose job BullMQ ended without the handler's outcome: the handler's
 * result (`ran`), a delivery that still holds the claim (`running`: its result is recorded when it finishes), or `none`.
 */
export type RunOutcome =
  { readonly kind: 'ran'; readonly result: ToolResult } | { readonly kind: 'running' } | { readonly kind: 'none' };

/** The ioredis commands the records need (BullMQ's client passes them through to ioredis, single node or Cluster). */
interface RecordClient {
  eval(script: string, keyCount: number, ...keysAndArguments: Array<string | number>): Promise<unknown>;
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

// KEYS: run record, claim. ARGV: mac.
const READ = `
local record = redis.call('HMGET', KEYS[1], 'result', 'mac')
if record[1] and record[2] == ARGV[1] then return {'ran', record[1]} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'running'} end
return {'none'}`;

/** How long a run record outlives its job's expiry (clock skew between producer and workers). */
const RECORD_MARGIN_MS = 10 * 60_000;

/** `<prefix>:<queue>:toolwright` is the records' key prefix (the queue's slot on a cluster). */
function recordKey(keyPrefix: string, jobId: string): string {
  return `${keyPrefix}:run:${jobId}`;
}

function claimKey(keyPrefix: string, jobId: string): string {
  return `${keyPrefix}:claim:${jobId}`;
}

async function evaluate(client: Promise<unknown>, script: string, keys: string[], args: Array<string | number>) {
  return ((await client) as RecordClient).eval(script, keys.length, ...keys, ...args);
}

/** The records of job `jobId` whose signature MAC is `mac` (a record of another job with the same id is not its). */
export async function readRunRecord(
  client: Promise<unknown>,
  keyPrefix: string,
  jobId: string,
  mac: string,
): Promise<RunOutcome> {
  const reply = (await evaluate(client, READ, [recordKey(keyPrefix, jobId), claimKey(keyPrefix, jobId)], [mac])) as [
    string,
    string?,
  ];
  if (reply[0] === 'ran') return { kind: 'ran', result: JSON.parse(reply[1]!) as ToolResult };
  return { kind: reply[0] === 'running' ? 'running' : 'none' };
}

export class RunRecords {
  constructor(
    private readonly client: Promise<unknown>,
    /** `<prefix>:<queue>:toolwright`. */
    private readonly keyPrefix: string,
    private readonly claimMs: number,
    /** With `waitForReplicas`: confirms the claim and the result record on replicas. */
    private readonly barrier: { readonly barrier: ReplicationBarrier; readonly replicas: number } | undefined,
    /** Told when a write did not reach the replicas in time. */
    private readonly unconfirmed: (jobId: string, acknowledged: number) => void,
  ) {}

  /** Claims the job for this delivery (`token`), unless it ran already, settled, or another delivery holds it. */
  async begin(jobId: string, token: string, mac: string): Promise<RunStart> {
    const keys = [this.record(jobId), this.claim(jobId)];
    const args = [token, this.claimMs, mac];
    const first = await this.write(jobId, BEGIN, keys, args);
    // A claim no replica confirmed may be lost in a failover: claim again, on whichever master serves the slot now
    // (this delivery re-takes its own claim; another delivery's claim makes this one wait).
    const reply = (
      !first.confirmed && (first.reply as string[])[0] === 'run' ? await this.command(BEGIN, keys, args) : first.reply
    ) as [string, string?];
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

  /** Keeps this delivery's claim alive while the handler runs (not retried: the next renewal tries again). */
  async renew(jobId: string, token: string): Promise<void> {
    await evaluate(this.client, HOLD, [this.claim(jobId)], [token, this.claimMs]);
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
    return recordKey(this.keyPrefix, jobId);
  }

  private claim(jobId: string): string {
    return claimKey(this.keyPrefix, jobId);
  }

  /**
   * A record script, retried (src/retry.ts) for as long as a claim lasts: an error in a failover is no reason to end
   * the job, and a claim that could not be written is no longer held by then anyway.
   */
  private async command(script: string, keys: string[], args: Array<string | number>): Promise<unknown> {
    return retryUntil(() => evaluate(this.client, script, keys, args), performance.now() + this.claimMs);
  }

  /** A script whose writes a later delivery depends on: with `waitForReplicas`, confirmed on replicas. */
  private async write(
    jobId: string,
    script: string,
    keys: string[],
    args: Array<string | number>,
  ): Promise<{ reply: unknown; confirmed: boolean }> {
    const reply = await this.command(script, keys, args);
    if (this.barrier === undefined) return { reply, confirmed: true };
    const acknowledged = await this.barrier.barrier.confirm().catch(() => 0);
    if (acknowledged >= this.barrier.replicas) return { reply, confirmed: true };
    this.unconfirmed(jobId, acknowledged);
    return { reply, confirmed: false };
  }
}
