import { inject, injectable } from 'tsyringe';
import { CancelledError } from '../errors/cancelled-error';
import { ToolCallError } from '../errors/tool-call-error';
import { ToolRegistry } from '../registry/tool-registry';
import { ToolCompiler } from '../registry/tool-compiler';
import { printToolPlan } from '../compile/tool-plan';
import { HotTier } from '../compile/hot-tier';
import { synthesizeDtosOnRegistration } from '../validation/synthesize-dto';
import type { ToolDefinition } from '../types/definition';
import type { ApprovalDecision, ExecutionContext, ToolCall, ToolResult, ToolResultOf } from '../types/execution';
import { DEFAULT_LIMITS } from '../pipeline/limits';
import { messages } from '../pipeline/messages';
import { defaultLogger, type Logger } from '../logging/logger';
import {
  awaitHandler,
  CallInvocation,
  classifiedOrUnreadable,
  isThenable,
  preparesQuickly,
  type HandlerSettlement,
} from './run-handler';
import { tsyringeCommandResolver, type CommandResolver } from './command-resolution';
import { defaultToolTelemetry } from './telemetry';
import { EXECUTOR_OPTIONS } from './tokens';
import { TransformationStats } from './transformation-stats';
import { checkExecuteAllArguments, checkExecutorOptions } from './fault-tolerance';
import {
  DEFAULT_SLOW_CALL_MS,
  DEFAULT_TIMEOUT_MS,
  type ExecuteAllOptions,
  type PersonaToolExecutorOptions,
  type PrepareResult,
} from './executor-options';
import {
  ArgumentPreparation,
  CompiledCall,
  isSettled,
  PreparationFailure,
  type Preparation,
} from './prepare-arguments';
import { DEFAULT_RESULT_BUDGET_CHARS } from '../result-view/result-budget';
import { CallReport, refusedPreparation } from './call-report';
import { prepareCall } from './call-resolution';
import { streamedCall, type StreamedCall } from './streamed-call';
import { ApprovalGate, approvedCall, plainParams, sameJson, type CallPermit } from './approval';
import { warmUpCallPath } from './warm-up';

/** A call whose handler returned a promise: what the executor's settlement needs to finish it (one object, no closures). */
class PendingCall {
  constructor(
    readonly prepared: CompiledCall,
    readonly call: ToolCall,
    readonly context: ExecutionContext,
    readonly started: number,
    readonly handlerStarted: number,
  ) {}
}

/**
 * Takes whatever the model sent and returns a result or an error the model can act on. Steps (DESIGN section 3):
 * 1 resolve the name, 2 check the persona, 3 parse the arguments text, 4 normalize against the IR,
 * 5 drop model-supplied context and inject trusted context, 6 validate, 7 run the handler, 8 build the result.
 * Steps 3-6 run the tool's compiled plan (`compile/tool-plan.ts`, built by the `ToolCompiler` of `registry/tool-compiler.ts`) in
 * `./prepare-arguments.ts`; step 8 is `./call-report.ts`. Never throws for anything a model can send.
 */
@injectable()
export class PersonaToolExecutor {
  readonly stats: TransformationStats;
  private readonly resolveCommand: CommandResolver;
  private readonly compiler: ToolCompiler;
  private readonly preparation: ArgumentPreparation;
  private readonly report: CallReport;
  private readonly logger: Logger;
  /** Human approval (docs/approval.md): its store, and what `@toolwright/queue` files and claims approvals with. */
  readonly approvals: ApprovalGate;
  /** Finishes a call whose handler returned a promise (one object per executor: a call makes no closures for it). */
  private readonly settlement: HandlerSettlement<PendingCall, ToolResult> = {
    value: (pending, settled) => {
      try {
        return this.report.succeeded(
          settled,
          pending.prepared,
          pending.context,
          pending.started,
          pending.handlerStarted,
        );
      } catch (error) {
        return this.report.lastResort(pending.call, error, pending.started);
      }
    },
    failure: (pending, error) => {
      try {
        return this.report.handlerFailed(error, pending.prepared, pending.context, pending.started);
      } catch (failure) {
        return this.report.lastResort(pending.call, failure, pending.started);
      }
    },
  };

