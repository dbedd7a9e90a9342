import { defaultLogger, type Logger } from '@toolwright/core';
import { signingKeyRing, signEnvelope, verifyEnvelope, type SigningKey, type SigningKeyRing } from './signing';
import type { SealingKey } from './sealing';

/** The Redis commands the pin store uses (an ioredis `Redis` or `Cluster` client has them: each touches one key). */
export interface PinRedisClient {
  hgetall(key: string): Promise<Record<string, string>>;
  hset(key: string, fields: Record<string, string>): Promise<number>;
  hdel(key: string, ...fields: string[]): Promise<number>;
  del(key: string): Promise<number>;
}

export interface RedisToolPinStoreOptions {
  /** An ioredis client (`new Redis(...)` or a `Cluster`), shared by every process that connects to the MCP servers. */
  readonly client: PinRedisClient;
  /**
   * Signs each pin (HMAC-SHA-256): 32 bytes or a passphrase, as for jobs. Required: whoever can write a pin can approve
   * a changed tool. Give `sealingKey` instead to sign with the key derived from it, as jobs are.
   */
  readonly signingKey?: SigningKey;
  readonly sealingKey?: SealingKey;
  /** Keys that still verify (never sign), for a rotation. */
  readonly previousSigningKeys?: readonly SigningKey[];
  /** Key prefix. Default `toolwright:mcp-pins` (one hash per server: `<prefix>:<server>`, a field per tool). */
  readonly prefix?: string;
  readonly logger?: Logger;
}

/** One pin as Redis holds it. */
interface PinRecord {
  readonly hash: string;
  readonly signature: unknown;
}

/** A pin that does not verify: it matches no definition, so the tool counts as changed (fails closed). */
export const UNVERIFIED_PIN = 'unverified';

/**
 * Pinned MCP tool definitions in Redis, for `connectMcpServers`' `pinning.store` (`@toolwright/mcp`'s `ToolPinStore`)
 * when several processes connect to the same servers: one Redis hash per server, a field per tool holding the pinned
 * hash and its signature (HMAC-SHA-256 over the server, the tool and the hash, with the job signing keys). A pin that
 * does not verify (written without the key, or moved to another tool) is logged as a security event and matches no
 * definition, so the tool counts as changed. Someone who can delete keys can remove a pin: the tool is then pinned
 * again as first seen, so keep Redis writable only by the application.
 */
export class RedisToolPinStore {
  private readonly ring: SigningKeyRing;
  private readonly prefix: string;
  private readonly logger: Logger;

  constructor(private readonly options: RedisToolPinStoreOptions) {
    const ring = signingKeyRing(options);
    if (ring === undefined)
      throw new TypeError(
        'RedisToolPinStore needs a signingKey (or a sealingKey): whoever can write a pin can approve a changed tool.',
      );
    this.ring = ring;
    this.prefix = options.prefix ?? 'toolwright:mcp-pins';
    this.logger = options.logger ?? defaultLogger;
  }

  async getPins(server: string): Promise<ReadonlyMap<string, string>> {
    const fields = await this.options.client.hgetall(this.key(server));
    const pins = new Map<string, string>();
    for (const [tool, text] of Object.entries(fields)) pins.set(tool, this.read(server, tool, text));
    return pins;
  }

  async setPins(server: string, pins: ReadonlyMap<string, string>): Promise<void> {
    if (pins.size === 0) return;
    const fields: Record<string, string> = {};
    for (const [tool, hash] of pins) {
      const record: PinRecord = { hash, signature: signEnvelope(this.envelope(server, tool, hash), this.ring) };
      // Defined, never assigned: a tool named `__proto__` stays a field.
      Object.defineProperty(fields, tool, { value: JSON.stringify(record), enumerable: true });
    }
    await this.options.client.hset(this.key(server), fields);
  }

  async deletePins(server: string, tools?: readonly string[]): Promise<void> {
    if (tools === undefined) await this.options.client.del(this.key(server));
    else if (tools.length > 0) await this.options.client.hdel(this.key(server), ...tools);
  }

  private key(server: string): string {
    return `${this.prefix}:${server}`;
  }

  /** What the MAC covers: the server, the tool and the hash (a job envelope of its own kind). */
  private envelope(server: string, tool: string, hash: string) {
    return { jobId: server, name: `mcp-pin:${tool}`, data: { hash }, options: {} };
  }

  private read(server: string, tool: string, text: string): string {
    const problem = this.problem(server, tool, text);
    if (problem === undefined) return (JSON.parse(text) as PinRecord).hash;
    this.logger.warn(`security: MCP pin refused (${problem}); the tool counts as changed`, {
      server: server.slice(0, 80),
      tool: tool.slice(0, 140),
    });
    return UNVERIFIED_PIN;
  }

  /** Why a stored pin is refused (`undefined`: it verifies). Never quotes the stored text. */
  private problem(server: string, tool: string, text: string): string | undefined {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      return 'unreadable';
    }
    if (typeof record !== 'object' || record === null) return 'malformed';
    const { hash, signature } = record as Partial<PinRecord>;
    if (typeof hash !== 'string') return 'malformed';
    return verifyEnvelope(this.envelope(server, tool, hash), signature, this.ring);
  }
}
