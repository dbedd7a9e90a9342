import type { ApprovalStore, Logger, StoredApproval, Transformation } from '@toolwright/core';
import { defaultLogger } from '@toolwright/core';
import { contextForJob, queuedContext, type QueuedContext } from './job-data';
import { requiredKeyRing } from './options';
import { open, seal, sealBinding, type SealingKey } from './sealing';
import { signEnvelope, verifyEnvelope, type JobSignature, type SigningKey, type SigningKeyRing } from './signing';

/** The Redis commands the store uses (an ioredis `Redis` or `Cluster` client has them: every command touches one key). */
export interface ApprovalRedisClient {
  set(key: string, value: string, expiry: 'PX', milliseconds: number, mode: 'NX'): Promise<'OK' | null>;
  get(key: string): Promise<string | null>;
  getdel(key: string): Promise<string | null>;
}

export interface RedisApprovalStoreOptions {
  /** An ioredis client (`new Redis(...)` or a `Cluster`), shared by every process that files or decides approvals. */
  readonly client: ApprovalRedisClient;
  /**
   * Seals each approval's parameters and trusted context (AES-256-GCM), as a job's sensitive values are: 32 bytes or a
   * passphrase. Required: an approval holds validated parameters and trusted context. Unless `signingKey` is given, it
   * also signs each record (a key derived with HKDF-SHA-256, as for jobs).
   */
  readonly sealingKey: SealingKey;
  /** Signs each record (HMAC-SHA-256), as jobs are signed. Default: derived from `sealingKey`. */
  readonly signingKey?: SigningKey;
  /** Keys that still verify (never sign), for a rotation. */
  readonly previousSigningKeys?: readonly SigningKey[];
  /** Key prefix. Default `toolwright:approval` (the key is `<prefix>:<approval id>`). */
  readonly prefix?: string;
  readonly logger?: Logger;
}

/** One approval as Redis holds it: what a person may see in clear, the rest sealed; signed as a whole. */
interface ApprovalRecord {
  readonly format: 1;
  readonly id: string;
  readonly callId: string;
  readonly tool: string;
  readonly reason?: string;
  readonly requestedAt: number;
  readonly expiresAt: number;
  /** `{ params, context, transformations }` as JSON, sealed and bound to the approval id and tool. */
  readonly sealed: string;
  readonly signature: JobSignature;
}

interface SealedPart {
  readonly params: Record<string, unknown>;
  /** The values the parameters were built from (`StoredApproval.input`); absent in records of older versions. */
  readonly input?: Record<string, unknown>;
  readonly context: QueuedContext;
  readonly transformations: readonly Transformation[];
}

/** A decided approval, as its tombstone holds it (signed like a record). */
interface Tombstone {
  readonly format: 1;
  readonly id: string;
  readonly decidedAt: number;
  /** The decided record's own signed expiry: after it, a copy of the record is refused by that alone. */
  readonly expiresAt: number;
}

/** How long a tombstone outlives its record's expiry (clock skew between the processes that read it). */
const TOMBSTONE_MARGIN_MS = 10 * 60_000;

/**
 * Pending approvals in Redis, for `PersonaToolExecutor`'s and `QueuedToolExecutor`'s `approvals.store`: an approval
 * survives a restart and can be decided from another process. Each record is sealed (parameters, trusted context and
 * transformations, AES-256-GCM bound to the approval id and tool) and signed (HMAC-SHA-256 with the job signing keys),
 * and carries a signed expiry (`approvals.expiresInMs`), after which it is refused whatever Redis holds.
 *
 * Single use across restarts and replicas: deciding an id first writes its tombstone (`<prefix>:<id>:decided`, `SET NX`,
 * signed, kept until the record's own expiry and a margin), so of concurrent decisions exactly one goes on, and a
 * record put back after its decision (someone who can write to Redis, without the keys, replaying a saved copy) is
 * refused: any value at the tombstone's key, even one that does not verify, counts as decided. Someone who can also
 * delete keys can remove the tombstone and put the record back: that replay is bounded by the record's signed expiry,
 * so keep `expiresInMs` as short as the approval flow allows (docs/security.md).
 *
 * Parameters come back as JSON: the executor prepares the values they were built from again and runs the handler only
 * with the parameters the person approved.
 */
export class RedisApprovalStore implements ApprovalStore {
  private readonly ring: SigningKeyRing;
  private readonly prefix: string;
  private readonly logger: Logger;

  constructor(private readonly options: RedisApprovalStoreOptions) {
    if (options.sealingKey === undefined)
      throw new TypeError('RedisApprovalStore needs a sealingKey: an approval holds parameters and trusted context.');
    // A sealing key is given, so there is always a ring (requiredKeyRing throws only without any key).
    this.ring = requiredKeyRing({ ...options, connection: {} }, 'RedisApprovalStore')!;
    this.prefix = options.prefix ?? 'toolwright:approval';
    this.logger = options.logger ?? defaultLogger;
  }

