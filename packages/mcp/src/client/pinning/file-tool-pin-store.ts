import { McpPinStoreError } from '../../errors/mcp-pin-store-error';
import { OwnerOnlyFile, type OwnerOnlyFileOptions } from '../owner-only-file';
import { MemoryToolPinStore, type ToolPinStore } from './tool-pin-store';

const FILE_VERSION = 1;
const HASH = /^[0-9a-f]{64}$/;

/** What `FileToolPinStore` takes besides the path. */
export type FileToolPinStoreOptions = OwnerOnlyFileOptions;

/**
 * A pin store in one JSON file, kept as `FileTokenStore` keeps tokens: mode 0600 in a 0700 directory, rewritten whole
 * through an exclusively created temporary file and a rename, and refused when the file or its directory belongs to
 * another user, when others can write to either, or when the path is a symbolic link (whoever can change the pins can
 * approve a changed tool). One process at a time.
 */
export class FileToolPinStore implements ToolPinStore {
  private readonly memory = new MemoryToolPinStore();
  private readonly file: OwnerOnlyFile;

  constructor(
    readonly path: string,
    options: FileToolPinStoreOptions = {},
  ) {
    this.file = new OwnerOnlyFile(
      path,
      {
        label: 'pin file',
        error: (message, errorOptions) => new McpPinStoreError(message, path, errorOptions),
        restore: (text) => {
          for (const [server, pins] of parsePinFile(text, path)) this.memory.entries().set(server, pins);
        },
        serialize: () => this.serialize(),
      },
      options,
    );
  }

  getPins(server: string): Promise<ReadonlyMap<string, string>> {
    return this.file.load().then(() => this.memory.getPins(server));
  }

  setPins(server: string, pins: ReadonlyMap<string, string>): Promise<void> {
    return this.file.change(() => this.memory.setPins(server, pins));
  }

  deletePins(server: string, tools?: readonly string[]): Promise<void> {
    return this.file.change(() => this.memory.deletePins(server, tools));
  }

  private serialize(): string {
    const servers: Record<string, Record<string, string>> = {};
    for (const [server, pins] of this.memory.entries()) {
      // Defined, never assigned: a server or tool named `__proto__` stays an own key.
      Object.defineProperty(servers, server, { value: mapToRecord(pins), enumerable: true });
    }
    return `${JSON.stringify({ version: FILE_VERSION, servers }, null, 2)}\n`;
  }
}

function mapToRecord(pins: ReadonlyMap<string, string>): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [tool, hash] of pins) Object.defineProperty(record, tool, { value: hash, enumerable: true });
  return record;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's pins per server; anything not shaped as this store writes it is refused, without quoting it. */
function parsePinFile(text: string, path: string): Map<string, Map<string, string>> {
  const refuse = (what: string) =>
    new McpPinStoreError(
      `The pin file ${path} ${what}. Fix: delete it (every tool is pinned again as first seen).`,
      path,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse('is not JSON');
  }
  if (!isRecord(parsed) || parsed.version !== FILE_VERSION || !isRecord(parsed.servers))
    throw refuse(`is not a version ${FILE_VERSION} pin file`);
  const servers = new Map<string, Map<string, string>>();
  for (const [server, entry] of Object.entries(parsed.servers)) {
    if (!isRecord(entry)) throw refuse(`has a malformed entry for "${server}"`);
    const pins = new Map<string, string>();
    for (const [tool, hash] of Object.entries(entry)) {
      if (typeof hash !== 'string' || !HASH.test(hash)) throw refuse(`has a malformed pin for "${server}"`);
      pins.set(tool, hash);
    }
    servers.set(server, pins);
  }
  return servers;
}
