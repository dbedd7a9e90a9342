import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/** A 32-byte key (AES-256), or any string, which is hashed to 32 bytes with SHA-256. */
export type SealingKey = Uint8Array | string;

const VERSION = 'v2';

export function keyBytes(key: SealingKey): Buffer {
  if (typeof key === 'string') return createHash('sha256').update(key, 'utf8').digest();
  if (key.byteLength !== 32) throw new RangeError(`A key must be 32 bytes (AES-256); got ${key.byteLength}.`);
  return Buffer.from(key);
}

/**
 * What a sealed payload is bound to (AES-GCM associated data): its job id and tool, so a payload moved into another
 * job, or a job whose tool was changed, fails to open.
 */
export function sealBinding(jobId: string, tool: string): Buffer {
  return Buffer.from(JSON.stringify(['toolwright-sealed-v2', jobId, tool]), 'utf8');
}

/** AES-256-GCM: `v2.<iv>.<tag>.<ciphertext>`, base64url; tampering, a wrong key or other associated data fails to open. */
export function seal(plaintext: string, key: SealingKey, associatedData: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(key), iv);
  cipher.setAAD(associatedData);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function open(sealed: string, key: SealingKey, associatedData: Buffer): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined)
    throw new Error('The sealed values have an unknown format.');
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(key), Buffer.from(iv, 'base64url'));
  decipher.setAAD(associatedData);
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** SHA-256 of `text`, keyed (HMAC) when a key is given so a hash of a sensitive value cannot be guessed offline. */
export function fingerprint(text: string, key: SealingKey | undefined): string {
  return (key === undefined ? createHash('sha256') : createHmac('sha256', keyBytes(key)))
    .update(text, 'utf8')
    .digest('hex');
}
