import { inject, injectable } from 'tsyringe';
import { CancelledError } from '../errors/cancelled-error';
import { HandlerError } from '../errors/handler-error';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { PermissionDeniedError } from '../errors/permission-denied-error';
import { ToolCallError } from '../errors/tool-call-error';
import { UnknownToolError } from '../errors/unknown-tool-error';
import { ToolRegistry } from '../registry/tool-registry';
import type { RegisteredTool } from '../registry/tool-registry';
import { dtoForSchema, synthesizeDtosOnRegistration } from '../validation/synthesize-dto';
import type { ToolDefinition } from '../types/definition';
import type {
  ExecutionContext,
  ToolCall,
  ToolErrorPayload,
  ToolResult,
  Transformation,
  ValidationIssue,
} from '../types/execution';
import type { CoercionPolicy } from '../types/schema';
import { injectContext, MissingContextError } from '../pipeline/context-injection';
import { DataPacketOrderError } from '../pipeline/data-packets';
import { crossFieldIssues, CrossFieldValidatorError } from '../pipeline/cross-field';
import { DEFAULT_LIMITS, type PipelineLimits } from '../pipeline/limits';
import { messages, RELATIVE_DATE_RESOLVER } from '../pipeline/messages';
import { resolveToolName } from '../pipeline/name-resolution';
import { INVALID, NormalizeState, type SecurityEvent } from '../pipeline/normalizer';
import { parseCheckedArguments } from '../pipeline/parse-arguments';
import { isToolAllowed } from '../pipeline/permissions';
import { instantiationIssue, validateWithClassValidator } from '../pipeline/reference-validation';
import { sanitizeArguments } from '../pipeline/sanitize';
import { checkArgumentBudget } from '../pipeline/argument-budget';
import { logCallOutcome } from './call-logging';
import { defaultLogger, type Logger } from './logger';
import { redactIssues } from '../pipeline/redaction';
import { withoutSensitiveEcho } from './sensitive-errors';
import { awaitHandler, CallInvocation, classifiedOrUnreadable, type HandlerSettlement } from './run-handler';
import { compileTool, instantiatorOf, type CompiledTool, type CompileSettings } from './compiled-tool';
import { tsyringeCommandResolver, type CommandResolver } from './command-resolution';
import { defaultToolTelemetry, type ToolTelemetry } from './telemetry';
import { EXECUTOR_OPTIONS } from './tokens';
import { TransformationStats } from './transformation-stats';
import { findContextImpostors } from '../pipeline/context-impostors';
import { logSecurityEvents } from './security-log';
import { checkExecuteAllArguments, checkExecutorOptions, describeThrown } from './fault-tolerance';
import { logSafeName } from './log-text';

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
  /** Where the transformation counts go (seed 000's feedback loop). */
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
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_SLOW_CALL_MS = 1_000;

/** A call that passed steps 1-6: what the handler would receive. */
export interface PreparedCall {
  readonly callId: string;
  readonly tool: string;
  readonly definition: ToolDefinition;
  /** The validated parameters: a DTO instance for class commands, a plain object for function handlers. */
  readonly params: Record<string, unknown>;
  readonly transformations: readonly Transformation[];
  readonly securityEvents: readonly SecurityEvent[];
}

export type PrepareResult =
  | ({ readonly ok: true } & PreparedCall)
  | {
      readonly ok: false;
      readonly callId: string;
      readonly tool: string;
      readonly error: ToolErrorPayload;
      readonly transformations: readonly Transformation[];
    };

export interface ExecuteAllOptions {
  /** How many calls run at once. Default 4. */
  readonly concurrency?: number;
}

/**
 * A prepared call with the compiled tool it was prepared with (the handler runs with the same one). A class, so that
 * "ready, refused or pending?" is two `instanceof` checks of the executor's own classes (no `then` lookup).
 */
class CompiledCall implements PreparedCall {
  constructor(
    readonly callId: string,
    readonly tool: string,
    readonly definition: ToolDefinition,
    readonly params: Record<string, unknown>,
    readonly transformations: readonly Transformation[],
    readonly securityEvents: readonly SecurityEvent[],
    readonly compiled: CompiledTool,
  ) {}
}

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

