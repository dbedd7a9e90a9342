import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { DefinitionError } from '@toolwright/core';
import type { JobsOptions } from 'bullmq';
import { configure } from 'safe-stable-stringify';
import { keyBytes, type SealingKey } from './sealing';

/**
 * A key that signs (and verifies) job envelopes with HMAC-SHA-256: 32 bytes or a passphrase (hashed to 32 bytes, as a
 * sealing key), with an optional id. Without an id, the id is derived from the key (an HMAC of a fixed label, 16 hex
 * digits), so producer and workers given the same key agree on it.
 */
export type SigningKey = SealingKey | { readonly id: string; readonly secret: SealingKey };

/** What a signed job carries beside its data: which key signed it and the MAC (base64url). */
export interface JobSignature {
  readonly keyId: string;
  readonly mac: string;
}

/** The keys one process signs and verifies with: the first signs; all verify (the others are previous keys). */
export interface SigningKeyRing {
  readonly signing: ResolvedSigningKey;
  readonly verifying: ReadonlyMap<string, Buffer>;
}

interface ResolvedSigningKey {
  readonly id: string;
  readonly secret: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const SIGNING_INFO = 'toolwright queue job signing v1';
const ENVELOPE_LABEL = 'toolwright-job-v1';

/**
 * JSON with keys in a stable order (UTF-16 code-unit order, as RFC 8785) and nothing that JSON cannot say: `undefined`,
 * functions, symbols, bigints and cycles are refused rather than skipped, so two different envelopes never serialise
 * alike.
 */
export const canonicalJson = configure({ deterministic: true, strict: true, circularValue: Error, bigint: false });

/**
 * The key ring of a producer or worker: `signingKey`, else a key derived from `sealingKey` with HKDF-SHA-256 (so the
 * one key configured today signs too), plus `previousSigningKeys` for verifying during a rotation. `undefined` when
 * neither key is given.
 */
export function signingKeyRing(options: {
  readonly signingKey?: SigningKey;
  readonly previousSigningKeys?: readonly SigningKey[];
  readonly sealingKey?: SealingKey;
}): SigningKeyRing | undefined {
  const signing =
    options.signingKey !== undefined
      ? resolve(options.signingKey)
      : options.sealingKey !== undefined
        ? derivedFromSealingKey(options.sealingKey)
        : undefined;
  if (signing === undefined) {
    if ((options.previousSigningKeys?.length ?? 0) > 0)
      throw new DefinitionError('previousSigningKeys is set but there is no current key to sign with.', {
        target: 'QueueConnectionOptions',
        property: 'previousSigningKeys',
        fix: 'Give the current key as `signingKey` (or a `sealingKey`) and keep the old ones in previousSigningKeys.',
      });
    return undefined;
  }
  const verifying = new Map<string, Buffer>([[signing.id, signing.secret]]);
  for (const previous of options.previousSigningKeys ?? []) {
    const key = resolve(previous);
    const known = verifying.get(key.id);
    if (known !== undefined && !known.equals(key.secret))
      throw new DefinitionError(`Two different signing keys have the id "${key.id}".`, {
        target: 'QueueConnectionOptions',
        property: 'previousSigningKeys',
        fix: 'Give every signing key its own id.',
      });
    verifying.set(key.id, key.secret);
  }
  return { signing, verifying };
}

/** The signed part of a job's BullMQ options: what decides how often and when it runs. */
export function signedJobOptions(options: JobsOptions): Record<string, unknown> {
  const backoff =
    typeof options.backoff === 'number' ? { type: 'fixed', delay: options.backoff } : (options.backoff ?? null);
  return {
    attempts: options.attempts || 1,
    backoff,
    priority: options.priority || 0,
    delay: options.delay || 0,
  };
}

/** What the MAC covers: a label, the job id, the job name, the job data (without signature and result) and its options. */
export interface Envelope {
  readonly jobId: string;
  readonly name: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly options: JobsOptions;
}

export function signEnvelope(envelope: Envelope, ring: SigningKeyRing): JobSignature {
  return { keyId: ring.signing.id, mac: mac(envelope, ring.signing.secret) };
}

/** Why a job's envelope was refused (`undefined`: it verifies). */
export type EnvelopeProblem = 'unsigned' | 'unknown-key' | 'bad-signature';

export function verifyEnvelope(
  envelope: Envelope,
  signature: unknown,
  ring: SigningKeyRing | undefined,
): EnvelopeProblem | undefined {
  if (typeof signature !== 'object' || signature === null) return 'unsigned';
  const { keyId, mac: claimed } = signature as Partial<Record<keyof JobSignature, unknown>>;
  if (typeof keyId !== 'string' || typeof claimed !== 'string') return 'unsigned';
  const secret = ring?.verifying.get(keyId);
  if (secret === undefined) return 'unknown-key';
  const expected = Buffer.from(mac(envelope, secret), 'base64url');
  const given = Buffer.from(claimed, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'bad-signature';
}

function mac(envelope: Envelope, secret: Buffer): string {
  const { signature: _signature, result: _result, ...data } = envelope.data;
  const text = canonicalJson([ENVELOPE_LABEL, envelope.jobId, envelope.name, data, signedJobOptions(envelope.options)]);
  return createHmac('sha256', secret).update(text, 'utf8').digest('base64url');
}

function resolve(key: SigningKey): ResolvedSigningKey {
  if (typeof key === 'string' || key instanceof Uint8Array) {
    const secret = keyBytes(key);
    return { id: derivedId(secret), secret };
  }
  if (!KEY_ID.test(key.id))
    throw new DefinitionError(`The signing key id "${key.id.slice(0, 80)}" is not valid.`, {
      target: 'QueueConnectionOptions',
      property: 'signingKey',
      fix: 'Use 1 to 64 characters from A-Z, a-z, 0-9, "_", "." and "-".',
    });
  return { id: key.id, secret: keyBytes(key.secret) };
}

function derivedFromSealingKey(sealingKey: SealingKey): ResolvedSigningKey {
  const secret = Buffer.from(hkdfSync('sha256', keyBytes(sealingKey), Buffer.alloc(0), SIGNING_INFO, 32));
  return { id: derivedId(secret), secret };
}

function derivedId(secret: Buffer): string {
  return `k-${createHmac('sha256', secret).update('toolwright signing key id', 'utf8').digest('hex').slice(0, 16)}`;
}
