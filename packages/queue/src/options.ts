import type { Logger } from '@toolwright/core';
import type { ConnectionOptions } from 'bullmq';
import type { SealingKey } from './sealing';

export const DEFAULT_QUEUE_NAME = 'toolwright-tool-calls';

/** What producer and workers must agree on. */
export interface QueueConnectionOptions {
  /** ioredis options or an ioredis instance (BullMQ's `connection`). */
  readonly connection: ConnectionOptions;
  /** Default `toolwright-tool-calls`. */
  readonly queueName?: string;
  /** BullMQ key prefix. Default `bull`. */
  readonly prefix?: string;
  /**
   * Key that seals the values of `sensitive` parameters in job data (AES-256-GCM): 32 bytes, or a passphrase hashed to
   * 32 bytes. Without it, a call that carries a sensitive value is refused before it reaches Redis.
   */
  readonly sealingKey?: SealingKey;
  readonly logger?: Logger;
}
