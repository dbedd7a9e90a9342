import type { ToolErrorPayload, ToolResult, Transformation } from '@toolwright/core';

/** The value a caller gets when the job did not finish within its wait: the model is told to check back. */
export interface PendingToolValue {
  readonly status: 'pending';
  readonly job_id: string;
  readonly message: string;
}

export function pendingResult(
  callId: string,
  tool: string,
  jobId: string,
  statusTool: string,
  transformations: readonly Transformation[],
  durationMs: number,
): ToolResult<PendingToolValue> {
  return {
    callId,
    tool,
    ok: true,
    value: {
      status: 'pending',
      job_id: jobId,
      message: `The call is still running as job "${jobId}". Call ${statusTool} with {"job_id": "${jobId}"} later for its result; do not call ${tool} again for it.`,
    },
    transformations,
    durationMs,
  };
}

export function failedResult(
  callId: string,
  tool: string,
  error: ToolErrorPayload,
  transformations: readonly Transformation[],
  durationMs: number,
): ToolResult {
  return { callId, tool, ok: false, error, transformations, durationMs };
}

/** A job that failed outside the handler (stalled too often, removed, Redis lost it): a generic, model-safe error. */
export function infrastructureError(tool: string): ToolErrorPayload {
  return {
    code: 'SERVICE_UNAVAILABLE',
    message: `The tool "${tool}" could not finish running (the job queue failed). Try again later.`,
    issues: [],
    retryable: false,
  };
}

export function configurationError(tool: string): ToolErrorPayload {
  return {
    code: 'HANDLER_ERROR',
    message: `The tool "${tool}" cannot run in this session (its job queue is not configured for it). Do not retry it.`,
    issues: [],
    retryable: false,
  };
}

/** The producer's in-memory transformations first (complete), then any the worker added. */
export function withTransformations(
  result: ToolResult,
  producer: readonly Transformation[],
  durationMs: number,
): ToolResult {
  const transformations = [...producer, ...result.transformations];
  return { ...result, transformations, durationMs };
}
