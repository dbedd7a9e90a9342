import type {
  ApprovalOutcome,
  ExecutionContext,
  PersonaContext,
  ToolDefinition,
  ToolResult,
  Transformation,
} from '@toolwright/core';
import { REDACTED, redactTransformations, sensitivePaths } from '@toolwright/core/internal';
import type { JobsOptions } from 'bullmq';
import { fingerprint, seal, sealBinding, type SealingKey } from './sealing';
import {
  canonicalJson,
  signEnvelope,
  verifyEnvelope,
  type EnvelopeProblem,
  type JobSignature,
  type SigningKeyRing,
} from './signing';

/**
 * What a job holds in Redis: never the raw model text, never a sensitive value in clear; signed as a whole (with the
 * job id and options) so a worker runs only what a producer enqueued.
 */
export interface ToolJobData {
  readonly format: 2;
  readonly callId: string;
  readonly tool: string;
  /**
   * The validated values the handler's parameters are built from (`PreparedCall.input`: before a DTO's
   * class-transformer `@Transform` ran) as plain JSON, without trusted-context fields; sensitive values are
   * `[redacted]`. The worker prepares them again, so a transform is applied once, to the model's value.
   */
  readonly params: Record<string, unknown>;
  /**
   * The validated parameters the producer's handler would have received (the DTO after any `@Transform`), as a hash of
   * their canonical JSON (`valuesDigest`): the worker runs the handler only when the parameters it builds hash alike.
   */
  readonly values?: string;
  /**
   * Who enqueued the job: a keyed hash of the caller's trusted context (everything but `now` and `approval`).
   * `tool_job_status` shows a job only to a caller whose context hashes alike.
   */
  readonly owner?: string;
  /**
   * The sensitive values, sealed with AES-256-GCM (see `sealing.ts`) and bound to the job id and tool; absent when the
   * call carries none.
   */
  readonly sealed?: string;
  /** The producer's transformations, redacted, with the arguments text itself left out. */
  readonly transformations: readonly Transformation[];
  /** The serializable part of the trusted execution context. */
  readonly context: QueuedContext;
  readonly enqueuedAt: number;
  /** Epoch milliseconds after which a worker refuses the job (`jobExpiryMs` after `enqueuedAt`). */
  readonly expiresAt: number;
  /**
   * What makes this call this call: tool, parameters (sensitive ones included) and every trusted input the handler can
   * read (the whole queued context but `approval`: session, persona, `handlerConfig`, ...), hashed (HMAC with the
   * sealing key when there is one). A job id reused by a different call, or by another caller, is detected by it: that
   * call gets a job of its own, and a result is never handed to a caller whose trusted context differs.
   */
  readonly fingerprint: string;
  /** The HMAC-SHA-256 of the envelope; absent only when the producer opted out (`allowUnauthenticatedJobs`). */
  readonly signature?: JobSignature;
  /**
   * Set by the worker when the job fails for good: the model-facing result (the dead-letter view reads it). Not
   * signed: the worker writes it.
   */
  readonly result?: ToolResult;
}

/** The part of an ExecutionContext that travels with a job. `jobId` is not here: the worker sets it to the job's id. */
export interface QueuedContext {
  readonly sessionId?: string;
  readonly flowStepId?: string;
  readonly sourceUrl?: string;
  readonly imageUrl?: string;
  readonly handlerConfig?: Readonly<Record<string, unknown>>;
  readonly persona?: PersonaContext;
  readonly timeZone?: string;
  /** ISO-8601: the reference instant for relative dates. */
  readonly now?: string;
  readonly model?: string;
  /** Who approved the call and when (a call of a tool with `approval`, decided in the API process; docs/approval.md). */
  readonly approval?: ApprovalOutcome;
}

/** Placeholder for an argument-text transformation's values: the raw model text never goes to Redis. */
export const ARGUMENTS_TEXT_OMITTED = '[arguments text omitted]';

export function queuedContext(context: ExecutionContext): QueuedContext {
  const copy: Record<string, unknown> = {};
  const keys = [
    'sessionId',
    'flowStepId',
    'sourceUrl',
    'imageUrl',
    'handlerConfig',
    'persona',
    'timeZone',
    'model',
    'approval',
  ] as const;
  for (const key of keys) if (context[key] !== undefined) copy[key] = toJson(context[key]);
  if (context.now instanceof Date && !Number.isNaN(context.now.getTime())) copy.now = context.now.toISOString();
  return copy;
}

/**
 * The execution context a worker runs the job with: the queued part, the job's own id, the worker's signal (an approval
 * read back from Redis has neither).
 */
