import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/server';

/**
 * Where the OAuth client keeps what it obtained: per server, the client's registration (one per server: the app is
 * one OAuth client) and the tokens of each token key (one per user, or whatever `tokenKey(context)` returns).
 * Store what you are given unchanged: the SDK stamps tokens and registrations with the `issuer` that produced them
 * and never presents them to another authorization server. Methods may be synchronous or return promises.
 */
export interface TokenStore {
  getTokens(server: string, key: string): OAuthTokens | undefined | Promise<OAuthTokens | undefined>;
  setTokens(server: string, key: string, tokens: OAuthTokens): void | Promise<void>;
  deleteTokens(server: string, key: string): void | Promise<void>;
  getClient(server: string): OAuthClientInformationMixed | undefined | Promise<OAuthClientInformationMixed | undefined>;
  setClient(server: string, client: OAuthClientInformationMixed): void | Promise<void>;
  deleteClient(server: string): void | Promise<void>;
}

/** One server's entry of a store: its registration and its tokens by key (a Map: a key is never an object property). */
export interface StoredServerCredentials {
  client?: OAuthClientInformationMixed;
  readonly tokens: Map<string, OAuthTokens>;
}

/** The default store: in this process's memory, gone when it exits. */
export class MemoryTokenStore implements TokenStore {
  private readonly servers = new Map<string, StoredServerCredentials>();

  /** @internal the entries, for a store that persists them (`FileTokenStore`). */
  entries(): Map<string, StoredServerCredentials> {
    return this.servers;
  }

  getTokens(server: string, key: string): OAuthTokens | undefined {
    return this.servers.get(server)?.tokens.get(key);
  }

  setTokens(server: string, key: string, tokens: OAuthTokens): void {
    this.entry(server).tokens.set(key, tokens);
  }

  deleteTokens(server: string, key: string): void {
    this.servers.get(server)?.tokens.delete(key);
  }

  getClient(server: string): OAuthClientInformationMixed | undefined {
    return this.servers.get(server)?.client;
  }

  setClient(server: string, client: OAuthClientInformationMixed): void {
    this.entry(server).client = client;
  }

  deleteClient(server: string): void {
    const entry = this.servers.get(server);
    if (entry) delete entry.client;
  }

  private entry(server: string): StoredServerCredentials {
    let entry = this.servers.get(server);
    if (entry === undefined) {
      entry = { tokens: new Map() };
      this.servers.set(server, entry);
    }
    return entry;
  }
}
