import type { CoercionPolicy } from '../types/schema';
import type { Logger } from '../logging/logger';
import type { PipelineLimits } from '../pipeline/limits';
import type { ApprovalOptions } from './approval';
import type { CommandResolver } from '../types/handler';
import type { ToolTelemetry } from './telemetry';
import type { TransformationStats } from './transformation-stats';

export interface PersonaToolExecutorOptions {
  /** Default coercion policy; a command's and a parameter's `coercion` option override it. Default `'safe'`. */
  readonly coercion?: CoercionPolicy;
  /** @deprecated Renamed `coercion` (the name the command and parameter options use); `coercion` wins when both are given. */
  readonly policy?: CoercionPolicy;
  /** Where warnings, errors and (when enabled) per-call debug events go. Default `defaultLogger` (stderr, warn and up). */
  readonly logger?: Logger;
  /**
   * Gets the instance that runs a `@Command` class for one call: `(commandClass, invocation) => instance | Promise`.
   * Default: `tsyringeCommandResolver()` over tsyringe's root container (`tsyringeCommandResolver(myContainer)` for
   * another one); `@toolwright/nestjs` resolves through Nest's container.
   */
  readonly resolveCommand?: CommandResolver;
  readonly limits?: Partial<PipelineLimits>;
  /** Handler timeout when the command sets none. Default 30,000 ms. */
  readonly timeoutMs?: number;
  /** Slow-call warning threshold when the command sets none. Default 1,000 ms. */
  readonly slowCallMs?: number;
  /** Where the transformation counts go (how often each repair fired, per tool and model). */
  readonly stats?: TransformationStats;
  /**
   * `'compiled'` (default): one compiled pass normalizes and checks every IR constraint; class-validator rules the IR
   * cannot say run for their class only. `'reference'`: the normalizer then class-transformer + class-validator, the
   * reference semantics the compiled path is tested against.
   */
  readonly validation?: 'compiled' | 'reference';
  /**
   * @internal `false`: every call goes through the normalizer, also when the generated check finds its arguments
   * already valid and canonical (the differential test's reference). Default `true`.
   */
  readonly canonicalFastPath?: boolean;
  /**
   * OpenTelemetry spans and metrics per call (docs/observability.md). Default: `@opentelemetry/api`'s global providers
   * when the package is installed (nothing is built while none is registered); `false`: none.
   */
  readonly telemetry?: ToolTelemetry | false;
  /**
   * When each tool's plan is compiled (its canonical check, DTO instantiator and the rest of what a call runs):
   * `'first-call'` (default: a tool never called costs nothing), or `'registration'`: every tool registered when the
   * executor is built, and each tool registered later as it is registered, so that no call pays for compiling (flat
   * latency from the first request; `@toolwright/nestjs` sets it). `executor.compileAll()` compiles once, on demand.
   */
  readonly compile?: 'first-call' | 'registration';
  /**
   * Human approval of the calls of tools with an `approval` option (docs/approval.md): where pending approvals wait
   * (default: in memory, bounded), how long (default 1 hour), and `canApprove` to refuse approvers without the right.
   */
  readonly approvals?: ApprovalOptions;
  /**
   * The result budget (docs/results.md): the most characters of text and JSON one result may put before the model.
   * Default 80,000 characters (about 20,000 tokens); a tool's `resultBudgetChars` overrides it; `Infinity`: none. A
   * larger result reaches the model cut, well-formed and with a note; `ToolResult.value` stays whole.
   */
  readonly resultBudgetChars?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_SLOW_CALL_MS = 1_000;

export type { PreparedCall, PrepareResult } from './prepared-call';

export interface ExecuteAllOptions {
  /** How many calls run at once. Default 4. */
  readonly concurrency?: number;
}
