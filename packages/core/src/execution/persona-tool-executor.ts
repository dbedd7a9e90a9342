import { inject, injectable } from 'tsyringe';
import { HandlerError } from '../errors/handler-error';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { PermissionDeniedError } from '../errors/permission-denied-error';
import { ToolCallError } from '../errors/tool-call-error';
import { UnknownToolError } from '../errors/unknown-tool-error';
import { RESOLVE_RELATIVE_DATE_TOOL_NAME } from '../builtins/resolve-relative-date.command';
import { ToolRegistry } from '../registry/tool-registry';
import type { RegisteredTool } from '../registry/tool-registry';
import { dtoForSchema } from '../schema/synthesize-dto';
import type { ToolDefinition } from '../types/definition';
import type { ExecutionContext, ToolCall, ToolErrorPayload, ToolResult, Transformation, ValidationIssue } from '../types/execution';
import type { CommandHandler, ToolInvocationContext } from '../types/handler';
import type { CoercionPolicy } from '../types/schema';
import { injectContext, MissingContextError } from '../pipeline/context-injection';
import { DataPacketOrderError } from '../pipeline/data-packets';
import { crossFieldIssues, CrossFieldValidatorError, hasCrossFieldChecks } from '../pipeline/cross-field';
import { DEFAULT_LIMITS, type PipelineLimits } from '../pipeline/limits';
import { messages } from '../pipeline/messages';
import { resolveToolName } from '../pipeline/name-resolution';
import { compileNormalizer, INVALID, NormalizeState, type SecurityEvent } from '../pipeline/normalizer';
import { parseArguments } from '../pipeline/parse-arguments';
import { callTargetFor } from '../pipeline/unwrap-call';
import { isToolAllowed } from '../pipeline/permissions';
import { developerRulesPlan } from '../pipeline/developer-rules';
import { instantiate, validateWithClassValidator } from '../pipeline/reference-validation';
import { sanitizeArguments } from '../pipeline/sanitize';
import { checkArgumentBudget } from '../pipeline/argument-budget';
import { logCallOutcome } from './call-logging';
import { defaultLogger, type Logger } from './logger';
import { redactIssues, redactTransformations, sensitivePaths } from './redaction';
import { withoutSensitiveEcho } from './sensitive-errors';
import { runWithTimeout } from './run-handler';
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
  | { readonly ok: false; readonly callId: string; readonly tool: string; readonly error: ToolErrorPayload; readonly transformations: readonly Transformation[] };

export interface ExecuteAllOptions {
  /** How many calls run at once. Default 4. */
  readonly concurrency?: number;
}

/** Thrown inside the executor only (caught in the same module), so a plain object: no stack to capture. */
class PreparationFailure {
  constructor(readonly error: ToolCallError, readonly tool: string, readonly transformations: readonly Transformation[]) {}
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
    this.telemetry = options.telemetry === false ? undefined : (options.telemetry ?? defaultToolTelemetry());
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
  async execute(call: ToolCall, context: ExecutionContext = {}): Promise<ToolResult> {
    const started = performance.now();
    try {
      return await this.executeOrThrow(call, context, started);
    } catch (error) {
      return this.lastResort(call, error, started);
    }
  }

  private async executeOrThrow(call: ToolCall, context: ExecutionContext, started: number): Promise<ToolResult> {
    const callId = typeof call?.id === 'string' ? call.id : '';
    let prepared: PreparedCall;
    try {
      prepared = await this.prepareOrThrow(call, context);
    } catch (error) {
      const failure = this.asPreparationFailure(error, call);
      return this.finish({ callId, tool: failure.tool, ok: false, error: failure.error.toPayload(), transformations: failure.transformations, durationMs: performance.now() - started }, failure.error, context, this.registry.get(failure.tool));
    }
    try {
      const value = await this.invoke(prepared, context);
      return this.finish({ callId, tool: prepared.tool, ok: true, value, transformations: prepared.transformations, durationMs: performance.now() - started }, undefined, context, prepared.definition);
    } catch (error) {
      const callError = error instanceof ToolCallError ? error : new HandlerError(messages.handlerFailed(prepared.tool), { cause: error });
      return this.finish({ callId, tool: prepared.tool, ok: false, error: callError.toPayload(), transformations: prepared.transformations, durationMs: performance.now() - started }, callError, context, prepared.definition);
    }
  }

