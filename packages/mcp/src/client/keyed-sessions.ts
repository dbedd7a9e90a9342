import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { KeyAuthorization } from './oauth/key-authorization';

/** One connection to a server: its client, its transport and, behind OAuth, the token key it authorizes as. */
export interface McpSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly authorization: KeyAuthorization;
}

/** A session lent to one call: `release()` (once, when the call has ended) lets an evicted session close. */
export interface SessionLease {
  readonly session: McpSession;
  readonly release: () => void;
}

/** One key's connection, opened or opening, with the number of calls that hold it. */
interface Entry {
  readonly opening: Promise<McpSession>;
  users: number;
  /** Evicted (least recently used past `max`): closed once its last call releases it. */
  retired: boolean;
  ended: boolean;
}

/**
 * The connections of one server for token keys other than the connection's own, opened on a key's first call and
 * kept (least recently used evicted past `max`), so a call only ever travels with its own key's token. An evicted
 * connection still in use by calls is closed when the last of them ends, never under a call in flight; a lost
 * connection, or `closeAll`, closes at once.
 */
export class KeyedSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly max: number,
    private readonly open: (key: string) => Promise<McpSession>,
    private readonly end: (session: McpSession) => Promise<void>,
  ) {}

  /** The key's session for one call (opened on the key's first call); the caller must `release` it when the call ends. */
  async acquire(key: string): Promise<SessionLease> {
    const entry = this.entryFor(key);
    entry.users++;
    let session: McpSession;
    try {
      session = await entry.opening;
    } catch (error) {
      entry.users--;
      throw error;
    }
    let released = false;
    return {
      session,
      release: () => {
        if (released) return;
        released = true;
        entry.users--;
        if (entry.retired && entry.users === 0) this.close(entry);
      },
    };
  }

  private entryFor(key: string): Entry {
    const existing = this.entries.get(key);
    if (existing !== undefined) {
      // Most recently used last: the map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, existing);
      return existing;
    }
    const entry: Entry = { opening: this.open(key), users: 0, retired: false, ended: false };
    this.entries.set(key, entry);
    entry.opening.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    for (const [oldest, candidate] of this.entries) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(oldest);
      candidate.retired = true;
      if (candidate.users === 0) this.close(candidate);
    }
    return entry;
  }

  private close(entry: Entry): void {
    if (entry.ended) return;
    entry.ended = true;
    void entry.opening.then(
      (opened) => this.end(opened),
      () => undefined,
    );
  }

  /** Forgets the session whose client is `client` (its connection was lost); the key's next call opens another. */
  drop(client: Client): void {
    for (const [key, entry] of this.entries) {
      void entry.opening.then(
        (opened) => {
          if (opened.client !== client || this.entries.get(key) !== entry) return;
          this.entries.delete(key);
          this.close(entry);
        },
        () => undefined,
      );
    }
  }

  /** The sessions kept for later calls (evicted ones still finishing a call are not counted). */
  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map((entry) => {
        entry.ended = true;
        return entry.opening.then(
          (opened) => this.end(opened),
          () => undefined,
        );
      }),
    );
  }
}