  async put(approval: StoredApproval): Promise<void> {
    const part: SealedPart = {
      params: JSON.parse(JSON.stringify(approval.params)) as Record<string, unknown>,
      ...(approval.input !== undefined
        ? { input: JSON.parse(JSON.stringify(approval.input)) as Record<string, unknown> }
        : {}),
      context: queuedContext(approval.context),
      transformations: approval.transformations,
    };
    const unsigned = {
      format: 1 as const,
      id: approval.id,
      callId: approval.callId,
      tool: approval.tool,
      ...(approval.reason !== undefined ? { reason: approval.reason } : {}),
      requestedAt: approval.requestedAt,
      expiresAt: approval.expiresAt,
      sealed: seal(JSON.stringify(part), this.options.sealingKey, sealBinding(approval.id, approval.tool)),
    };
    const record: ApprovalRecord = { ...unsigned, signature: signEnvelope(this.envelope(unsigned), this.ring) };
    const ttl = Math.max(1, Math.ceil(approval.expiresAt - Date.now()));
    const stored = await this.options.client.set(this.key(approval.id), JSON.stringify(record), 'PX', ttl, 'NX');
    if (stored !== 'OK') throw new Error(`An approval with the id ${approval.id} is already pending.`);
  }

  async get(id: string): Promise<StoredApproval | undefined> {
    const text = await this.options.client.get(this.key(id));
    if (text === null || (await this.decided(id))) return undefined;
    return this.read(id, text);
  }

  async take(id: string): Promise<StoredApproval | undefined> {
    const client = this.options.client;
    const seen = await client.get(this.key(id));
    if (seen === null) return undefined;
    if (await this.decided(id)) {
      // A record put back after its decision: removed (it never runs).
      await client.getdel(this.key(id));
      return undefined;
    }
    const approval = this.read(id, seen);
    if (approval === undefined) return undefined;
    // The decision is remembered before the record is taken: of concurrent takes, only the one whose SET NX wins goes on.
    const now = Date.now();
    const tombstone: Tombstone = { format: 1, id, decidedAt: now, expiresAt: approval.expiresAt };
    const value = JSON.stringify({
      ...tombstone,
      signature: signEnvelope(this.tombstoneEnvelope(tombstone), this.ring),
    });
    const ttl = Math.max(1, approval.expiresAt - now) + TOMBSTONE_MARGIN_MS;
    if ((await client.set(this.tombstoneKey(id), value, 'PX', ttl, 'NX')) !== 'OK') return undefined;
    return this.read(id, await client.getdel(this.key(id)));
  }

  /** Whether `id` was decided: any value at its tombstone's key (one that does not verify is logged, and still counts). */
  private async decided(id: string): Promise<boolean> {
    const text = await this.options.client.get(this.tombstoneKey(id));
    if (text === null) return false;
    let problem: string | undefined;
    try {
      const { signature, ...tombstone } = JSON.parse(text) as Tombstone & { signature: JobSignature };
      problem =
        tombstone.id === id ? verifyEnvelope(this.tombstoneEnvelope(tombstone), signature, this.ring) : 'malformed';
    } catch {
      problem = 'malformed';
    }
    if (problem !== undefined)
      this.logger.warn(`security: approval tombstone does not verify (${problem}); the approval counts as decided`, {
        approvalId: id.slice(0, 80),
      });
    return true;
  }

  private tombstoneKey(id: string): string {
    return `${this.prefix}:${id}:decided`;
  }

  private tombstoneEnvelope(tombstone: Tombstone) {
    return { jobId: tombstone.id, name: 'approval-decided', data: { ...tombstone }, options: {} };
  }

  private key(id: string): string {
    return `${this.prefix}:${id}`;
  }

  /** What the MAC covers: the record without its signature, under the approval id (a job envelope of its own kind). */
  private envelope(record: Omit<ApprovalRecord, 'signature'>) {
    return { jobId: record.id, name: `approval:${record.tool}`, data: record, options: {} };
  }

  /** A record read back: verified, unexpired and opened, else `undefined` (a tampered one is logged as a security event). */
  private read(id: string, text: string | null): StoredApproval | undefined {
    if (text === null) return undefined;
    let record: ApprovalRecord;
    let part: SealedPart;
    try {
      record = JSON.parse(text) as ApprovalRecord;
      const { signature, ...unsigned } = record;
      const problem = record.id === id ? verifyEnvelope(this.envelope(unsigned), signature, this.ring) : 'malformed';
      if (problem !== undefined) throw new Error(problem);
      part = JSON.parse(
        open(record.sealed, this.options.sealingKey, sealBinding(record.id, record.tool)),
      ) as SealedPart;
    } catch (error) {
      this.logger.warn(`security: approval record refused (${error instanceof Error ? error.message : 'unreadable'})`, {
        approvalId: id.slice(0, 80),
      });
      return undefined;
    }
    if (record.expiresAt <= Date.now()) return undefined;
    return {
      id: record.id,
      callId: record.callId,
      tool: record.tool,
      params: part.params,
      ...(part.input !== undefined ? { input: part.input } : {}),
      context: contextForJob(part.context, undefined, undefined),
      transformations: part.transformations,
      ...(record.reason !== undefined ? { reason: record.reason } : {}),
      requestedAt: record.requestedAt,
      expiresAt: record.expiresAt,
      revalidate: true,
    };
  }
}