/** Steps 1-6 of one call: ready for its handler, or the model-facing failure. */
type Preparation = CompiledCall | PreparationFailure;

/** Whether steps 1-6 answered synchronously (else a Promise of the Preparation: a native one, from `.then`). */
function isSettled(preparation: Preparation | Promise<Preparation>): preparation is Preparation {
  return preparation instanceof CompiledCall || preparation instanceof PreparationFailure;
}

/** Thrown inside the executor only (caught in the same module), so a plain object: no stack to capture. */
class PreparationFailure {
  constructor(
    readonly error: ToolCallError,
    readonly tool: string,
    readonly transformations: readonly Transformation[],
  ) {}
}

/**
 * Takes whatever the model sent and returns a result or an error the model can act on. Steps (DESIGN section 3):
 * 1 resolve the name, 2 check the persona, 3 parse the arguments text, 4 normalize against the IR,
 * 5 drop model-supplied context and inject trusted context, 6 validate, 7 run the handler, 8 build the result.
 * Never throws for anything a model can send.
 */
@injectable()
export class PersonaToolExecutor {
  readonly stats: TransformationStats;
  private readonly policy: CoercionPolicy;
  private readonly logger: Logger;
  private readonly resolveCommand: CommandResolver;
  private readonly limits: PipelineLimits;
  private readonly timeoutMs: number;
  private readonly slowCallMs: number;
  private readonly validation: 'compiled' | 'reference';
  private readonly telemetry: ToolTelemetry | undefined;
  private readonly fastPath: boolean;
  private readonly settings: CompileSettings;
  /** Each registry entry compiled for this executor (a replaced entry is a new key; the old one is collected). */
  private readonly compiled = new WeakMap<RegisteredTool, CompiledTool>();
  /** Finishes a call whose handler returned a promise (one object per executor: a call makes no closures for it). */
  private readonly settlement: HandlerSettlement<PendingCall, ToolResult> = {
    value: (pending, settled) => {
      try {
        return this.succeeded(settled, pending.prepared, pending.context, pending.started, pending.handlerStarted);
      } catch (error) {
        return this.lastResort(pending.call, error, pending.started);
      }
    },
    failure: (pending, error) => {
      try {
        return this.handlerFailed(error, pending.prepared, pending.context, pending.started);
      } catch (failure) {
        return this.lastResort(pending.call, failure, pending.started);
      }
    },
  };
  /** The entry compiled last and its compiled form (held until another tool is called; a replaced entry is a new key). */
  private lastEntry: RegisteredTool | undefined = undefined;
  private lastCompiled: CompiledTool | undefined = undefined;

  constructor(
    @inject(ToolRegistry) private readonly registry: ToolRegistry,
    @inject(EXECUTOR_OPTIONS, { isOptional: true }) options: PersonaToolExecutorOptions = {},
  ) {
    checkExecutorOptions(options);
    this.policy = options.coercion ?? options.policy ?? 'safe';
    this.logger = options.logger ?? defaultLogger;
    this.resolveCommand = options.resolveCommand ?? tsyringeCommandResolver();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.slowCallMs = options.slowCallMs ?? DEFAULT_SLOW_CALL_MS;
    this.stats = options.stats ?? new TransformationStats();
    this.validation = options.validation ?? 'compiled';
    // The reference path validates through each tool's class-validator DTO: build those at registration for it only.
    if (this.validation === 'reference') synthesizeDtosOnRegistration(registry);
    this.telemetry = options.telemetry === false ? undefined : (options.telemetry ?? defaultToolTelemetry());
    this.fastPath = options.canonicalFastPath !== false;
    this.settings = {
      policy: this.policy,
      limits: this.limits,
      validation: this.validation,
      timeoutMs: this.timeoutMs,
      slowCallMs: this.slowCallMs,
      canonicalFastPath: this.fastPath,
    };
  }

  /** The tools this executor runs (what a tool loop offers the model). */
  tools(): readonly ToolDefinition[] {
    return this.registry.list();
  }

  /** How many retries the tool loop allows for a tool: its `@Command({ retries })`, if set. */
  retriesFor(tool: string): number | undefined {
    return this.registry.get(tool)?.options.retries;
  }