export function contextForJob(
  queued: QueuedContext,
  jobId: string | undefined,
  signal: AbortSignal | undefined,
): ExecutionContext {
  const { now, ...rest } = queued;
  return {
    ...rest,
    ...(jobId !== undefined ? { jobId } : {}),
    ...(now !== undefined ? { now: new Date(now) } : {}),
    ...(signal ? { signal } : {}),
  };
}

/** Job data before it has a job id: the sensitive values not sealed yet, nothing signed. */
export interface JobDraft {
  readonly data: Omit<ToolJobData, 'sealed' | 'signature' | 'result'>;
  /** The sensitive values (path and value pairs) as JSON; absent when the call carries none. */
  readonly secrets?: string;
}

/**
 * Turns a prepared call into a job draft: trusted-context fields removed (the worker injects them again from the job),
 * sensitive values taken out, transformations redacted. Throws `SealingKeyMissingError` when a sensitive value is
 * present and no key is configured.
 */
export function buildJobData(
  definition: ToolDefinition,
  callId: string,
  params: Record<string, unknown>,
  input: Record<string, unknown>,
  transformations: readonly Transformation[],
  context: ExecutionContext,
  key: SealingKey | undefined,
  expiryMs: number,
): JobDraft {
  const contextProperties = new Set(
    definition.parameters.properties
      .filter((property) => property.context !== undefined)
      .map((property) => property.name),
  );
  const withoutContext = withoutFields(toJson(input) as Record<string, unknown>, contextProperties);
  const values = withoutFields(toJson(params) as Record<string, unknown>, contextProperties);
  const sensitive = sensitivePaths(definition.parameters);
  const secrets: Array<[readonly (string | number)[], unknown]> = [];
  const redactedParams =
    sensitive.size === 0
      ? withoutContext
      : (extractSensitive(withoutContext, sensitive, [], '', secrets) as Record<string, unknown>);
  if (secrets.length > 0 && key === undefined) throw new SealingKeyMissingError(definition.name);
  const enqueuedAt = Date.now();
  const queued = queuedContext(context);
  const { approval: _approval, ...identity } = queued;
  return {
    data: {
      format: 2,
      callId,
      tool: definition.name,
      params: redactedParams,
      transformations: storedTransformations(transformations, sensitive),
      context: queued,
      enqueuedAt,
      expiresAt: enqueuedAt + expiryMs,
      fingerprint: fingerprint(canonicalJson(['call', definition.name, withoutContext, identity]), key),
      values: valuesDigest(values, secrets.length > 0 ? key : undefined),
      owner: ownerOf(context, key),
    },
    ...(secrets.length > 0 ? { secrets: JSON.stringify(secrets) } : {}),
  };
}

/**
 * The hash of validated parameters (plain JSON, without trusted-context fields), `ToolJobData.values`: keyed with the
 * sealing key (`k:`) when they hold a sensitive value (then both sides have that key: the worker opens the sealed
 * values with it), else a plain SHA-256 (`s:`), so a worker and a producer that differ in having a sealing key agree.
 */
export function valuesDigest(values: Record<string, unknown>, key: SealingKey | undefined): string {
  return `${key === undefined ? 's' : 'k'}:${fingerprint(canonicalJson(['values', values]), key)}`;
}

/** Whether validated parameters hash as `digest` (a `valuesDigest`; `k:` needs the sealing key). */
export function matchesValuesDigest(
  values: Record<string, unknown>,
  digest: string,
  key: SealingKey | undefined,
): boolean {
  if (digest.startsWith('s:')) return valuesDigest(values, undefined) === digest;
  return digest.startsWith('k:') && key !== undefined && valuesDigest(values, key) === digest;
}

/**
 * Who a caller is, as `ToolJobData.owner` holds it: a keyed hash of its trusted context as a job would carry it,
 * without `now` (a reference instant, new on each request) and `approval`.
 */
export function ownerOf(context: ExecutionContext, key: SealingKey | undefined): string {
  const { now: _now, approval: _approval, ...who } = queuedContext(context);
  return fingerprint(canonicalJson(['owner', who]), key);
}

function withoutFields(plain: Record<string, unknown>, fields: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plain)) if (!fields.has(name)) defineValue(kept, name, value);
  return kept;
}

/**
 * The job data for a draft under its final job id: the sensitive values sealed and bound to the id and tool, the
 * envelope (id, tool, data, job options) signed with the ring's current key, unless no ring is given (the producer
 * opted out of authenticated jobs).
 */
export function jobDataFor(
  draft: JobDraft,
  jobId: string,
  options: JobsOptions,
  sealingKey: SealingKey | undefined,
  ring: SigningKeyRing | undefined,
): ToolJobData {
  const { data, secrets } = draft;
  let sealed: string | undefined;
  if (secrets !== undefined) {
    if (sealingKey === undefined) throw new SealingKeyMissingError(data.tool);
    sealed = seal(secrets, sealingKey, sealBinding(jobId, data.tool));
  }
  const unsigned: ToolJobData = { ...data, ...(sealed !== undefined ? { sealed } : {}) };
  if (ring === undefined) return unsigned;
  const envelope = { jobId, name: data.tool, data: unsigned as unknown as Record<string, unknown>, options };
  return { ...unsigned, signature: signEnvelope(envelope, ring) };
}

