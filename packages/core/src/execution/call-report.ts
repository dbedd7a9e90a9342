import { HandlerError } from '../errors/handler-error';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { ToolCallError } from '../errors/tool-call-error';
import type { Logger } from '../logging/logger';
import { messages } from '../pipeline/messages';
import { checkToolResult, resultInvalidError } from '../result-check/check-tool-result';
import { buildModelOutput } from '../result-view/model-output';
import type { ModelOutput } from '../types/content';
import { redactTransformations, sensitivePaths } from '../pipeline/redaction';
import type { ToolDefinition } from '../types/definition';
import type { ExecutionContext, ToolCall, ToolResult } from '../types/execution';
import { logCallOutcome } from './call-logging';
import type { PrepareResult } from './prepared-call';
import { describeThrown } from './fault-tolerance';
import { logSafeName } from './log-text';
import { PreparationFailure, type CompiledCall } from './prepare-arguments';
import type { ToolTelemetry } from './telemetry';
import type { TransformationStats } from './transformation-stats';

/**
 * Step 8 of a call: its `ToolResult`, counted in the stats, logged and recorded by telemetry. A logger or a telemetry
 * pipeline that throws never turns the call's outcome into another one.
 */
export class CallReport {
  constructor(
    private readonly logger: Logger,
    private readonly stats: TransformationStats,
    private readonly telemetry: ToolTelemetry | undefined,
    /** The executor's result budget (`resultBudgetChars`); a tool's own option overrides it. */
    private readonly resultBudgetChars: number,
  ) {}

  /** The handler returned `value` (the slow-call warning counts from `handlerStarted`). */
  succeeded(
    value: unknown,
    prepared: CompiledCall,
    context: ExecutionContext,
    started: number,
    handlerStarted: number,
  ): ToolResult {
    // A declared output schema: the result is checked (never repaired); a mismatch is a RESULT_INVALID failure.
    if (prepared.definition.output !== undefined) {
      const mismatches = checkToolResult(prepared.definition, value);
      if (mismatches.length > 0)
        return this.handlerFailed(resultInvalidError(prepared.tool, mismatches), prepared, context, started);
    }
    // The model's view (docs/results.md): checked value first, then `toModelOutput`, then the budget.
    let modelOutput: ModelOutput | undefined;
    try {
      modelOutput = buildModelOutput(
        prepared.definition,
        prepared.callId,
        value,
        prepared.definition.options.resultBudgetChars ?? this.resultBudgetChars,
      );
    } catch (error) {
      return this.handlerFailed(error, prepared, context, started);
    }
    if (modelOutput?.truncation !== undefined) {
      const cut = modelOutput.truncation;
      this.logger.warn(
        `tool result cut to budget: ${prepared.tool} sent ${cut.sentChars} of ${cut.originalChars} characters (budget ${cut.budgetChars})`,
        {
          tool: prepared.tool,
          callId: prepared.callId,
          budgetChars: cut.budgetChars,
          originalChars: cut.originalChars,
          sentChars: cut.sentChars,
          itemsLeftOut: cut.itemsLeftOut,
          charsLeftOut: cut.charsLeftOut,
          keysLeftOut: cut.keysLeftOut,
        },
      );
    }
    const ended = performance.now();
    const elapsed = ended - handlerStarted;
    const slowCallMs = prepared.compiled.slowCallMs;
    if (elapsed > slowCallMs) {
      this.logger.warn(`slow tool call: ${prepared.tool} took ${Math.round(elapsed)} ms (threshold ${slowCallMs} ms)`, {
        tool: prepared.tool,
        callId: prepared.callId,
        durationMs: elapsed,
      });
    }
    // Two literals, not a spread: a spread in the literal costs every call an extra object and a slower copy.
    const result =
      modelOutput === undefined
        ? ({
            callId: prepared.callId,
            tool: prepared.tool,
            ok: true,
            value,
            transformations: prepared.transformations,
            durationMs: ended - started,
          } as const)
        : ({
            callId: prepared.callId,
            tool: prepared.tool,
            ok: true,
            value,
            modelOutput,
            transformations: prepared.transformations,
            durationMs: ended - started,
          } as const);
    return this.finish(result, undefined, context, prepared.definition);
  }

