import { DefinitionError, type Logger } from '@toolwright/core';
import type { ConnectionOptions } from 'bullmq';
import type { SealingKey } from './sealing';
import { signingKeyRing, type SigningKey, type SigningKeyRing } from './signing';

export const DEFAULT_QUEUE_NAME = 'toolwright-tool-calls';
const DEFAULT_PREFIX = 'bull';

/** What producer and workers must agree on. */
export interface QueueConnectionOptions {
  /**
   * ioredis options, an ioredis instance or an ioredis `Cluster` (BullMQ's `connection`). On a `Cluster` the key prefix
   * gets a hash tag (`{bull}`), so every key of the queue is in one slot.
   */
  readonly connection: ConnectionOptions;
  /** Default `toolwright-tool-calls`. */
  readonly queueName?: string;
  /**
   * BullMQ key prefix. Default `bull`. On a cluster connection a prefix without a hash tag is wrapped in one (`{bull}`);
   * one that has a tag (`{tenant-a}:jobs`) is kept as it is.
   */
  readonly prefix?: string;
  /**
   * Key that seals the values of `sensitive` parameters in job data (AES-256-GCM): 32 bytes, or a passphrase hashed to
   * 32 bytes. Without it, a call that carries a sensitive value is refused before it reaches Redis. Unless a
   * `signingKey` is given, it also signs jobs (through a key derived from it with HKDF-SHA-256).
   */
  readonly sealingKey?: SealingKey;
  /**
   * Key that signs every job envelope (HMAC-SHA-256); workers run only jobs whose signature verifies. Default: derived
   * from `sealingKey`. With neither key, `QueuedToolExecutor` and `createToolWorker` throw a DefinitionError unless
   * `allowUnauthenticatedJobs` is set.
   */
  readonly signingKey?: SigningKey;
  /** Keys that still verify (never sign): give the old key here while producers move to a new one. */
  readonly previousSigningKeys?: readonly SigningKey[];
  /**
   * Gives up job authentication: a producer enqueues unsigned jobs, and a worker runs unsigned jobs as Redis holds
   * them, so anyone who can write to Redis can run any tool with any parameters, context and persona. Signed jobs are
   * still verified. Only for a Redis that nothing else can write to, or to drain jobs of an older version.
   */
  readonly allowUnauthenticatedJobs?: boolean;
  /**
   * After each write a call depends on (the job, a worker's claim and its result record), wait until this many replicas
   * have it (Redis `WAIT`), at most `timeoutMs`: an acknowledged write then survives a failover. Default: no wait.
   */
  readonly waitForReplicas?: { readonly replicas: number; readonly timeoutMs: number };
  readonly logger?: Logger;
}

/** The BullMQ prefix for a connection: a hash-tagged one on a cluster, so the queue lives in one slot. */
export function queuePrefix(options: QueueConnectionOptions): string {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (!isCluster(options.connection) || /\{[^{}]+\}/.test(prefix)) return prefix;
  return `{${prefix}}`;
}

function isCluster(connection: ConnectionOptions): boolean {
  return (connection as { readonly isCluster?: unknown }).isCluster === true;
}

/** The signing keys of a producer or worker; a DefinitionError when there is none and no explicit opt-out. */
export function requiredKeyRing(options: QueueConnectionOptions, role: string): SigningKeyRing | undefined {
  const ring = signingKeyRing(options);
  if (ring === undefined && options.allowUnauthenticatedJobs !== true)
    throw new DefinitionError(`${role} has no key to authenticate jobs with.`, {
      target: role,
      property: 'signingKey',
      fix:
        'Give producer and workers the same `sealingKey` (or `signingKey`), e.g. 32 random bytes from a secret store. ' +
        'Only if nothing but this application can write to Redis, set `allowUnauthenticatedJobs: true` instead.',
    });
  return ring;
}

/** `waitForReplicas` checked once, at startup. */
export function replicaWait(options: QueueConnectionOptions): QueueConnectionOptions['waitForReplicas'] {
  const wait = options.waitForReplicas;
  if (wait === undefined) return undefined;
  if (!(
    Number.isInteger(wait.replicas) &&
    wait.replicas >= 1 &&
    Number.isInteger(wait.timeoutMs) &&
    wait.timeoutMs >= 1
  ))
    throw new DefinitionError('waitForReplicas needs an integer `replicas` >= 1 and an integer `timeoutMs` >= 1.', {
      target: 'QueueConnectionOptions',
      property: 'waitForReplicas',
      fix: 'For one replica per master: `{ replicas: 1, timeoutMs: 500 }`.',
    });
  return wait;
}
