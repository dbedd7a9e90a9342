import { createHash } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The first `length` lowercase hex characters of the SHA-256 of `text` (deterministic across runs and machines).
 * The text is hashed as UTF-16 code units, so distinct strings (even with lone surrogates, which UTF-8 would
 * replace by U+FFFD) hash differently.
 */
export function hexDigest(text: string, length: number): string {
  return createHash('sha256').update(text, 'utf16le').digest('hex').slice(0, length);
}

/** `length` base-62 characters (`[0-9A-Za-z]`) derived from the SHA-256 of `text`. */
export function base62Digest(text: string, length: number): string {
  const bytes = createHash('sha256').update(text, 'utf16le').digest();
  let output = '';
  for (let index = 0; index < length; index += 1) output += BASE62[(bytes[index] ?? 0) % 62];
  return output;
}

/** A random base-62 string (ids for calls that arrived without one). */
export function randomBase62(length: number): string {
  let output = '';
  for (let index = 0; index < length; index += 1) output += BASE62[Math.floor(Math.random() * 62)];
  return output;
}