  /** The handler failed, timed out or was cancelled (a thrown non-ToolCallError becomes a HANDLER_ERROR). */
  handlerFailed(error: unknown, prepared: CompiledCall, context: ExecutionContext, started: number): ToolResult {
    const callError =
      error instanceof ToolCallError
        ? error
        : new HandlerError(messages.handlerFailed(prepared.tool), { cause: error });
    const result = {
      callId: prepared.callId,
      tool: prepared.tool,
      ok: false,
      error: callError.toPayload(),
      transformations: prepared.transformations,
      durationMs: performance.now() - started,
    } as const;
    return this.finish(result, callError, context, prepared.definition);
  }

  /** Steps 1-6 refused the call (`definition`: the tool's, when the name resolved). */
  preparationFailed(
    error: unknown,
    call: ToolCall,
    context: ExecutionContext,
    started: number,
    definition: (name: string) => ToolDefinition | undefined,
  ): ToolResult {
    const failure = asPreparationFailure(error, call);
    const result = {
      callId: typeof call?.id === 'string' ? call.id : '',
      tool: failure.tool,
      ok: false,
      error: failure.error.toPayload(),
      transformations: failure.transformations,
      durationMs: performance.now() - started,
    } as const;
    return this.finish(result, failure.error, context, definition(failure.tool));
  }

  /** The result when something failed outside every typed path: a generic HANDLER_ERROR, logged without throwing. */
  lastResort(call: ToolCall, error: unknown, started: number): ToolResult {
    const callId = safely(() => (typeof call?.id === 'string' ? call.id : ''), '');
    const tool = safely(() => (typeof call?.name === 'string' ? call.name : ''), '');
    const failure = new HandlerError(messages.handlerFailed(logSafeName(tool)), { cause: error });
    safely(
      () =>
        this.logger.error(`tool call ${logSafeName(tool)} failed: ${failure.code}`, {
          tool: logSafeName(tool),
          callId,
          outcome: failure.code,
          cause: describeThrown(error),
        }),
      undefined,
    );
    return {
      callId,
      tool,
      ok: false,
      error: failure.toPayload(),
      transformations: [],
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    };
  }

  /** Counts, logs and records a finished result (also the approval outcomes of `./approval`), and returns it. */
  finish(
    result: ToolResult,
    error: ToolCallError | undefined,
    context: ExecutionContext,
    definition: ToolDefinition | undefined,
  ): ToolResult {
    // Every caller builds `result` for this call only: its duration is rounded in place.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the result is ours to finish: durationMs is written once, here
    const finished = result as { durationMs: number; transformations: ToolResult['transformations'] } & ToolResult;
    finished.durationMs = Math.round(result.durationMs * 1000) / 1000;
    // Sensitive values never leave in clear: not in the result's transformations, so neither in the logs and stats.
    // Looked up only when something may carry a value: a transformation, or a refusal's issues (logged below).
    const sensitive =
      definition !== undefined && (finished.transformations.length > 0 || error?.family === 'input')
        ? sensitivePaths(definition.parameters)
        : undefined;
    if (finished.transformations.length > 0) {
      if (sensitive !== undefined && sensitive.size > 0)
        finished.transformations = redactTransformations(finished.transformations, sensitive);
      this.stats.record(finished.tool, finished.transformations, context.model);
    }
    try {
      logCallOutcome(this.logger, finished, error, sensitive);
    } catch {
      // ignored: see the class comment
    }
    if (this.telemetry !== undefined) {
      try {
        this.telemetry.recordCall(finished, error, context);
      } catch {
        // ignored: see the class comment
      }
    }
    return finished;
  }
}

/** Any failure of steps 1-6 as a PreparationFailure: anything unexpected is still a typed, model-safe error. */
export function asPreparationFailure(error: unknown, call: ToolCall): PreparationFailure {
  if (error instanceof PreparationFailure) return error;
  const tool = typeof call?.name === 'string' ? call.name : '';
  // The cause is logged, never sent.
  return new PreparationFailure(
    new InvalidArgumentsError(
      "The arguments could not be processed; check them against the tool's parameters and call again.",
      { cause: error },
    ),
    tool,
    [],
  );
}

/** `executor.prepare`'s answer for a call steps 1-6 refused. */
export function refusedPreparation(error: unknown, call: ToolCall): PrepareResult {
  const failure = asPreparationFailure(error, call);
  return {
    ok: false,
    callId: typeof call?.id === 'string' ? call.id : '',
    tool: failure.tool,
    error: failure.error.toPayload(),
    transformations: failure.transformations,
  };
}

function safely<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}
