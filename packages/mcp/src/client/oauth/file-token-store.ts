import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { McpTokenStoreError } from '../../errors/mcp-token-store-error';
import { OwnerOnlyFile, type OwnerOnlyFileOptions } from '../owner-only-file';
import { MemoryTokenStore, type StoredServerCredentials, type TokenStore } from './token-store';

const FILE_VERSION = 1;

interface TokenFile {
  readonly version: number;
  readonly servers: Record<string, { client?: OAuthClientInformationMixed; tokens?: Record<string, OAuthTokens> }>;
}

/** What `FileTokenStore` takes besides the path. */
export type FileTokenStoreOptions = OwnerOnlyFileOptions;

/**
 * A token store in one JSON file, for command-line tools: created with mode 0600 (its directory 0700), rewritten
 * whole on each change (a temporary file with an unpredictable name, created exclusively in the same directory
 * without following a symbolic link, then renamed over it, so a crash never leaves half a file), and refused when the
 * file or its directory belongs to another user, when the file is readable or writable by anyone but its owner, when
 * the directory is writable by anyone but its owner, or when the path is a symbolic link. No error, cause or log of
 * this store quotes the file's contents. One process at a time: changes are written in order, and a second process
 * writing the same file would overwrite the first one's changes.
 */
export class FileTokenStore implements TokenStore {
  private readonly memory = new MemoryTokenStore();
  private readonly file: OwnerOnlyFile;

  constructor(
    readonly path: string,
    options: FileTokenStoreOptions = {},
  ) {
    this.file = new OwnerOnlyFile(
      path,
      {
        label: 'token file',
        error: (message, errorOptions) => new McpTokenStoreError(message, path, errorOptions),
        restore: (text) => {
          for (const [server, entry] of parseTokenFile(text, path)) this.memory.entries().set(server, entry);
        },
        serialize: () => this.serialize(),
      },
      options,
    );
  }

  getTokens(server: string, key: string): Promise<OAuthTokens | undefined> {
    return this.file.load().then(() => this.memory.getTokens(server, key));
  }

  setTokens(server: string, key: string, tokens: OAuthTokens): Promise<void> {
    return this.file.change(() => this.memory.setTokens(server, key, tokens));
  }

  deleteTokens(server: string, key: string): Promise<void> {
    return this.file.change(() => this.memory.deleteTokens(server, key));
  }

  getClient(server: string): Promise<OAuthClientInformationMixed | undefined> {
    return this.file.load().then(() => this.memory.getClient(server));
  }

  setClient(server: string, client: OAuthClientInformationMixed): Promise<void> {
    return this.file.change(() => this.memory.setClient(server, client));
  }

  deleteClient(server: string): Promise<void> {
    return this.file.change(() => this.memory.deleteClient(server));
  }

  private serialize(): string {
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
    return `${JSON.stringify(file, null, 2)}\n`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's servers, each in a fresh entry; anything not shaped as this store writes it is refused. */
function parseTokenFile(text: string, path: string): Map<string, StoredServerCredentials> {
  // No cause and no excerpt: JSON.parse's message quotes the text around the fault, which may be a token.
  const refuse = (what: string) =>
    new McpTokenStoreError(
      `The token file ${path} ${what}. Fix: delete it (the servers will ask to authorize again).`,
      path,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse('is not JSON');
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