  constructor(
    @inject(ToolRegistry) private readonly registry: ToolRegistry,
    @inject(EXECUTOR_OPTIONS, { isOptional: true }) options: PersonaToolExecutorOptions = {},
  ) {
    checkExecutorOptions(options);
    this.logger = options.logger ?? defaultLogger;
    this.resolveCommand = options.resolveCommand ?? tsyringeCommandResolver();
    this.stats = options.stats ?? new TransformationStats();
    const validation = options.validation ?? 'compiled';
    // The reference path validates through each tool's class-validator DTO: build those at registration for it only.
    if (validation === 'reference') synthesizeDtosOnRegistration(registry);
    const telemetry = options.telemetry === false ? undefined : (options.telemetry ?? defaultToolTelemetry());
    this.compiler = new ToolCompiler(registry, {
      policy: options.coercion ?? options.policy ?? 'safe',
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      validation,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      slowCallMs: options.slowCallMs ?? DEFAULT_SLOW_CALL_MS,
      canonicalFastPath: options.canonicalFastPath !== false,
      hotTier: new HotTier(),
    });
    this.preparation = new ArgumentPreparation(registry, this.logger, this.stats);
    this.report = new CallReport(
      this.logger,
      this.stats,
      telemetry,
      options.resultBudgetChars ?? DEFAULT_RESULT_BUDGET_CHARS,
    );
    this.approvals = new ApprovalGate(options.approvals ?? {}, this.logger, (...outcome) =>
      this.report.finish(...outcome),
    );
    // A call reads the clock through `performance`, which Node loads on its first use (perf_hooks, about 2 ms of CPU):
    // loaded here, at startup, rather than by the first call (ADR 0027).
    performance.now();
    if (options.compile === 'registration') {
      this.compileAll();
      this.compiler.compileOnRegistration();
    }
  }

  /** The tools this executor runs (what a tool loop offers the model). */
  tools(): readonly ToolDefinition[] {
    return this.registry.list();
  }

  /** How many retries the tool loop allows for a tool: its `@Command({ retries })`, if set. */
  retriesFor(tool: string): number | undefined {
    return this.registry.get(tool)?.options.retries;
  }

  /**
   * Compiles every registered tool's plan now (a tool is otherwise compiled on its first call) and warms the shared
   * call path once per process (`./warm-up.ts`), so that the first calls cost what later ones do; returns how many
   * tools are registered. `compile: 'registration'` does this at construction and for every tool registered later.
   */
  compileAll(): number {
    return this.compiler.compileAll((settings) => warmUpCallPath(settings, PersonaToolExecutor));
  }

  /**
   * A tool's plan as text (compiled now if it is not yet): what `toolwright inspect --code <tool>` prints. Empty on
   * the reference validation path, which has no plan of its own; `undefined` for an unknown tool.
   */
  generatedCode(tool: string): string | undefined {
    const entry = this.registry.getEntry(tool);
    return entry === undefined ? undefined : printToolPlan(this.compiler.compiledFor(entry));
  }

