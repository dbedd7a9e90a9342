import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/server';
import { McpTokenStoreError } from '../../errors/mcp-token-store-error';
import { MemoryTokenStore, type StoredServerCredentials, type TokenStore } from './token-store';

const FILE_VERSION = 1;

interface TokenFile {
  readonly version: number;
  readonly servers: Record<string, { client?: OAuthClientInformationMixed; tokens?: Record<string, OAuthTokens> }>;
}

/**
 * A token store in one JSON file, for command-line tools: created with mode 0600 (its directory 0700), rewritten
 * whole on each change (a temporary file renamed over it, so a crash never leaves half a file), and refused when
 * it is readable or writable by anyone but its owner. One process at a time: changes are written in order, and a
 * second process writing the same file would overwrite the first one's changes.
 */
export class FileTokenStore implements TokenStore {
  private readonly memory = new MemoryTokenStore();
  private loading?: Promise<void>;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  getTokens(server: string, key: string): Promise<OAuthTokens | undefined> {
    return this.load().then(() => this.memory.getTokens(server, key));
  }

  setTokens(server: string, key: string, tokens: OAuthTokens): Promise<void> {
    return this.change(() => this.memory.setTokens(server, key, tokens));
  }

  deleteTokens(server: string, key: string): Promise<void> {
    return this.change(() => this.memory.deleteTokens(server, key));
  }

  getClient(server: string): Promise<OAuthClientInformationMixed | undefined> {
    return this.load().then(() => this.memory.getClient(server));
  }

  setClient(server: string, client: OAuthClientInformationMixed): Promise<void> {
    return this.change(() => this.memory.setClient(server, client));
  }

  deleteClient(server: string): Promise<void> {
    return this.change(() => this.memory.deleteClient(server));
  }

  private load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  private async read(): Promise<void> {
    let text: string;
    try {
      const info = await stat(this.path);
      if ((info.mode & 0o077) !== 0) {
        throw new McpTokenStoreError(
          `The token file ${this.path} has mode ${(info.mode & 0o777).toString(8)}: others can read or change it. Fix: chmod 600 ${this.path}.`,
          this.path,
        );
      }
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error instanceof McpTokenStoreError
        ? error
        : new McpTokenStoreError(`The token file ${this.path} cannot be read.`, this.path, { cause: error });
    }
    for (const [server, entry] of parseTokenFile(text, this.path)) this.memory.entries().set(server, entry);
  }

  private change(apply: () => void | Promise<void>): Promise<void> {
    const next = this.writing.then(async () => {
      await this.load();
      await apply();
      await this.write();
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async write(): Promise<void> {
    const servers: TokenFile['servers'] = {};
    for (const [server, entry] of this.memory.entries()) {
      Object.defineProperty(servers, server, {
        value: {
          ...(entry.client ? { client: entry.client } : {}),
          tokens: Object.fromEntries(entry.tokens),
        },
        enumerable: true,
      });
    }
    const file: TokenFile = { version: FILE_VERSION, servers };
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    } catch (error) {
      throw new McpTokenStoreError(`The token file ${this.path} cannot be written.`, this.path, { cause: error });
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's servers, each in a fresh entry; anything not shaped as this store writes it is refused. */
function parseTokenFile(text: string, path: string): Map<string, StoredServerCredentials> {
  const refuse = (what: string, cause?: unknown) =>
    new McpTokenStoreError(
      `The token file ${path} ${what}. Fix: delete it (the servers will ask to authorize again).`,
      path,
      { cause },
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refuse('is not JSON', error);
  }
  if (!isRecord(parsed) || parsed.version !== FILE_VERSION || !isRecord(parsed.servers))
    throw refuse(`is not a version ${FILE_VERSION} token file`);
  const servers = new Map<string, StoredServerCredentials>();
  for (const [server, entry] of Object.entries(parsed.servers)) {
    if (!isRecord(entry)) throw refuse(`has a malformed entry for "${server}"`);
    const tokens = new Map<string, OAuthTokens>();
    const storedTokens = entry.tokens ?? {};
    if (!isRecord(storedTokens)) throw refuse(`has malformed tokens for "${server}"`);
    for (const [key, value] of Object.entries(storedTokens)) {
      if (!isRecord(value) || typeof value.access_token !== 'string' || typeof value.token_type !== 'string')
        throw refuse(`has malformed tokens for "${server}"`);
      tokens.set(key, value as unknown as OAuthTokens);
    }
    const client = entry.client;
    if (client !== undefined && !(isRecord(client) && typeof client.client_id === 'string'))
      throw refuse(`has a malformed client registration for "${server}"`);
    servers.set(server, {
      ...(client !== undefined ? { client: client as unknown as OAuthClientInformationMixed } : {}),
      tokens,
    });
  }
  return servers;
}
