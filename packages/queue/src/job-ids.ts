import { createHash, randomUUID } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9_.-]{1,200}$/;

/**
 * The BullMQ job id for a call: the call id itself when BullMQ accepts it as a custom id (not an integer, no `:`), else
 * `call-` and the SHA-256 of it. The same call id always gives the same job id, so a repeated call runs once.
 * A call without an id gets a random one (it cannot be recognised when repeated).
 */
export function jobIdForCall(callId: string): string {
  if (callId === '') return `call-${randomUUID()}`;
  if (SAFE_ID.test(callId) && !/^\d+$/.test(callId)) return callId;
  return `call-${createHash('sha256').update(callId, 'utf8').digest('hex').slice(0, 40)}`;
}

const LOGGABLE_ID = /^[A-Za-z0-9_.-]{1,256}$/;

/**
 * A job id as a log line may show it: as it is when it is one `jobIdForCall` could give (letters, digits, `_.-`), else
 * its SHA-256 prefix, since the id of a job read from Redis is whatever was written there.
 */
export function jobIdForLog(jobId: unknown): string {
  const text = typeof jobId === 'string' ? jobId : String(jobId);
  return LOGGABLE_ID.test(text)
    ? text
    : `(job id not shown; sha256 ${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)})`;
}
