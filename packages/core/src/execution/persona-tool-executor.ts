import { container as rootContainer, inject, injectable, type DependencyContainer } from 'tsyringe';
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
import { DEFAULT_LIMITS, type PipelineLimits } from '../pipeline/limits';
import { messages } from '../pipeline/messages';
import { resolveToolName } from '../pipeline/name-resolution';
import { compileNormalizer, INVALID, NormalizeState, type SecurityEvent } from '../pipeline/normalizer';
import { parseArguments } from '../pipeline/parse-arguments';
import { isToolAllowed } from '../pipeline/permissions';
import { developerRulesPlan } from '../pipeline/developer-rules';
import { instantiate, validateWithClassValidator } from '../pipeline/reference-validation';
import { sanitizeArguments } from '../pipeline/sanitize';
import { logCallOutcome } from './call-logging';
import { defaultLogger, type Logger } from './logger';
import { runWithTimeout } from './run-handler';
import { defaultToolTelemetry, type ToolTelemetry } from './telemetry';
import { EXECUTION_CONTEXT, EXECUTOR_OPTIONS, TOOL_INVOCATION } from './tokens';
import { TransformationStats } from './transformation-stats';

export interface PersonaToolExecutorOptions {
  /** Default coercion policy; a command's `coercion` option and a parameter's `policy` override it. Default `'safe'`. */
  readonly policy?: CoercionPolicy;
  /** Where warnings, errors and (when enabled) per-call debug events go. Default `defaultLogger` (stderr, warn and up). */
  readonly logger?: Logger;
  /** The container command classes are resolved from (a child per call). Default: tsyringe's root container. */
  readonly container?: DependencyContainer;
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
  private readonly container: DependencyContainer;
  private readonly limits: PipelineLimits;
  private readonly timeoutMs: number;
  private readonly slowCallMs: number;
  private readonly validation: 'compiled' | 'reference';
  private readonly telemetry: ToolTelemetry | undefined;

  constructor(
    @inject(ToolRegistry) private readonly registry: ToolRegistry,
    @inject(EXECUTOR_OPTIONS, { isOptional: true }) options: PersonaToolExecutorOptions = {},
  ) {
    this.policy = options.policy ?? 'safe';
    this.logger = options.logger ?? defaultLogger;
    this.container = options.container ?? rootContainer;
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

  /** Runs one call through the whole pipeline. */
  async execute(call: ToolCall, context: ExecutionContext = {}): Promise<ToolResult> {
    const started = performance.now();
    const callId = typeof call?.id === 'string' ? call.id : '';
    let prepared: PreparedCall;
    try {
      prepared = await this.prepareOrThrow(call, context);
    } catch (error) {
      const failure = this.asPreparationFailure(error, call);
      return this.finish({ callId, tool: failure.tool, ok: false, error: failure.error.toPayload(), transformations: failure.transformations, durationMs: performance.now() - started }, failure.error, context);
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
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
    const results = new Array<ToolResult>(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const index = next++;
        results[index] = await this.execute(calls[index]!, context);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
    return results;
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
      // 3. Parse the arguments text.
      const parsed = parseArguments(call?.arguments, policy, this.limits);
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
      if (state.securityEvents.length > 0) this.reportSecurityEvents(tool, callId, state.securityEvents, context);
      const params = (normalized === INVALID || typeof normalized !== 'object' || normalized === null ? {} : normalized) as Record<string, unknown>;

      // 5. Trusted context in, extracted content/title in.
      const injection = injectContext(params, definition.parameters, context);
      transformations.push(...injection.transformations);

      // 6. Validate.
      const issues: ValidationIssue[] = [...state.issues, ...injection.issues];
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
      if (issues.length > 0) fail(new InvalidArgumentsError(messages.invalidArguments(tool, issues), { issues }));

      const handlerParams = entry.implementation.kind === 'class' ? (instance as Record<string, unknown>) : params;
      return { callId, tool, definition, params: handlerParams, transformations, securityEvents: state.securityEvents };
    } catch (error) {
      if (error instanceof PreparationFailure) throw error;
      if (error instanceof MissingContextError) {
        this.logger.error(`tool ${tool}: ${error.message} Set it in the ExecutionContext passed to execute().`, { tool, callId, property: error.property });
        fail(new HandlerError(`The tool "${tool}" cannot run in this session (its execution context is incomplete). Do not retry it.`, { cause: error }));
      }
      if (error instanceof ToolCallError) fail(error);
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
      const child = this.container.createChildContainer();
      child.register(EXECUTION_CONTEXT, { useValue: context });
      child.register(TOOL_INVOCATION, { useValue: invocation });
      const command = child.resolve(entry.implementation.command) as CommandHandler;
      return command.execute(prepared.params, invocation);
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
    for (const event of events) {
      this.logger.warn(`security: the model tried to set trusted context field "${event.contextKey ?? event.key}" of ${tool}; the value was dropped`, {
        tool, callId, path: event.path, key: event.key, sessionId: context.sessionId, model: context.model,
      });
    }
  }

  private finish(result: ToolResult, error: ToolCallError | undefined, context: ExecutionContext, definition?: ToolDefinition): ToolResult {
    const finished: ToolResult = { ...result, durationMs: Math.round(result.durationMs * 1000) / 1000 };
    if (finished.transformations.length > 0) this.stats.record(finished.tool, finished.transformations, context.model);
    logCallOutcome(this.logger, finished, error, definition);
    this.telemetry?.recordCall(finished, error, context);
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
