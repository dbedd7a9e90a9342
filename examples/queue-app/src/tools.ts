import 'reflect-metadata';
import {
  Command,
  ToolParam,
  type CommandHandler,
  type ToolInvocationContext,
  type ToolRegistry,
} from '@toolwright/core';
import { createPersonaRegistry } from '@toolwright/example-persona-app/commands';
import { injectable } from 'tsyringe';

/** A service the report command gets by constructor injection (resolved on the worker, per job). */
@injectable()
export class ReportRenderer {
  async render(
    topic: string,
    pages: number,
    signal: AbortSignal,
  ): Promise<{ topic: string; pages: number; bytes: number }> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, pages * 100);
      /* eslint-disable @typescript-eslint/prefer-promise-reject-errors -- rejects with whatever reason the caller gave abort() */
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
      /* eslint-enable @typescript-eslint/prefer-promise-reject-errors */
    });
    return { topic, pages, bytes: pages * 2_048 };
  }
}

export class RenderReportParams {
  @ToolParam({ description: 'What the report is about' }) topic!: string;
  @ToolParam({ description: 'How many pages', type: 'int', min: 1, max: 50 }) pages!: number;
}

/** A long-running tool: a caller that does not wait gets a pending handle and asks `tool_job_status` later. */
@Command({
  name: 'render_report',
  description: 'Render a PDF report (takes a while).',
  params: RenderReportParams,
  timeoutMs: 10_000,
  slowCallMs: 10_000,
  queue: { attempts: 3, backoff: { type: 'exponential', delayMs: 500 }, priority: 10 },
})
export class RenderReportCommand implements CommandHandler<RenderReportParams, unknown> {
  constructor(private readonly renderer: ReportRenderer) {}

  async execute(params: RenderReportParams, invocation: ToolInvocationContext) {
    return {
      ...(await this.renderer.render(params.topic, params.pages, invocation.signal)),
      job: invocation.context.jobId,
      worker: process.pid,
    };
  }
}

/** The same registry in the API process (to validate) and in every worker (to run). */
export function createQueueAppRegistry(): ToolRegistry {
  const registry = createPersonaRegistry();
  registry.register(RenderReportCommand);
  return registry;
}

export function redisConnection() {
  const port = Number(process.env.REDIS_PORT ?? 6379);
  return { host: process.env.REDIS_HOST ?? '127.0.0.1', port, maxRetriesPerRequest: null };
}
