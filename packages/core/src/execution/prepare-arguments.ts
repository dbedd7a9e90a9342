import { HandlerError } from '../errors/handler-error';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { ToolCallError } from '../errors/tool-call-error';
import { normalizerOf, type CompiledTool } from '../compile/tool-plan';
import { checkArgumentBudget } from '../pipeline/argument-budget';
import { injectContext, MissingContextError } from '../pipeline/context-injection';
import { findContextImpostors } from '../pipeline/context-impostors';
import { crossFieldIssues, CrossFieldValidatorError } from '../pipeline/cross-field';
import { DataPacketOrderError } from '../pipeline/data-packets';
import { messages, RELATIVE_DATE_RESOLVER } from '../pipeline/messages';
import { INVALID, NormalizeState, type SecurityEvent } from '../pipeline/normalizer';
import { CheckedArguments, parseCheckedArguments } from '../pipeline/parse-arguments';
import { onlyUnknownKeysIssue } from '../rules/unknown-keys';
import { redactIssues } from '../pipeline/redaction';
import { instantiationIssue, validateWithClassValidator } from '../pipeline/reference-validation';
import { sanitizeArguments } from '../pipeline/sanitize';
import { dtoForSchema } from '../validation/synthesize-dto';
import type { ToolDefinition } from '../types/definition';
import type { ExecutionContext, ToolCall, Transformation, ValidationIssue } from '../types/execution';
import type { Logger } from '../logging/logger';
import { describeThrown } from './fault-tolerance';
import type { PreparedCall } from './prepared-call';
import { logSecurityEvents } from './security-log';
import { withoutSensitiveEcho } from './sensitive-errors';
import type { TransformationStats } from './transformation-stats';

/**
 * A prepared call with the compiled tool it was prepared with (the handler runs with the same one). A class, so that
 * "ready, refused or pending?" is two `instanceof` checks of the executor's own classes (no `then` lookup).
 */
export class CompiledCall implements PreparedCall {
  constructor(
    readonly callId: string,
    readonly tool: string,
    readonly definition: ToolDefinition,
    readonly params: Record<string, unknown>,
    readonly transformations: readonly Transformation[],
    readonly securityEvents: readonly SecurityEvent[],
    readonly compiled: CompiledTool,
    /** The values the DTO was built from (`params` itself for a function handler): see `PreparedCall.input`. */
    readonly input: Record<string, unknown> = params,
  ) {}
}

/** Thrown inside the executor only (caught by it), so a plain object: no stack to capture. */
export class PreparationFailure {
  constructor(
    readonly error: ToolCallError,
    readonly tool: string,
    readonly transformations: readonly Transformation[],
  ) {}
}

/** Steps 1-6 of one call: ready for its handler, or the model-facing failure. */
export type Preparation = CompiledCall | PreparationFailure;

/** Whether steps 1-6 answered synchronously (else a Promise of the Preparation: a native one, from `.then`). */
export function isSettled(preparation: Preparation | Promise<Preparation>): preparation is Preparation {
  return preparation instanceof CompiledCall || preparation instanceof PreparationFailure;
}

/**
 * Steps 3-6 of a call (DESIGN section 3), run with the tool's compiled plan: 3 read the arguments text (with the
 * canonical check on the result), 4 normalize against the IR (only when the check refused), 5 drop model-supplied
 * context and inject trusted context, 6 validate (the DTO instance, the developer rules, then the cross-field checks).
 */
export class ArgumentPreparation {
  constructor(
    private readonly registry: { has(name: string): boolean },
    private readonly logger: Logger,
    private readonly stats: TransformationStats,
  ) {}

