import type { ExecutionContext, Transformation } from '../../types/execution';

/** What an `ApprovalStore` keeps for one call waiting for a person's decision. */
export interface StoredApproval {
  readonly id: string;
  readonly callId: string;
  /** The resolved registry name. */
  readonly tool: string;
  /**
   * The validated parameters: in memory, exactly what the handler will receive (the DTO instance of a class command);
   * from a store that serializes them (`revalidate`), plain JSON without trusted-context fields.
   */
  readonly params: Record<string, unknown>;
  /**
   * The values the parameters were built from, as plain JSON without trusted-context fields (see
   * `PreparedCall.input`): what a store that serializes prepares again, so that a `@Transform` runs once.
   */
  readonly input?: Record<string, unknown>;
  /** The trusted context the call came with (without its AbortSignal: the approval outlives the request). */
  readonly context: ExecutionContext;
  readonly transformations: readonly Transformation[];
  /** Why a person is asked, when the approval condition said. */
  readonly reason?: string;
  /** Epoch milliseconds. */
  readonly requestedAt: number;
  /** Epoch milliseconds after which the store no longer returns it. */
  readonly expiresAt: number;
  /**
   * Set by a store that keeps the parameters serialized (across processes, in Redis): the executor prepares `input`
   * again against the tool's current definition, and runs the handler only when the parameters it gets are `params`
   * (what the person approved), as a queue worker does with a job.
   */
  readonly revalidate?: boolean;
}

/**
 * Where pending approvals wait. `take` is the single use: of any number of concurrent `take`s of one id, at most one
 * gets the approval; an expired approval is never returned. `MemoryApprovalStore` is the default;
 * `@toolwright/queue`'s `RedisApprovalStore` keeps approvals across restarts and processes.
 */
export interface ApprovalStore {
  /** Keeps a new approval until `approval.expiresAt`; rejects when it cannot (the call then fails, nothing runs). */
  put(approval: StoredApproval): Promise<void>;
  /** The approval, still pending and unexpired, without using it (`canApprove` looks at it first). */
  get(id: string): Promise<StoredApproval | undefined>;
  /** Removes and returns the approval, atomically: `undefined` when unknown, expired or already taken. */
  take(id: string): Promise<StoredApproval | undefined>;
}

export interface MemoryApprovalStoreOptions {
  /** How many approvals may wait at once (expired ones are swept first); a call beyond it fails. Default 10,000. */
  readonly maxEntries?: number;
  /** The clock (epoch milliseconds); tests pass their own. Default `Date.now`. */
  readonly now?: () => number;
}

/** The in-process store (the default): bounded, with expiry; lost when the process ends. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly approvals = new Map<string, StoredApproval>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryApprovalStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    if (!(Number.isInteger(this.maxEntries) && this.maxEntries >= 1))
      throw new RangeError(`maxEntries must be an integer >= 1; got ${String(options.maxEntries)}.`);
    this.now = options.now ?? Date.now;
  }

  /** How many approvals are kept (expired ones included until the next sweep). */
  get size(): number {
    return this.approvals.size;
  }

  put(approval: StoredApproval): Promise<void> {
    if (this.approvals.size >= this.maxEntries) this.sweep();
    if (this.approvals.size >= this.maxEntries)
      return Promise.reject(
        new RangeError(`The approval store is full (${this.maxEntries} approvals wait); decide some first.`),
      );
    if (this.approvals.has(approval.id))
      return Promise.reject(new RangeError(`An approval with the id ${approval.id} is already pending.`));
    this.approvals.set(approval.id, approval);
    return Promise.resolve();
  }

  get(id: string): Promise<StoredApproval | undefined> {
    return Promise.resolve(this.current(id));
  }

  take(id: string): Promise<StoredApproval | undefined> {
    // Synchronous between the read and the delete: no other take of the id can interleave.
    const approval = this.current(id);
    if (approval !== undefined) this.approvals.delete(id);
    return Promise.resolve(approval);
  }

  private current(id: string): StoredApproval | undefined {
    const approval = typeof id === 'string' ? this.approvals.get(id) : undefined;
    if (approval === undefined) return undefined;
    if (approval.expiresAt <= this.now()) {
      this.approvals.delete(id);
      return undefined;
    }
    return approval;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, approval] of this.approvals) if (approval.expiresAt <= now) this.approvals.delete(id);
  }
}
