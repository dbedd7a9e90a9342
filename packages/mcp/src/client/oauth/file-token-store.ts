import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpTokenStoreError } from '../../errors/mcp-token-store-error';
import { MemoryTokenStore, type StoredServerCredentials, type TokenStore } from './token-store';

const FILE_VERSION = 1;

interface TokenFile {
  readonly version: number;
  readonly servers: Record<string, { client?: OAuthClientInformationMixed; tokens?: Record<string, OAuthTokens> }>;
}

/** What `FileTokenStore` takes besides the path. */
export interface FileTokenStoreOptions {
  /**
   * The user id the token file and its directory must belong to. Default: this process's (`process.getuid()`); on a
   * platform without user ids (Windows) ownership is not checked. A test sets it to check the refusal as any user.
   */
  readonly expectedOwner?: number;
}

/** Refuses to follow a symbolic link at the last component (0 where the platform has no such flag). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

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
  private readonly owner: number | undefined;
  private loading?: Promise<void>;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    options: FileTokenStoreOptions = {},
  ) {
    this.owner = options.expectedOwner ?? process.getuid?.();
  }

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
      await this.checkDirectory();
      // Opened without following a link; the checks are made on the open file itself (no swap between check and read).
      const handle = await open(this.path, constants.O_RDONLY | NO_FOLLOW);
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw this.refused('is not a regular file.');
        this.checkOwner(info, `The token file ${this.path}`, `chown $(id -u) ${this.path}`);
        if ((info.mode & 0o077) !== 0)
          throw this.refused(
            `has mode ${(info.mode & 0o777).toString(8)}: others can read or change it. Fix: chmod 600 ${this.path}.`,
          );
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw this.wrapped(error, 'cannot be read');
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
    const directory = dirname(this.path);
    // Unpredictable, in the target's directory (a rename within one file system), created only if it does not exist.
    const temporary = join(directory, `.${basename(this.path)}.${randomBytes(16).toString('hex')}.tmp`);
    let created = false;
    try {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      await this.checkDirectory();
      const handle = await open(
        temporary,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
        0o600,
      );
      created = true;
      try {
        await handle.chmod(0o600);
        await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
      created = false;
    } catch (error) {
      if (created) await unlink(temporary).catch(() => undefined);
      throw this.wrapped(error, 'cannot be written');
    }
  }

  /** The file's directory: a real directory of the expected owner that no one else can write to. */
  private async checkDirectory(): Promise<void> {
    const directory = dirname(this.path);
    const info = await lstat(directory);
    if (!info.isDirectory()) throw this.refused(`is in ${directory}, which is not a directory (a symbolic link?).`);
    this.checkOwner(info, `The directory ${directory} of the token file ${this.path}`, `chown $(id -u) ${directory}`);
    if ((info.mode & 0o022) !== 0)
      throw this.refused(
        `is in ${directory}, which others can write to (mode ${(info.mode & 0o777).toString(8)}). Fix: chmod 700 ${directory}.`,
      );
  }

  private checkOwner(info: Stats, what: string, fix: string): void {
    if (this.owner === undefined || info.uid === this.owner) return;
    throw new McpTokenStoreError(
      `${what} belongs to user ${info.uid}, not to this user (${this.owner}). Fix: ${fix}, or use another path.`,
      this.path,
    );
  }

  /** `what`: the rest of the sentence after "The token file <path>", with its full stop. */
  private refused(what: string): McpTokenStoreError {
    return new McpTokenStoreError(`The token file ${this.path} ${what}`, this.path);
  }

  /** A failure as the store's error; a file-system error is its cause (it names paths, never the file's contents). */
  private wrapped(error: unknown, what: string): McpTokenStoreError {
    if (error instanceof McpTokenStoreError) return error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK')
      return this.refused("is a symbolic link, refused: a link could point at another user's file.");
    return new McpTokenStoreError(`The token file ${this.path} ${what}${code ? ` (${code})` : ''}.`, this.path, {
      cause: error,
    });
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