  /**
   * Steps 3-6 of one call of `compiled` (steps 1 and 2 passed): the prepared call, the model-facing failure, or a promise
   * of either (an asynchronous rule or cross-field check). Throws (or rejects with) a PreparationFailure.
   */
  prepare(
    call: ToolCall,
    context: ExecutionContext,
    compiled: CompiledTool,
    tool: string,
    callId: string,
    transformations: Transformation[],
  ): Preparation | Promise<Preparation> {
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
    const { limits } = compiled.settings;
    const fastPath = compiled.settings.canonicalFastPath !== false;
    // 3. Parse the arguments text (arguments passed as an object get the text's size budget first).
    if (typeof call?.arguments === 'object' && call.arguments !== null) checkArgumentBudget(call.arguments, limits);
    // With the tool's canonical check run on the result (decision 0020, fused-parse-check: one walk for both). Its
    // direct answer is JSON.parse's value itself (accepted, nothing recorded: no record made); any other, a record.
    const parsed = parseCheckedArguments(
      call?.arguments,
      policy,
      limits,
      compiled.callTarget,
      fastPath ? compiled.check : undefined,
    );
    const checked = parsed instanceof CheckedArguments ? parsed : undefined;
    if (checked !== undefined && checked.transformations.length > 0) transformations.push(...checked.transformations);
    const accepted = checked === undefined || checked.accepted;

    let params: Record<string, unknown>;
    let issues: ValidationIssue[];
    let securityEvents: readonly SecurityEvent[];
    if (accepted) {
      // Already valid and canonical (arguments read from text here, so the pipeline's own object): sanitizing,
      // normalizing and the impostor scan would each return it unchanged, with nothing to record. Step 5 writes trusted
      // context into a copy: a recorded value (an unwrapped call's arguments) may be this very object.
      const value = checked === undefined ? (parsed as Record<string, unknown>) : checked.value;
      params = compiled.injects ? { ...value } : value;
      issues = [];
      securityEvents = NO_SECURITY_EVENTS;
    } else {
      // Only a record answers "not accepted".
      const refused = parsed as CheckedArguments;
      // 3b. Sanitize (before anything else sees the value): strip prototype keys, enforce depth and size limits.
      const sanitized = sanitizeArguments(refused.value, limits, { owned: refused.owned });
      if (sanitized.transformations.length > 0) transformations.push(...sanitized.transformations);

      // 4. Normalize keys and values against the IR (on the compiled path, checking every constraint in the same pass).
      const state = new NormalizeState({
        timeZone: context.timeZone,
        relativeDateTool: this.registry.has(RELATIVE_DATE_RESOLVER),
        limits,
      });
      const normalized = normalizerOf(compiled)(sanitized.value, '', state);
      if (state.transformations.length > 0) transformations.push(...state.transformations);
      const impostors = findContextImpostors(
        sanitized.value,
        state.securityEvents,
        definition.parameters,
        state.transformations,
      );
      securityEvents = impostors.length > 0 ? [...state.securityEvents, ...impostors] : state.securityEvents;
      if (securityEvents.length > 0) this.reportSecurityEvents(tool, callId, securityEvents, context);
      params = (
        normalized === INVALID || typeof normalized !== 'object' || normalized === null ? {} : normalized
      ) as Record<string, unknown>;
      issues = state.issues;
      // Every key the model sent was dropped as unknown: refused with the parameter names (issue 27, decision 1).
      const nothingKept =
        issues.length === 0 ? onlyUnknownKeysIssue(params, state.transformations, definition.parameters) : undefined;
      if (nothingKept !== undefined) issues = [nothingKept];
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
    const instantiate = compiled.instantiate;
    if (instantiate !== undefined) {
      try {
        // A class command's accepted arguments are the pipeline's own and reach nothing else: the instance may adopt
        // them (a function tool's handler gets `params` itself, so its rules' instance is built beside them).
        instance = instantiate(params, accepted && compiled.commandClass !== undefined);
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
      params,
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
}

const CONTAINER_RULES: ReadonlySet<string> = new Set([
  'minItems',
  'maxItems',
  'uniqueItems',
  'required',
  'unknown-key',
]);

/** Step 6's issues and the developer rules' (those not repeating one already reported). */
function withDeveloperIssues(issues: ValidationIssue[], found: readonly ValidationIssue[]): ValidationIssue[] {
  if (found.length === 0) return issues;
  const all = [...issues];
  const reported = issues.map((issue) => issue.path);
  for (const issue of found) if (!reported.some((path) => repeats(issue, path))) all.push(issue);
  return all;
}

/** Whether a class-validator issue repeats a normalizer issue at `path`: the same value, inside it, or its container's element rule. */
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

const NO_SECURITY_EVENTS: readonly SecurityEvent[] = Object.freeze([]);
const NOTHING_INJECTED = Object.freeze({ transformations: Object.freeze([]), issues: Object.freeze([]) });