  /**
   * Runs one call through the whole pipeline. Total: whatever the call, the handler or the logger does, it resolves.
   * Give the command class as the type argument for a typed value (`execute<typeof PlaceOrderCommand>(call)` resolves
   * to `ToolResult<Order>`): the type is not checked against `call.name`, the value is checked against the command's
   * `returns` at run time.
   */
  execute<C = unknown>(call: ToolCall, context?: ExecutionContext): Promise<ToolResultOf<C>>;
  execute(call: ToolCall, context: ExecutionContext = {}): Promise<ToolResult> {
    // Two clock reads per call (decision 0021): its start and its end. The handler's start (its timeout and the
    // slow-call warning) is the call's start when steps 1-6 ran synchronously on short text, a third read otherwise.
    const started = performance.now();
    let outcome: ToolResult | Promise<ToolResult>;
    try {
      outcome = this.executeOrThrow(call, context, started, undefined);
    } catch (error) {
      return Promise.resolve(this.report.lastResort(call, error, started));
    }
    // A promise from executeOrThrow never rejects (each of its asynchronous steps ends in lastResort): one promise per
    // call, returned as it is.
    // The executor's results are plain objects and its promises native ones: `instanceof` decides without a `then` lookup
    // (a promise of another implementation would be adopted by Promise.resolve: the same outcome).
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /**
   * Synchronous as far as the call allows: a promise only when a step (validation, the handler) is asynchronous, and
   * that promise never rejects. Throws only from its synchronous part (execute() turns that into lastResort).
   */
  private executeOrThrow(
    call: ToolCall,
    context: ExecutionContext,
    started: number,
    permit: CallPermit | undefined,
  ): ToolResult | Promise<ToolResult> {
    let prepared: Preparation | Promise<Preparation>;
    try {
      prepared = this.prepareOrThrow(call, context);
    } catch (error) {
      return this.failed(error, call, context, started);
    }
    if (!isSettled(prepared)) {
      return prepared.then(
        (ready) => {
          try {
            // Preparation awaited something (an async rule, a cross-field check): the handler starts now.
            return this.invokeOrFail(ready, call, context, started, undefined, permit);
          } catch (error) {
            return this.report.lastResort(call, error, started);
          }
        },
        (error: unknown) => {
          try {
            return this.failed(error, call, context, started);
          } catch (failure) {
            return this.report.lastResort(call, failure, started);
          }
        },
      );
    }
    // Steps 1-6 ran in this synchronous run: on short text they took microseconds, and the call's start serves as the
    // handler's (one clock read fewer); on long text or an object they may have taken milliseconds: the clock is read.
    const quick = prepared instanceof CompiledCall && preparesQuickly(call);
    return this.invokeOrFail(prepared, call, context, started, quick ? started : undefined, permit);
  }

  /**
   * Runs one call decided elsewhere, under a permit from `approvals.bind` (trusted code only: a queue worker, an
   * adapter whose framework asked the person): the call is prepared as `execute` prepares it, then runs only if the
   * permit is unused and names it (its id, tool and, when bound, its exact parameters); an approved binding runs it
   * without asking again. The permit is used up by this call: the handler never holds it, and any call it makes
   * itself is asked about like any other.
   */
  executeBound(call: ToolCall, context: ExecutionContext, permit: CallPermit): Promise<ToolResult> {
    const started = performance.now();
    let outcome: ToolResult | Promise<ToolResult>;
    try {
      outcome = this.executeOrThrow(call, context, started, permit);
    } catch (error) {
      return Promise.resolve(this.report.lastResort(call, error, started));
    }
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /** `handlerStarted`: the handler's start when the call's start serves as it, `undefined` to read the clock. */
  private invokeOrFail(
    prepared: Preparation,
    call: ToolCall,
    context: ExecutionContext,
    started: number,
    handlerStarted: number | undefined,
    permit: CallPermit | undefined,
  ): ToolResult | Promise<ToolResult> {
    if (prepared instanceof PreparationFailure) return this.failed(prepared, call, context, started);
    let approved = false;
    if (permit !== undefined) {
      const binding = this.approvals.redeem(permit, prepared);
      if (binding instanceof ToolCallError) return this.report.handlerFailed(binding, prepared, context, started);
      approved = binding.approved;
    }
    // One field check for tools without approval; a tool with one asks a person first (./approval).
    if (prepared.definition.options.approval !== undefined && !approved)
      return this.approvals.runOrAsk(
        prepared,
        context,
        started,
        () => this.invokeAndFinish(prepared, call, context, started, performance.now()),
        (error) => this.report.lastResort(call, error, started),
      );
    return this.invokeAndFinish(prepared, call, context, started, handlerStarted ?? performance.now());
  }

  /**
   * A person's decision on a pending approval (docs/approval.md): approved, the handler runs with the validated
   * parameters and trusted context the call was approved with, and the result is the call's `ToolResult`; denied, an
   * `APPROVAL_DENIED` result for the model. An unknown, expired or used id resolves to `APPROVAL_NOT_FOUND` and runs nothing.
   */
  async resolveApproval(id: string, decision: ApprovalDecision): Promise<ToolResult> {
    const claim = await this.approvals.claim(id, decision, (tool) => this.registry.get(tool));
    if (!claim.granted) return claim.result;
    const { approval, context } = claim;
    const entry = approval.revalidate ? undefined : this.registry.getEntry(approval.tool);
    const call: ToolCall = { id: approval.callId, name: approval.tool, arguments: approval.params };
    const started = performance.now();
    let result: ToolResult;
    if (entry === undefined) {
      // Serialized (another process, Redis): the values the parameters were built from are prepared again, and the
      // handler runs only with the parameters the person approved (a `@Transform` is applied once, to the model's value).
      const definition = this.registry.get(approval.tool);
      const approved = definition === undefined ? undefined : plainParams(definition, approval.params, false);
      const permit = this.approvals.bind({
        callId: approval.callId,
        tool: approval.tool,
        approved: true,
        accepts: (params) => approved !== undefined && sameJson(params, approved),
      });
      result = await this.executeBound(
        { ...call, arguments: approval.input ?? approval.params, transformations: approval.transformations },
        context,
        permit,
      );
    } else {
      result = await this.invokeAndFinish(
        approvedCall(approval, this.compiler.compiledFor(entry)),
        call,
        context,
        started,
        started,
      );
    }
    return { ...result, approval: claim.outcome };
  }

  private failed(error: unknown, call: ToolCall, context: ExecutionContext, started: number): ToolResult {
    return this.report.preparationFailed(error, call, context, started, (tool) => this.registry.get(tool));
  }

  /** Step 7 with the compiled entry the call started with, then step 8: the result, or a promise of it that never rejects. */
  private invokeAndFinish(
    prepared: CompiledCall,
    call: ToolCall,
    context: ExecutionContext,
    started: number,
    handlerStarted: number,
  ): ToolResult | Promise<ToolResult> {
    // `handlerStarted`: the handler's start, what its timeout and the slow-call warning count from (decision 0021).
    const callerSignal = context.signal;
    if (callerSignal?.aborted) {
      const cancelled = new CancelledError(messages.cancelled(prepared.tool), { cause: callerSignal.reason });
      return this.report.handlerFailed(cancelled, prepared, context, started);
    }
    const invocation = new CallInvocation(prepared.callId, prepared.tool, context, this.logger);
    let value: unknown;
    try {
      const implementation = prepared.compiled.entry.implementation;
      if (implementation.kind === 'function') value = implementation.handler(prepared.params, invocation);
      else {
        const command = this.resolveCommand(implementation.command, invocation);
        value = isThenable(command)
          ? Promise.resolve(command).then((resolved) => resolved.execute(prepared.params, invocation))
          : command.execute(prepared.params, invocation);
      }
    } catch (error) {
      return this.report.handlerFailed(classifiedOrUnreadable(error, prepared.tool), prepared, context, started);
    }
    let pending: boolean;
    try {
      pending = isThenable(value);
    } catch (unreadable) {
      // A returned value that cannot even be inspected (a revoked proxy, a throwing `then` getter): a HANDLER_ERROR.
      return this.report.handlerFailed(unreadable, prepared, context, started);
    }
    if (!pending) return this.report.succeeded(value, prepared, context, started, handlerStarted);
    return awaitHandler(
      invocation,
      value as PromiseLike<unknown>,
      prepared.compiled.timeoutMs,
      handlerStarted,
      this.settlement,
      new PendingCall(prepared, call, context, started, handlerStarted),
    );
  }

  /** Steps 1-6 without running the handler (a dry run): the validated parameters and every transformation. */
  async prepare(call: ToolCall, context: ExecutionContext = {}): Promise<PrepareResult> {
    try {
      const prepared = await this.prepareOrThrow(call, context);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- PreparationFailure is the internal failure value, caught by execute()
      if (prepared instanceof PreparationFailure) throw prepared;
      const { callId, tool, definition, params, input, transformations, securityEvents } = prepared;
      return { ok: true, callId, tool, definition, params, input, transformations, securityEvents };
    } catch (error) {
      return refusedPreparation(error, call);
    }
  }

  /**
   * A call still streaming: resolves its tool now (an unknown tool or a denied persona is reported at once) and checks
   * each top-level field with the tool's compiled plan as soon as it is complete, so that a value shown early is the
   * value the handler gets. The complete call still goes through `execute` (docs/streaming.md).
   */
  streamedCall(name: string, context: ExecutionContext = {}): StreamedCall {
    return streamedCall(this.registry, this.compiler, name, context);
  }

  /** Runs calls in parallel, at most `concurrency` at once; results come back in call order. */
  async executeAll(
    calls: readonly ToolCall[],
    context: ExecutionContext = {},
    options: ExecuteAllOptions = {},
  ): Promise<ToolResult[]> {
    checkExecuteAllArguments(calls, options);
    const concurrency = options.concurrency ?? 4;
    const results = new Array<ToolResult>(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const index = next++;
        // Each call settles on its own: execute() resolves for anything, and even a failure around it stays one result.
        results[index] = await this.execute(calls[index]!, context).catch((error: unknown) =>
          this.report.lastResort(calls[index]!, error, performance.now()),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
    return results;
  }

  /** Steps 1-6 (`./call-resolution.ts`). Throws (or rejects with) a PreparationFailure. */
  private prepareOrThrow(call: ToolCall, context: ExecutionContext): Preparation | Promise<Preparation> {
    return prepareCall(this.registry, this.compiler, this.preparation, call, context);
  }
}
