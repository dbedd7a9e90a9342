import type { ExecutionContext, PersonaContext, ToolDefinition, ToolResult, Transformation } from '@toolwright/core';
import { REDACTED, redactTransformations, sensitivePaths } from '@toolwright/core/internal';
import { fingerprint, seal, type SealingKey } from './sealing';

/** What a job holds in Redis: never the raw model text, never a sensitive value in clear. */
export interface ToolJobData {
  readonly format: 1;
  readonly callId: string;
  readonly tool: string;
  /** The validated parameters as plain JSON, without trusted-context fields; sensitive values are `[redacted]`. */
  readonly params: Record<string, unknown>;
  /** The sensitive values, sealed with AES-256-GCM (see `sealing.ts`); absent when the call carries none. */
  readonly sealed?: string;
  /** The producer's transformations, redacted, with the arguments text itself left out. */
  readonly transformations: readonly Transformation[];
  /** The serializable part of the trusted execution context. */
  readonly context: QueuedContext;
  readonly enqueuedAt: number;
  /**
   * What makes this call this call: tool, parameters (sensitive ones included) and session, hashed (HMAC with the
   * sealing key when there is one). A job id that is reused by a different call is detected by it.
   */
  readonly fingerprint: string;
  /** Set by the worker when the job fails for good: the model-facing result (the dead-letter view reads it). */
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
  ] as const;
  for (const key of keys) if (context[key] !== undefined) copy[key] = toJson(context[key]);
  if (context.now instanceof Date && !Number.isNaN(context.now.getTime())) copy.now = context.now.toISOString();
  return copy;
}

/** The execution context a worker runs the job with: the queued part, the job's own id, the worker's signal. */
export function contextForJob(queued: QueuedContext, jobId: string, signal: AbortSignal | undefined): ExecutionContext {
  const { now, ...rest } = queued;
  return { ...rest, jobId, ...(now !== undefined ? { now: new Date(now) } : {}), ...(signal ? { signal } : {}) };
}

export interface BuiltJobData {
  readonly data: ToolJobData;
  /** Whether the call carries a sensitive value (so a sealing key is needed). */
  readonly needsKey: boolean;
}

/**
 * Turns a prepared call into job data: trusted-context fields removed (the worker injects them again from the job),
 * sensitive values moved into `sealed`, transformations redacted. Throws `SealingKeyMissingError` when a sensitive
 * value is present and no key is configured.
 */
export function buildJobData(
  definition: ToolDefinition,
  callId: string,
  params: Record<string, unknown>,
  transformations: readonly Transformation[],
  context: ExecutionContext,
  key: SealingKey | undefined,
): ToolJobData {
  const contextProperties = new Set(
    definition.parameters.properties
      .filter((property) => property.context !== undefined)
      .map((property) => property.name),
  );
  const plain = toJson(params) as Record<string, unknown>;
  const withoutContext: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plain))
    if (!contextProperties.has(name)) defineValue(withoutContext, name, value);
  const sensitive = sensitivePaths(definition.parameters);
  const secrets: Array<[readonly (string | number)[], unknown]> = [];
  const redactedParams =
    sensitive.size === 0
      ? withoutContext
      : (extractSensitive(withoutContext, sensitive, [], '', secrets) as Record<string, unknown>);
  let sealed: string | undefined;
  if (secrets.length > 0) {
    if (key === undefined) throw new SealingKeyMissingError(definition.name);
    sealed = seal(JSON.stringify(secrets), key);
  }
  return {
    format: 1,
    callId,
    tool: definition.name,
    params: redactedParams,
    ...(sealed !== undefined ? { sealed } : {}),
    transformations: storedTransformations(transformations, sensitive),
    context: queuedContext(context),
    enqueuedAt: Date.now(),
    fingerprint: fingerprint(JSON.stringify([definition.name, withoutContext, context.sessionId ?? null]), key),
  };
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