/** Why a worker refuses a job before anything else (`undefined`: it may run). */
export type JobProblem = EnvelopeProblem | 'malformed' | 'expired';

/** Why a worker refused a job before anything of it was used: a `JobProblem`, or a replay of a job that settled. */
export type RefusedJobReason = JobProblem | 'replayed';

/** The start of a refused job's `failedReason` (the dead-letter view reads the reason after it). */
export const REFUSED_JOB_PREFIX = 'toolwright refused the job: ';

/** What a job as read back from Redis must pass before anything of it is used. */
export function jobProblem(
  job: { readonly id?: string; readonly name: string; readonly data: unknown; readonly opts: JobsOptions },
  ring: SigningKeyRing | undefined,
  allowUnauthenticated: boolean,
  now: number,
): JobProblem | undefined {
  const data = job.data as Partial<Record<keyof ToolJobData, unknown>> | null;
  if (
    typeof job.id !== 'string' ||
    typeof data !== 'object' ||
    data === null ||
    typeof data.tool !== 'string' ||
    typeof data.callId !== 'string' ||
    typeof data.params !== 'object' ||
    data.params === null ||
    typeof data.context !== 'object' ||
    data.context === null
  )
    return 'malformed';
  if (data.signature === undefined && allowUnauthenticated) return undefined;
  const problem = verifyEnvelope(
    { jobId: job.id, name: job.name, data: data, options: job.opts },
    data.signature,
    ring,
  );
  if (problem !== undefined) return problem;
  return typeof data.expiresAt === 'number' && now <= data.expiresAt ? undefined : 'expired';
}

/** Transformations as a job stores them: sensitive values redacted, argument-text rules without the text. */
export function storedTransformations(
  transformations: readonly Transformation[],
  sensitive: ReadonlySet<string>,
): Transformation[] {
  return redactTransformations(transformations, sensitive).map((transformation) =>
    transformation.path === ''
      ? { ...transformation, from: ARGUMENTS_TEXT_OMITTED, to: ARGUMENTS_TEXT_OMITTED }
      : transformation,
  );
}

/** Puts the sealed values back at their exact paths (only where the job holds the redaction marker). */
export function restoreSensitive(
  params: Record<string, unknown>,
  secrets: ReadonlyArray<readonly [readonly (string | number)[], unknown]>,
): Record<string, unknown> {
  for (const [path, value] of secrets) {
    let target: unknown = params;
    for (let index = 0; index < path.length - 1; index++) {
      if (typeof target !== 'object' || target === null) break;
      target = Object.hasOwn(target, path[index]!)
        ? (target as Record<string | number, unknown>)[path[index]!]
        : undefined;
    }
    const last = path[path.length - 1];
    if (
      typeof target === 'object' &&
      target !== null &&
      last !== undefined &&
      Object.hasOwn(target, last) &&
      (target as Record<string | number, unknown>)[last] === REDACTED
    ) {
      defineValue(target as Record<string | number, unknown>, last, value);
    }
  }
  return params;
}

/** A prepared call's parameters need a key to travel: refused before anything reaches Redis. */
export class SealingKeyMissingError extends Error {
  override readonly name = 'SealingKeyMissingError';
  constructor(readonly tool: string) {
    super(
      `The tool "${tool}" has parameters marked sensitive, and this QueuedToolExecutor has no sealingKey: its values would ` +
        'be stored in Redis in clear. Give the same 32-byte `sealingKey` to QueuedToolExecutor and createToolWorker.',
    );
  }
}

function extractSensitive(
  value: unknown,
  sensitive: ReadonlySet<string>,
  path: readonly (string | number)[],
  folded: string,
  secrets: Array<[readonly (string | number)[], unknown]>,
): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value))
    return value.map((item, index) => extractSensitive(item, sensitive, [...path, index], `${folded}[]`, secrets));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const itemPath = folded === '' ? key : `${folded}.${key}`;
    if (sensitive.has(itemPath)) {
      secrets.push([[...path, key], item]);
      defineValue(copy, key, REDACTED);
    } else {
      defineValue(copy, key, extractSensitive(item, sensitive, [...path, key], itemPath, secrets));
    }
  }
  return copy;
}

/** A JSON copy (Dates become ISO strings, class instances plain objects); model-chosen keys set with defineProperty. */
function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? 'null', (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item)) defineValue(copy, key, entry);
    return copy;
  });
}

function defineValue(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