  /** Runs one call through the whole pipeline. Total: whatever the call, the handler or the logger does, it resolves. */
  execute(call: ToolCall, context: ExecutionContext = {}): Promise<ToolResult> {
    // Two clock reads per call (decision 0021): its start and its end. The handler's start (its timeout and the
    // slow-call warning) is the call's start when steps 1-6 ran synchronously on short text, a third read otherwise.
    const started = performance.now();
    let outcome: ToolResult | Promise<ToolResult>;
    try {
      outcome = this.executeOrThrow(call, context, started);
    } catch (error) {
      return Promise.resolve(this.lastResort(call, error, started));
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
  private executeOrThrow(call: ToolCall, context: ExecutionContext, started: number): ToolResult | Promise<ToolResult> {
    let prepared: Preparation | Promise<Preparation>;
    try {
      prepared = this.prepareOrThrow(call, context);
    } catch (error) {
      return this.preparationFailed(error, call, context, started);
    }
    if (!isSettled(prepared)) {
      return prepared.then(
        (ready) => {
          try {
            // Preparation awaited something (an async rule, a cross-field check): the handler starts now.
            return this.invokeOrFail(ready, call, context, started, undefined);
          } catch (error) {
            return this.lastResort(call, error, started);
          }
        },
        (error: unknown) => {
          try {
            return this.preparationFailed(error, call, context, started);
          } catch (failure) {
            return this.lastResort(call, failure, started);
          }
        },
      );
    }
    // Steps 1-6 ran in this synchronous run: on short text they took microseconds, and the call's start serves as the
    // handler's (one clock read fewer); on long text or an object they may have taken milliseconds: the clock is read.
    const quick = prepared instanceof CompiledCall && preparesQuickly(call);
    return this.invokeOrFail(prepared, call, context, started, quick ? started : undefined);
  }

  /** `handlerStarted`: the handler's start when the call's start serves as it, `undefined` to read the clock. */
  private invokeOrFail(
    prepared: Preparation,
    call: ToolCall,
    context: ExecutionContext,
    started: number,
    handlerStarted: number | undefined,
  ): ToolResult | Promise<ToolResult> {
    return prepared instanceof PreparationFailure
      ? this.preparationFailed(prepared, call, context, started)
      : this.invokeAndFinish(prepared, call, context, started, handlerStarted ?? performance.now());
  }

  private preparationFailed(error: unknown, call: ToolCall, context: ExecutionContext, started: number): ToolResult {
    const callId = typeof call?.id === 'string' ? call.id : '';
    const failure = this.asPreparationFailure(error, call);
    return this.finish(
      {
        callId,
        tool: failure.tool,
        ok: false,
        error: failure.error.toPayload(),
        transformations: failure.transformations,
        durationMs: performance.now() - started,
      },
      failure.error,
      context,
      this.registry.get(failure.tool),
    );
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
      return this.handlerFailed(cancelled, prepared, context, started);
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
      return this.handlerFailed(classifiedOrUnreadable(error, prepared.tool), prepared, context, started);
    }
    let pending: boolean;
    try {
      pending = isThenable(value);
    } catch (unreadable) {
      // A returned value that cannot even be inspected (a revoked proxy, a throwing `then` getter): a HANDLER_ERROR.
      return this.handlerFailed(unreadable, prepared, context, started);
    }
    if (!pending) return this.succeeded(value, prepared, context, started, handlerStarted);
    return awaitHandler(
      invocation,
      value as PromiseLike<unknown>,
      prepared.compiled.timeoutMs,
      handlerStarted,
      this.settlement,
      new PendingCall(prepared, call, context, started, handlerStarted),
    );
  }

  private succeeded(
    value: unknown,
    prepared: CompiledCall,
    context: ExecutionContext,
    started: number,
    handlerStarted: number,
  ): ToolResult {
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
    return this.finish(
      {
        callId: prepared.callId,
        tool: prepared.tool,
        ok: true,
        value,
        transformations: prepared.transformations,
        durationMs: ended - started,
      },
      undefined,
      context,
      prepared.definition,
    );
  }

  private handlerFailed(
    error: unknown,
    prepared: CompiledCall,
    context: ExecutionContext,
    started: number,
  ): ToolResult {
    const callError =
      error instanceof ToolCallError
        ? error
        : new HandlerError(messages.handlerFailed(prepared.tool), { cause: error });
    return this.finish(
      {
        callId: prepared.callId,
        tool: prepared.tool,
        ok: false,
        error: callError.toPayload(),
        transformations: prepared.transformations,
        durationMs: performance.now() - started,
      },
      callError,
      context,
      prepared.definition,
    );
  }

  /** Steps 1-6 without running the handler (a dry run): the validated parameters and every transformation. */
  async prepare(call: ToolCall, context: ExecutionContext = {}): Promise<PrepareResult> {
    try {
      const prepared = await this.prepareOrThrow(call, context);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- PreparationFailure is the internal failure value, caught by execute()
      if (prepared instanceof PreparationFailure) throw prepared;
      const { callId, tool, definition, params, transformations, securityEvents } = prepared;
      return { ok: true, callId, tool, definition, params, transformations, securityEvents };
    } catch (error) {
      const failure = this.asPreparationFailure(error, call);
      return {
        ok: false,
        callId: typeof call?.id === 'string' ? call.id : '',
        tool: failure.tool,
        error: failure.error.toPayload(),
        transformations: failure.transformations,
      };
    }
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
          this.lastResort(calls[index]!, error, performance.now()),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
    return results;
  }

  /** The result when something failed outside every typed path: a generic HANDLER_ERROR, logged without throwing. */
  private lastResort(call: ToolCall, error: unknown, started: number): ToolResult {
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

  private asPreparationFailure(error: unknown, call: ToolCall): PreparationFailure {
    if (error instanceof PreparationFailure) return error;
    const tool = typeof call?.name === 'string' ? call.name : '';
    // Anything unexpected in steps 1-6 is still a typed, model-safe error; the cause is logged, never sent.
    return new PreparationFailure(
      new InvalidArgumentsError(
        "The arguments could not be processed; check them against the tool's parameters and call again.",
        { cause: error },
      ),
      tool,
      [],
    );
  }

  /** The compiled form of a registry entry for this executor, built on the entry's first call. */
  private compiledFor(entry: RegisteredTool): CompiledTool {
    // The tool called last first (a tool loop calls the same tools again and again): one comparison, no WeakMap lookup.
    if (entry === this.lastEntry) return this.lastCompiled!;
    let compiled = this.compiled.get(entry);
    if (compiled === undefined) {
      const tool = entry.definition.name;
      compiled = compileTool(entry, this.settings, (name) => {
        const named = resolveToolName(this.registry, name);
        return named.found && named.name === tool;
      });
      this.compiled.set(entry, compiled);
    }
    this.lastEntry = entry;
    this.lastCompiled = compiled;
    return compiled;
  }

  /**
   * Steps 1-6. Synchronous unless a step is asynchronous (the reference validation, an async developer rule, a
   * cross-field `validate` function): then a promise. Throws (or rejects with) a PreparationFailure.
   */
  private prepareOrThrow(call: ToolCall, context: ExecutionContext): Preparation | Promise<Preparation> {
    const transformations: Transformation[] = Array.isArray(call?.transformations) ? [...call.transformations] : [];
    const requested = typeof call?.name === 'string' ? call.name : '';
    const callId = typeof call?.id === 'string' ? call.id : '';

    // 1. Resolve the name; the entry found here serves the whole call (a replacement registered meanwhile waits for the next call).
    let entry = this.registry.getEntry(requested);
    let tool = requested;
    if (entry === undefined) {
      const resolution = resolveToolName(this.registry, requested);
      if (!resolution.found) {
        return new PreparationFailure(
          new UnknownToolError(messages.unknownTool(requested, resolution.suggestions, this.registry.size), {
            suggestions: resolution.suggestions,
          }),
          requested,
          transformations,
        );
      }
      tool = resolution.name;
      if (resolution.rule)
        transformations.push({ path: '', rule: `tool-name-${resolution.rule}`, from: requested, to: tool });
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- resolveToolName found it: the entry exists
      entry = this.registry.getEntry(tool) as RegisteredTool;
    }
    const compiled = this.compiledFor(entry);
    const definition = compiled.definition;

    // 2. May this persona call it? (A call without a persona may call any tool that requires no permission.)
    const persona = context.persona;
    if ((persona !== undefined || !compiled.unrestricted) && !isToolAllowed(definition, persona))
      return new PreparationFailure(
        new PermissionDeniedError(messages.permissionDenied(tool, persona?.name)),
        tool,
        transformations,
      );

    try {
      const outcome = this.validateArguments(call, context, compiled, tool, callId, transformations);
      if (!isSettled(outcome))
        return outcome.then(undefined, (error: unknown) =>
          this.asFailure(error, compiled, tool, callId, transformations),
        );
      return outcome;
    } catch (error) {
      return this.asFailure(error, compiled, tool, callId, transformations);
    }
  }

  /** Steps 3-6 of one call. */
  private validateArguments(
    call: ToolCall,
    context: ExecutionContext,
    compiled: CompiledTool,
    tool: string,
    callId: string,
    transformations: Transformation[],
  ): Preparation | Promise<Preparation> {
    const { definition } = compiled;
    const policy = compiled.policy;
    // 3. Parse the arguments text (arguments passed as an object get the text's size budget first).
    if (typeof call?.arguments === 'object' && call.arguments !== null)
      checkArgumentBudget(call.arguments, this.limits);
    // With the tool's canonical check run on the result (decision 0020, fused-parse-check: one walk for both).
    const parsed = parseCheckedArguments(
      call?.arguments,
      policy,
      this.limits,
      compiled.callTarget,
      this.fastPath ? compiled.accept : undefined,
    );
    if (parsed.transformations.length > 0) transformations.push(...parsed.transformations);

    let params: Record<string, unknown>;
    let issues: ValidationIssue[];
    let securityEvents: readonly SecurityEvent[];
    if (parsed.accepted) {
      // Already valid and canonical (arguments read from text here, so the pipeline's own object): sanitizing,
      // normalizing and the impostor scan would each return it unchanged, with nothing to record. Step 5 writes trusted
      // context into a copy: a recorded value (an unwrapped call's arguments) may be this very object.
      params = compiled.injects ? { ...parsed.value } : parsed.value;
      issues = [];
      securityEvents = NO_SECURITY_EVENTS;
    } else {
      // 6a (first, so nothing later sees them): strip prototype keys, enforce depth and size limits.
      const sanitized = sanitizeArguments(parsed.value, this.limits, { owned: parsed.owned });
      if (sanitized.transformations.length > 0) transformations.push(...sanitized.transformations);

      // 4. Normalize keys and values against the IR (on the compiled path, checking every constraint in the same pass).
      const state = new NormalizeState({
        timeZone: context.timeZone,
        relativeDateTool: this.registry.has(RELATIVE_DATE_RESOLVER),
        limits: this.limits,
      });
      const normalized = compiled.normalize(sanitized.value, '', state);
      if (state.transformations.length > 0) transformations.push(...state.transformations);
      const impostors = findContextImpostors(sanitized.value, state.securityEvents, definition.parameters);
      securityEvents = impostors.length > 0 ? [...state.securityEvents, ...impostors] : state.securityEvents;
      if (securityEvents.length > 0) this.reportSecurityEvents(tool, callId, securityEvents, context);
      params = (
        normalized === INVALID || typeof normalized !== 'object' || normalized === null ? {} : normalized
      ) as Record<string, unknown>;
      issues = state.issues;
    }

    // 5. Trusted context in, extracted content/title in (tools with neither skip the step).
    const injection = compiled.injects ? injectContext(params, definition.parameters, context) : NOTHING_INJECTED;
    if (injection.transformations.length > 0) {
      transformations.push(...injection.transformations);
      // An empty model value that extraction replaced is not the value validated any more: drop step 4's issue on it.
      const extracted = new Set(injection.transformations.map((transformation) => transformation.path));
      issues = issues.filter((issue) => !extracted.has(issue.path));
    }
    if (injection.issues.length > 0) issues = [...issues, ...injection.issues];

    // 6. Validate.
    if (compiled.reference) {
      // Reference path: class-transformer + class-validator on this tool's DTO class.
      return validateWithClassValidator(dtoForSchema(definition.parameters), params, definition.parameters).then(
        (validation) => {
          // The normalizer's issue is the precise one: class-validator's on the same value repeats it, and so does one it
          // reports at the containing array for `{ each: true }` rules; the array's own rules (item counts) still stand.
          const all = [...issues];
          const reported = issues.map((issue) => issue.path);
          for (const issue of validation.issues) {
            if (!reported.some((path) => repeats(issue, path))) all.push(issue);
          }
          return this.afterValidation(
            compiled,
            tool,
            callId,
            params,
            validation.instance,
            all,
            transformations,
            securityEvents,
          );
        },
      );
    }
    // Compiled path: constraints were checked in step 4; build the DTO for class commands, and run the rules the IR
    // cannot say (also when other arguments failed, so the model hears of every problem at once).
    let instance: object | undefined;
    if (compiled.needsInstance) {
      // instantiateWith's body, inline: no failure object to tell from the instance.
      const instantiate = instantiatorOf(compiled);
      // The canonical check accepted these very arguments and found their keys in declaration order (decision 0022,
      // in-order instantiation): the same instance, built without the key loops.
      const order = compiled.order;
      const inOrder =
        order !== undefined && parsed.accepted && order.root === params ? compiled.instantiateInOrder : undefined;
      if (order !== undefined) order.root = undefined; // not kept past the call
      try {
        instance = inOrder !== undefined ? inOrder(params) : instantiate(params);
      } catch (error) {
        issues = [...issues, instantiationIssue(error)];
      }
    }
    const rules = compiled.developerRules;
    if (instance !== undefined && rules?.kind === 'check') {
      // `undefined` when every rule passed (no issue array made), the issues, or a Promise of them.
      const found = rules.find(instance, '');
      if (found !== undefined) {
        // An array of issues, or a Promise of them (`find` never answers anything else).
        if (!Array.isArray(found)) {
          const settled = instance;
          const before = issues;
          return Promise.resolve(found).then((all) =>
            this.afterValidation(
              compiled,
              tool,
              callId,
              params,
              settled,
              withDeveloperIssues(before, all),
              transformations,
              securityEvents,
            ),
          );
        }
        issues = withDeveloperIssues(issues, found);
      }
    }
    return this.afterValidation(compiled, tool, callId, params, instance, issues, transformations, securityEvents);
  }

  /** The end of step 6: the issues become the model-facing error, then the cross-field checks. */
  private afterValidation(
    compiled: CompiledTool,
    tool: string,
    callId: string,
    params: Record<string, unknown>,
    instance: object | undefined,
    issues: readonly ValidationIssue[],
    transformations: Transformation[],
    securityEvents: readonly SecurityEvent[],
  ): Preparation | Promise<Preparation> {
    if (issues.length > 0) {
      // Returned, not thrown: an invalid call is an ordinary outcome (and unwinding costs more than the message).
      const shown = redactIssues(issues, compiled.sensitivePaths);
      return new PreparationFailure(
        withoutSensitiveEcho(
          new InvalidArgumentsError(messages.invalidArguments(tool, shown), { issues: shown }),
          compiled.sensitivePaths,
        ),
        tool,
        transformations,
      );
    }
    const handlerParams = compiled.commandClass !== undefined ? (instance as Record<string, unknown>) : params;
    const prepared = new CompiledCall(
      callId,
      tool,
      compiled.definition,
      handlerParams,
      transformations,
      securityEvents,
      compiled,
    );
    // 6b. Cross-field rules and `validate` functions, once every per-field check passed (both paths).
    if (!compiled.crossField) return prepared;
    return crossFieldIssues(compiled.definition, handlerParams, compiled.commandClass).then((crossField) => {
      if (crossField.length > 0)
        throw new InvalidArgumentsError(messages.invalidArguments(tool, crossField), { issues: crossField });
      return prepared;
    });
  }

  /** A failure of steps 3-6 as the model-facing PreparationFailure (developer mistakes logged, never shown). */
  private asFailure(
    error: unknown,
    compiled: CompiledTool,
    tool: string,
    callId: string,
    transformations: readonly Transformation[],
  ): never {
    const fail = (failure: ToolCallError): never => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- PreparationFailure is the internal failure value, caught by execute()
      throw new PreparationFailure(failure, tool, transformations);
    };
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the internal failure value unchanged
    if (error instanceof PreparationFailure) throw error;
    if (error instanceof MissingContextError || error instanceof DataPacketOrderError) {
      const property = error instanceof MissingContextError ? error.property : 'dataPackets';
      this.logger.error(`tool ${tool}: ${error.message} Set it in the ExecutionContext passed to execute().`, {
        tool,
        callId,
        property,
      });
      fail(
        new HandlerError(
          `The tool "${tool}" cannot run in this session (its execution context is incomplete). Do not retry it.`,
          { cause: error },
        ),
      );
    }
    if (error instanceof CrossFieldValidatorError) {
      this.logger.error(`tool ${tool}: ${error.message}`, { tool, callId, cause: describeThrown(error.cause) });
      fail(
        new HandlerError(
          `The tool "${tool}" could not check its arguments (its validation rule failed). Do not retry it.`,
          { cause: error },
        ),
      );
    }
    if (error instanceof ToolCallError) fail(withoutSensitiveEcho(error, compiled.sensitivePaths));
    throw error;
  }

  private reportSecurityEvents(
    tool: string,
    callId: string,
    events: readonly SecurityEvent[],
    context: ExecutionContext,
  ): void {
    this.stats.recordSecurityEvents(events.length);
    logSecurityEvents(this.logger, tool, callId, events, context);
  }

  private finish(
    result: ToolResult,
    error: ToolCallError | undefined,
    context: ExecutionContext,
    definition?: ToolDefinition,
  ): ToolResult {
    // Every caller builds `result` for this call only: its duration is rounded in place.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the result is ours to finish: durationMs is written once, here
    const finished = result as { durationMs: number } & ToolResult;
    finished.durationMs = Math.round(result.durationMs * 1000) / 1000;
    if (finished.transformations.length > 0) this.stats.record(finished.tool, finished.transformations, context.model);
    // A logger or a telemetry pipeline that throws must not turn the call's outcome into another one.
    try {
      logCallOutcome(this.logger, finished, error, definition);
    } catch {
      // ignored: see above
    }
    if (this.telemetry !== undefined) {
      try {
        this.telemetry.recordCall(finished, error, context);
      } catch {
        // ignored: see above
      }
    }
    return finished;
  }
}

const CONTAINER_RULES: ReadonlySet<string> = new Set([
  'minItems',
  'maxItems',
  'uniqueItems',
  'required',
  'unknown-key',
]);

/** Whether a class-validator issue repeats a normalizer issue at `path`: the same value, inside it, or its container's element rule. */
/** Step 6's issues and the developer rules' (those not repeating one already reported). */
function withDeveloperIssues(issues: ValidationIssue[], found: readonly ValidationIssue[]): ValidationIssue[] {
  if (found.length === 0) return issues;
  const all = [...issues];
  const reported = issues.map((issue) => issue.path);
  for (const issue of found) if (!reported.some((path) => repeats(issue, path))) all.push(issue);
  return all;
}

function repeats(issue: ValidationIssue, path: string): boolean {
  if (contains(path, issue.path)) return true;
  return contains(issue.path, path) && !CONTAINER_RULES.has(issue.rule);
}

/** Whether `inner` is `outer` or a path inside it (`outer.x`, `outer[2]`), without building the prefixes. */
function contains(outer: string, inner: string): boolean {
  if (inner === outer || outer === '') return true;
  if (inner.length <= outer.length || !inner.startsWith(outer)) return false;
  const next = inner.charCodeAt(outer.length);
  return next === 46 /* . */ || next === 91; /* [ */
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

const NO_SECURITY_EVENTS: readonly SecurityEvent[] = Object.freeze([]);
const NOTHING_INJECTED = Object.freeze({ transformations: Object.freeze([]), issues: Object.freeze([]) });

/**
 * The longest arguments text whose synchronous steps 1-6 let the call's start serve as the handler's start (decision
 * 0021): at most a fraction of a millisecond to read and check, below the timers' own 1 ms granularity.
 */
export const QUICK_PREPARATION_CHARACTERS = 16_384;

/**
 * Whether steps 1-6 of this call, run synchronously, took well under a millisecond: no arguments, or short text. Asked
 * after they succeeded, so it changes no outcome: arguments that cannot be read again count as long.
 */
function preparesQuickly(call: ToolCall): boolean {
  try {
    const text: unknown = call?.arguments;
    return text === undefined || (typeof text === 'string' && text.length <= QUICK_PREPARATION_CHARACTERS);
  } catch {
    return false;
  }
}

function safely<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}
