import type { ToolInvocationContext, ToolRegistry, ToolResult } from '@toolwright/core';
import { Job, type Queue } from 'bullmq';
import { ownerOf, type ToolJobData } from './job-data';
import type { SealingKey } from './sealing';

export const JOB_STATUS_TOOL_NAME = 'tool_job_status';

export type JobStatusValue =
  | { readonly job_id: string; readonly status: 'pending' | 'running' }
  | { readonly job_id: string; readonly status: 'completed'; readonly result: unknown }
  | { readonly job_id: string; readonly status: 'failed'; readonly error: string }
  | { readonly job_id: string; readonly status: 'unknown'; readonly message: string };

/**
 * Registers `tool_job_status`: a model asks for a pending call's result by job id. A caller sees only the jobs it
 * enqueued: a job whose owner (a keyed hash of the enqueuing caller's trusted context: session, persona,
 * `handlerConfig`, ...; see `ToolJobData.owner`) differs from the asking caller's reads as unknown, as a made-up id
 * does. `sealingKey`: the producers' (it keys the hash).
 */
export function registerJobStatusTool(
  registry: ToolRegistry,
  queue: Queue<ToolJobData, ToolResult>,
  sealingKey?: SealingKey,
): void {
  if (registry.has(JOB_STATUS_TOOL_NAME)) return;
  registry.registerJsonSchemaTool(
    {
      name: JOB_STATUS_TOOL_NAME,
      description:
        'Get the status, and when finished the result, of a tool call that is still running as a job (a result with "status": "pending" gives its job_id).',
      parameters: {
        type: 'object',
        properties: {
          job_id: { type: 'string', description: 'The job_id of the pending call', minLength: 1, maxLength: 256 },
        },
        required: ['job_id'],
        additionalProperties: false,
      },
    },
    async (params: Record<string, unknown>, invocation: ToolInvocationContext): Promise<JobStatusValue> => {
      const jobId = String(params.job_id);
      const unknown: JobStatusValue = {
        job_id: jobId,
        status: 'unknown',
        message: `There is no job "${jobId}" for this caller.`,
      };
      const job = await Job.fromId<ToolJobData, ToolResult>(queue, jobId);
      if (!job || typeof job.data.owner !== 'string' || job.data.owner !== ownerOf(invocation.context, sealingKey))
        return unknown;
      const state = await job.getState();
      if (state === 'completed') {
        const result = job.returnvalue;
        if (result?.ok) return { job_id: jobId, status: 'completed', result: result.value };
        return {
          job_id: jobId,
          status: 'failed',
          error: result && !result.ok ? result.error.message : 'The call failed.',
        };
      }
      if (state === 'failed') {
        const stored = job.data.result;
        return {
          job_id: jobId,
          status: 'failed',
          error: stored && !stored.ok ? stored.error.message : 'The call could not finish running.',
        };
      }
      return { job_id: jobId, status: state === 'active' ? 'running' : 'pending' };
    },
    { timeoutMs: 5_000, annotations: { readOnlyHint: true, idempotentHint: true } },
  );
}
