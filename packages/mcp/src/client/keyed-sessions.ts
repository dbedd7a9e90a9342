import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { KeyAuthorization } from './oauth/key-authorization';

/** One connection to a server: its client, its transport and, behind OAuth, the token key it authorizes as. */
export interface McpSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly authorization: KeyAuthorization;
}

/**
 * The connections of one server for token keys other than the connection's own, opened on a key's first call and
 * kept (least recently used closed past `max`), so a call only ever travels with its own key's token.
 */
export class KeyedSessions {
  private readonly sessions = new Map<string, Promise<McpSession>>();

  constructor(
    private readonly max: number,
    private readonly open: (key: string) => Promise<McpSession>,
    private readonly end: (session: McpSession) => Promise<void>,
  ) {}

  get(key: string): Promise<McpSession> {
    const existing = this.sessions.get(key);
    if (existing !== undefined) {
      this.sessions.delete(key);
      this.sessions.set(key, existing);
      return existing;
    }
    const opening = this.open(key);
    this.sessions.set(key, opening);
    opening.catch(() => {
      if (this.sessions.get(key) === opening) this.sessions.delete(key);
    });
    for (const [oldest, session] of this.sessions) {
      if (this.sessions.size <= this.max) break;
      this.sessions.delete(oldest);
      void session.then(
        (opened) => this.end(opened),
        () => undefined,
      );
    }
    return opening;
  }

  /** Forgets the session whose client is `client` (its connection was lost); the key's next call opens another. */
  drop(client: Client): void {
    for (const [key, session] of this.sessions) {
      void session.then(
        (opened) => {
          if (opened.client !== client || this.sessions.get(key) !== session) return;
          this.sessions.delete(key);
          void this.end(opened);
        },
        () => undefined,
      );
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      sessions.map((session) =>
        session.then(
          (opened) => this.end(opened),
          () => undefined,
        ),
      ),
    );
  }
}
