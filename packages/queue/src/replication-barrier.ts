/**
 * `waitForReplicas` without blocking the connection BullMQ uses: Redis `WAIT` blocks the connection it is sent on and
 * covers only that connection's writes, so a barrier writes a marker in the queue's slot on a connection of its own,
 * then `WAIT`s there. Replication is ordered, so a barrier confirms every write that completed before its marker was
 * sent, on any connection to that master. Callers that arrive while a barrier is running share the next one (group
 * commit): one `WAIT` per round, however many calls are waiting.
 */
export interface BarrierClient {
  pipeline(): {
    set(key: string, value: string): unknown;
    wait(replicas: number, timeoutMs: number): unknown;
    exec(): Promise<Array<[Error | null, unknown]> | null>;
  };
  disconnect(): void;
}

export class ReplicationBarrier {
  private running: Promise<number> | undefined;
  private next: Promise<number> | undefined;

  constructor(
    private readonly client: Promise<BarrierClient>,
    /** A key in the queue's slot (same master as the jobs). */
    private readonly markerKey: string,
    private readonly replicas: number,
    private readonly timeoutMs: number,
  ) {}

  /** Resolves with how many replicas acknowledged every write this process completed before the call. */
  confirm(): Promise<number> {
    if (this.next) return this.next;
    if (!this.running) return (this.running = this.round());
    const after = this.running.catch(() => 0);
    this.next = after.then(() => {
      this.next = undefined;
      return (this.running = this.round());
    });
    return this.next;
  }

  async close(): Promise<void> {
    await this.next?.catch(() => 0);
    await this.running?.catch(() => 0);
    (await this.client).disconnect();
  }

  private async round(): Promise<number> {
    try {
      const pipeline = (await this.client).pipeline();
      pipeline.set(this.markerKey, String(Date.now()));
      pipeline.wait(this.replicas, this.timeoutMs);
      const replies = await pipeline.exec();
      const waited = replies?.[1];
      return waited && !waited[0] ? Number(waited[1]) : 0;
    } finally {
      this.running = undefined;
    }
  }
}