  /** Steps 1-6 without running the handler (a dry run): the validated parameters and every transformation. */
  async prepare(call: ToolCall, context: ExecutionContext = {}): Promise<PrepareResult> {
    try {
      return { ok: true, ...(await this.prepareOrThrow(call, context)) };
    } catch (error) {
      const failure = this.asPreparationFailure(error, call);
      return { ok: false, callId: typeof call?.id === 'string' ? call.id : '', tool: failure.tool, error: failure.error.toPayload(), transformations: failure.transformations };
    }
  }

  /** Runs calls in parallel, at most `concurrency` at once; results come back in call order. */
  async executeAll(calls: readonly ToolCall[], context: ExecutionContext = {}, options: ExecuteAllOptions = {}): Promise<ToolResult[]> {
    checkExecuteAllArguments(calls, options);
    const concurrency = options.concurrency ?? 4;
    const results = new Array<ToolResult>(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const index = next++;
        // Each call settles on its own: execute() resolves for anything, and even a failure around it stays one result.
        results[index] = await this.execute(calls[index]!, context).catch((error: unknown) => this.lastResort(calls[index]!, error, performance.now()));
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
    safely(() => this.logger.error(`tool call ${logSafeName(tool)} failed: ${failure.code}`, { tool: logSafeName(tool), callId, outcome: failure.code, cause: describeThrown(error) }), undefined);
    return { callId, tool, ok: false, error: failure.toPayload(), transformations: [], durationMs: Math.round((performance.now() - started) * 1000) / 1000 };
  }

  private asPreparationFailure(error: unknown, call: ToolCall): PreparationFailure {
    if (error instanceof PreparationFailure) return error;
    const tool = typeof call?.name === 'string' ? call.name : '';
    // Anything unexpected in steps 1-6 is still a typed, model-safe error; the cause is logged, never sent.
    return new PreparationFailure(new InvalidArgumentsError('The arguments could not be processed; check them against the tool\'s parameters and call again.', { cause: error }), tool, []);
  }

  private async prepareOrThrow(call: ToolCall, context: ExecutionContext): Promise<PreparedCall> {
    const transformations: Transformation[] = Array.isArray(call?.transformations) ? [...call.transformations] : [];
    const requested = typeof call?.name === 'string' ? call.name : '';
    const callId = typeof call?.id === 'string' ? call.id : '';

    // 1. Resolve the name.
    const resolution = resolveToolName(this.registry, requested);
    if (!resolution.found) {
      throw new PreparationFailure(
        new UnknownToolError(messages.unknownTool(requested, resolution.suggestions, this.registry.size), { suggestions: resolution.suggestions }),
        requested,
        transformations,
      );
    }
    const tool = resolution.name;
    if (resolution.rule) transformations.push({ path: '', rule: `tool-name-${resolution.rule}`, from: requested, to: tool });
    const entry = this.registry.getEntry(tool) as RegisteredTool;
    const definition = entry.definition;
    const fail = (error: ToolCallError): never => {
      throw new PreparationFailure(error, tool, transformations);
    };

    // 2. May this persona call it?
    if (!isToolAllowed(definition, context.persona)) fail(new PermissionDeniedError(messages.permissionDenied(tool, context.persona?.name)));

    const policy = definition.options.coercion ?? this.policy;
    try {
      // 3. Parse the arguments text (arguments passed as an object get the text's size budget first).
      if (typeof call?.arguments === 'object' && call.arguments !== null) checkArgumentBudget(call.arguments, this.limits);
      const target = callTargetFor(definition, (name) => {
        const named = resolveToolName(this.registry, name);
        return named.found && named.name === tool;
      });
      const parsed = parseArguments(call?.arguments, policy, this.limits, target);
      transformations.push(...parsed.transformations);
      // 6a (first, so nothing later sees them): strip prototype keys, enforce depth and size limits.
      const sanitized = sanitizeArguments(parsed.value, this.limits, { owned: parsed.owned });
      transformations.push(...sanitized.transformations);

      // 4. Normalize keys and values against the IR (on the compiled path, checking every constraint in the same pass).
      const developerRules = this.validation === 'compiled' ? developerRulesPlan(definition.parameters) : undefined;
      const reference = developerRules === undefined || developerRules.kind === 'reference';
      const state = new NormalizeState({ timeZone: context.timeZone, relativeDateTool: this.registry.has(RESOLVE_RELATIVE_DATE_TOOL_NAME), limits: this.limits });
      const normalized = compileNormalizer(definition.parameters, policy, reference ? 'types' : 'all')(sanitized.value, '', state);
      transformations.push(...state.transformations);
      const impostors = findContextImpostors(sanitized.value, state.securityEvents, definition.parameters);
      const securityEvents = impostors.length > 0 ? [...state.securityEvents, ...impostors] : state.securityEvents;
      if (securityEvents.length > 0) this.reportSecurityEvents(tool, callId, securityEvents, context);
      const params = (normalized === INVALID || typeof normalized !== 'object' || normalized === null ? {} : normalized) as Record<string, unknown>;

      // 5. Trusted context in, extracted content/title in.
      const injection = injectContext(params, definition.parameters, context);
      transformations.push(...injection.transformations);

      // 6. Validate.
      // An empty model value that extraction replaced is not the value validated any more: drop step 4's issue on it.
      const extracted = new Set(injection.transformations.map((transformation) => transformation.path));
      const issues: ValidationIssue[] = [...(extracted.size > 0 ? state.issues.filter((issue) => !extracted.has(issue.path)) : state.issues), ...injection.issues];
      let instance: object | undefined;
      if (reference) {
        // Reference path: class-transformer + class-validator on this tool's DTO class.
        const validation = await validateWithClassValidator(dtoForSchema(definition.parameters), params, definition.parameters);
        // The normalizer's issue is the precise one: class-validator's on the same value repeats it, and so does one it
        // reports at the containing array for `{ each: true }` rules; the array's own rules (item counts) still stand.
        const reported = issues.map((issue) => issue.path);
        for (const issue of validation.issues) {
          if (!reported.some((path) => repeats(issue, path))) issues.push(issue);
        }
        instance = validation.instance;
      } else {
        // Compiled path: constraints were checked in step 4; build the DTO for class commands, and run the rules the IR
        // cannot say (also when other arguments failed, so the model hears of every problem at once).
        if (entry.implementation.kind === 'class' || developerRules?.kind === 'check') {
          const built = instantiate(definition.parameters, dtoForSchema(definition.parameters), params);
          if ('issue' in built) issues.push(built.issue);
          else instance = built.instance;
        }
        if (instance && developerRules?.kind === 'check') {
          const reported = issues.map((issue) => issue.path);
          const found: ValidationIssue[] = [];
          await developerRules.check(instance, '', found);
          for (const issue of found) if (!reported.some((path) => repeats(issue, path))) issues.push(issue);
        }
      }
      if (issues.length > 0) {
        const shown = redactIssues(issues, sensitivePaths(definition.parameters));
        fail(new InvalidArgumentsError(messages.invalidArguments(tool, shown), { issues: shown }));
      }

      const handlerParams = entry.implementation.kind === 'class' ? (instance as Record<string, unknown>) : params;
      // 6b. Cross-field rules and `validate` functions, once every per-field check passed (both paths).
      const commandClass = entry.implementation.kind === 'class' ? entry.implementation.command : undefined;
      if (hasCrossFieldChecks(definition, commandClass)) {
        const crossField = await crossFieldIssues(definition, handlerParams, commandClass);
        if (crossField.length > 0) fail(new InvalidArgumentsError(messages.invalidArguments(tool, crossField), { issues: crossField }));
      }
      return { callId, tool, definition, params: handlerParams, transformations, securityEvents };
    } catch (error) {
      if (error instanceof PreparationFailure) throw error;
      if (error instanceof MissingContextError || error instanceof DataPacketOrderError) {
        const property = error instanceof MissingContextError ? error.property : 'dataPackets';
        this.logger.error(`tool ${tool}: ${error.message} Set it in the ExecutionContext passed to execute().`, { tool, callId, property });
        fail(new HandlerError(`The tool "${tool}" cannot run in this session (its execution context is incomplete). Do not retry it.`, { cause: error }));
      }
      if (error instanceof CrossFieldValidatorError) {
        this.logger.error(`tool ${tool}: ${error.message}`, { tool, callId, cause: describeThrown(error.cause) });
        fail(new HandlerError(`The tool "${tool}" could not check its arguments (its validation rule failed). Do not retry it.`, { cause: error }));
      }
      if (error instanceof ToolCallError) fail(withoutSensitiveEcho(error, sensitivePaths(definition.parameters)));
      throw error;
    }
  }

  private async invoke(prepared: PreparedCall, context: ExecutionContext): Promise<unknown> {
    const { definition } = prepared;
    const entry = this.registry.getEntry(prepared.tool) as RegisteredTool;
    const timeoutMs = definition.options.timeoutMs ?? this.timeoutMs;
    const started = performance.now();
    const value = await runWithTimeout((signal) => {
      const invocation: ToolInvocationContext = { callId: prepared.callId, tool: prepared.tool, context, signal, logger: this.logger };
      if (entry.implementation.kind === 'function') return entry.implementation.handler(prepared.params, invocation);
      const command = this.resolveCommand(entry.implementation.command, invocation);
      return isPromiseLike(command) ? Promise.resolve(command).then((resolved) => resolved.execute(prepared.params, invocation)) : command.execute(prepared.params, invocation);
    }, { tool: prepared.tool, timeoutMs, signal: context.signal });
    const elapsed = performance.now() - started;
    const slowCallMs = definition.options.slowCallMs ?? this.slowCallMs;
    if (elapsed > slowCallMs) {
      this.logger.warn(`slow tool call: ${prepared.tool} took ${Math.round(elapsed)} ms (threshold ${slowCallMs} ms)`, { tool: prepared.tool, callId: prepared.callId, durationMs: elapsed });
    }
    return value;
  }

  private reportSecurityEvents(tool: string, callId: string, events: readonly SecurityEvent[], context: ExecutionContext): void {
    this.stats.recordSecurityEvents(events.length);
    logSecurityEvents(this.logger, tool, callId, events, context);
  }

  private finish(result: ToolResult, error: ToolCallError | undefined, context: ExecutionContext, definition?: ToolDefinition): ToolResult {
    const finished: ToolResult = { ...result, durationMs: Math.round(result.durationMs * 1000) / 1000 };
    if (finished.transformations.length > 0) this.stats.record(finished.tool, finished.transformations, context.model);
    // A logger or a telemetry pipeline that throws must not turn the call's outcome into another one.
    safely(() => logCallOutcome(this.logger, finished, error, definition), undefined);
    safely(() => this.telemetry?.recordCall(finished, error, context), undefined);
    return finished;
  }
}

const CONTAINER_RULES: ReadonlySet<string> = new Set(['minItems', 'maxItems', 'uniqueItems', 'required', 'unknown-key']);

/** Whether a class-validator issue repeats a normalizer issue at `path`: the same value, inside it, or its container's element rule. */
function repeats(issue: ValidationIssue, path: string): boolean {
  const contains = (outer: string, inner: string) => inner === outer || outer === '' || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  if (contains(path, issue.path)) return true;
  return contains(issue.path, path) && !CONTAINER_RULES.has(issue.rule);
}

function isPromiseLike(value: CommandHandler | Promise<CommandHandler>): value is Promise<CommandHandler> {
  return typeof (value as { then?: unknown }).then === 'function';
}

function safely<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}
