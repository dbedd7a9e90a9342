import { ApprovalDeniedError } from '../../errors/approval-denied-error';
import { ApprovalNotFoundError } from '../../errors/approval-not-found-error';
import { ApprovalRequiredError } from '../../errors/approval-required-error';
import { HandlerError } from '../../errors/handler-error';
import { PermissionDeniedError } from '../../errors/permission-denied-error';
import { ServiceUnavailableError } from '../../errors/service-unavailable-error';
import type { ToolCallError } from '../../errors/tool-call-error';
import type { Logger } from '../../logging/logger';
import { redactValue, sensitivePaths } from '../../pipeline/redaction';
import type { ToolDefinition } from '../../types/definition';
import type {
  ApprovalDecision,
  ApprovalOutcome,
  ExecutionContext,
  PendingApproval,
  ToolResult,
} from '../../types/execution';
import type { CompiledTool } from '../../compile/tool-plan';
import type { PreparedCall } from '../prepared-call';
import { CompiledCall } from '../prepare-arguments';
import { describeThrown } from '../fault-tolerance';
import { logSafeName } from '../log-text';
import { MemoryApprovalStore, type ApprovalStore, type StoredApproval } from './approval-store';
import { approvalMessages } from './messages';

/** The executor's `approvals` option (docs/approval.md). */
export interface ApprovalOptions {
  /** Where pending approvals wait. Default: a `MemoryApprovalStore` (in this process, bounded). */
  readonly store?: ApprovalStore;
  /** How long a pending approval may wait for a decision. Default 1 hour. */
  readonly expiresInMs?: number;
  /**
   * Whether this approver may decide on this call (`decision.by` says who). `false` (or a throw) refuses the decision
   * with `PERMISSION_DENIED` and leaves the approval pending for someone who may.
   */
  readonly canApprove?: (approval: PendingApproval, decision: ApprovalDecision) => boolean | Promise<boolean>;
}

/**
 * What a permit binds: one call (its id and resolved tool), whether a person approved it, and the parameters it may run
 * with (`accepts`, given the validated parameters as plain JSON without trusted-context fields).
 */
export interface CallBinding {
  /** The call's id (`ToolCall.id`; `''` for a call without one). */
  readonly callId: string;
  /** The call's resolved registry name. */
  readonly tool: string;
  /** A person approved this call: it runs without asking again. `false`: a tool with `approval` still asks. */
  readonly approved: boolean;
  /** Whether the validated parameters are the ones that were approved or enqueued (absent: any). */
  readonly accepts?: (params: Record<string, unknown>) => boolean;
}

/** An opaque, single-use permit for one call: made only by `ApprovalGate.bind`, redeemed once by the executor. */
export class CallPermit {
  declare private readonly brand: never;
}

/** A decision `claim` accepted: the approved call to run, with who approved it and when. */
export interface ApprovedCall {
  readonly granted: true;
  readonly approval: StoredApproval;
  readonly outcome: ApprovalOutcome;
  /**
   * The trusted context to run the call with: the stored one plus `approval` (the outcome, for the handler to read). It
   * marks nothing: passed to `execute` again, it is asked about like any other context.
   */
  readonly context: ExecutionContext;
}

/** What a decision led to: the approved call to run, or the result that ends it (denied, not found, refused). */
export type ApprovalClaim = ApprovedCall | { readonly granted: false; readonly result: ToolResult };

/** Reports a result: counts, logs and records it (the executor's CallReport.finish). */
export type ResultSink = (
  result: ToolResult,
  error: ToolCallError,
  context: ExecutionContext,
  definition: ToolDefinition | undefined,
) => ToolResult;

const DEFAULT_EXPIRY_MS = 3_600_000;

/**
 * Human approval of tool calls: decides whether a validated call needs a person, files it in the store and answers
 * `APPROVAL_REQUIRED` with the pending approval, and turns a person's decision into the call to run or the result
 * that ends it. Shared by `PersonaToolExecutor` (which runs an approved call) and `@toolwright/queue` (which enqueues
 * it). Never throws: every failure is a result.
 */
export class ApprovalGate {
  readonly store: ApprovalStore;
  private readonly expiresInMs: number;
  /**
   * The bindings of unused permits (see `bind`): only the gate makes a permit, and the executor redeems it once, for the
   * one call it names. Nothing about a call's context marks it approved, so a handler that passes its own
   * `invocation.context` to a nested `execute` is asked about like any other caller.
   */
  private readonly permits = new WeakMap<CallPermit, CallBinding>();

  constructor(
    private readonly options: ApprovalOptions,
    private readonly logger: Logger,
    private readonly sink: ResultSink,
  ) {
    this.store = options.store ?? new MemoryApprovalStore();
    this.expiresInMs = options.expiresInMs ?? DEFAULT_EXPIRY_MS;
    if (!(Number.isFinite(this.expiresInMs) && this.expiresInMs > 0))
      throw new RangeError(`approvals.expiresInMs must be a positive number; got ${String(options.expiresInMs)}.`);
  }

  /**
   * A single-use permit for one call decided elsewhere, for `PersonaToolExecutor.executeBound`: a runner that holds an
   * approval (a `@toolwright/queue` worker running a signed job an API process had approved; the AI SDK or Agents SDK
   * adapter after the framework asked the person), or that must run exactly the values another process validated.
   * Trusted code only; the permit is never handed to the handler.
   */
  bind(binding: CallBinding): CallPermit {
    const permit = new CallPermit();
    Object.freeze(permit);
    this.permits.set(permit, Object.freeze({ ...binding }));
    return permit;
  }

  /**
   * Uses `permit` for the validated call `prepared`: its binding when the permit is unused and names this call (its id,
   * its tool, and parameters its `accepts` accepts), else the error that ends the call (logged as a security event).
   */
  redeem(permit: CallPermit, prepared: PreparedCall): CallBinding | ToolCallError {
    const binding = this.permits.get(permit);
    this.permits.delete(permit);
    const refuse = (why: string) => {
      this.logger.warn(`security: tool call ${logSafeName(prepared.tool)} refused: ${why}`, {
        tool: logSafeName(prepared.tool),
        callId: prepared.callId,
      });
      return new HandlerError(approvalMessages.notTheBoundCall(prepared.tool));
    };
    if (binding === undefined) return refuse('its permit is unknown or was used already');
    if (binding.callId !== prepared.callId || binding.tool !== prepared.tool)
      return refuse('its permit was made for another call');
    if (binding.accepts !== undefined) {
      let accepted = false;
      try {
        accepted = binding.accepts(plainParams(prepared.definition, prepared.params, false)) === true;
      } catch {
        accepted = false;
      }
      if (!accepted) return refuse('its parameters differ from the ones that were approved or enqueued');
    }
    return binding;
  }

  /**
   * A validated call of a tool with an `approval` option: `run` when it needs no person, else the `APPROVAL_REQUIRED`
   * result. Never rejects (`lastResort` turns anything unexpected into a result).
   */
  runOrAsk(
    prepared: PreparedCall,
    context: ExecutionContext,
    started: number,
    run: () => ToolResult | Promise<ToolResult>,
    lastResort: (error: unknown) => ToolResult,
  ): ToolResult | Promise<ToolResult> {
    return this.request(prepared, context, started)
      .then((pending) => pending ?? run())
      .catch(lastResort);
  }

  /**
   * For a validated call of a tool with an `approval` option: the `APPROVAL_REQUIRED` result when a person must
   * decide, `undefined` when the call may run now (its condition said `false`).
   */
  async request(prepared: PreparedCall, context: ExecutionContext, started: number): Promise<ToolResult | undefined> {
    const asked = await this.condition(prepared, context);
    if (asked === false) return undefined;
    const reason = asked.reason;
    const now = Date.now();
    const { signal: _signal, approval: _approval, ...trusted } = context;
    const stored: StoredApproval = {
      id: (require('node:crypto') as typeof import('node:crypto')).randomUUID(), // loaded by the first pause (ADR 0027)
      callId: prepared.callId,
      tool: prepared.tool,
      params: prepared.params,
      input: plainParams(prepared.definition, prepared.input ?? prepared.params, false),
      context: trusted,
      transformations: prepared.transformations,
      ...(reason !== undefined ? { reason } : {}),
      requestedAt: now,
      expiresAt: now + this.expiresInMs,
    };
    const base = { callId: prepared.callId, tool: prepared.tool, ok: false as const };
    const { transformations } = prepared;
    try {
      await this.store.put(stored);
    } catch (error) {
      const failure = new ServiceUnavailableError(approvalMessages.storeFailed(prepared.tool), { cause: error });
      const result = { ...base, error: failure.toPayload(), transformations, durationMs: elapsed(started) };
      return this.sink(result, failure, context, prepared.definition);
    }
    const pendingApproval = pendingView(stored, prepared.definition);
    const required = new ApprovalRequiredError(approvalMessages.required(prepared.tool, reason));
    this.logger.info(`tool call ${logSafeName(prepared.tool)} awaits approval ${stored.id}`, {
      tool: logSafeName(prepared.tool),
      callId: prepared.callId,
      approvalId: stored.id,
      expiresAt: pendingApproval.expiresAt,
      params: pendingApproval.params,
    });
    const result = {
      ...base,
      error: required.toPayload(),
      transformations,
      durationMs: elapsed(started),
      pendingApproval,
    };
    return this.sink(result, required, context, prepared.definition);
  }

  /**
   * Whether a validated call needs a person (its tool's `approval` option, decided on its parameters and context): what
   * an adapter whose framework asks the person itself (the AI SDK's and the Agents SDK's `needsApproval`) answers with.
   */
  async needsApproval(prepared: PreparedCall, context: ExecutionContext): Promise<boolean> {
    return (await this.condition(prepared, context)) !== false;
  }

  /** The tool's `approval` option for this call: `false` (run), or ask (with the condition's reason, if it gave one). */
  private async condition(
    prepared: PreparedCall,
    context: ExecutionContext,
  ): Promise<false | { readonly reason?: string }> {
    const rule = prepared.definition.options.approval;
    if (typeof rule !== 'function') return rule === true ? {} : false;
    let answer: unknown;
    try {
      answer = await rule(prepared.params, context);
    } catch (error) {
      // Fails closed: a condition that cannot decide asks a person.
      this.logger.warn(`tool ${logSafeName(prepared.tool)}: its approval condition threw; asking a person`, {
        tool: logSafeName(prepared.tool),
        callId: prepared.callId,
        cause: describeThrown(error),
      });
      return {};
    }
    if (answer === false) return false;
    return typeof answer === 'string' && answer.length > 0 ? { reason: answer } : {};
  }

  /**
   * A person's decision on approval `id`: the approved call to run, or the result that ends it (`APPROVAL_DENIED`,
   * `APPROVAL_NOT_FOUND` for an unknown, expired or used id, `PERMISSION_DENIED` when `canApprove` refuses the
   * approver). At most one decision on an id is ever granted, however many arrive at once.
   */
  async claim(
    id: string,
    decision: ApprovalDecision,
    definition: (tool: string) => ToolDefinition | undefined,
  ): Promise<ApprovalClaim> {
    const started = performance.now();
    if (!isDecision(decision))
      throw new TypeError(
        'resolveApproval needs a decision { approved: boolean, by?: string, reason?: string } as its second argument.',
      );
    const approval = typeof id === 'string' ? await this.lookup(() => this.store.get(id)) : undefined;
    if (approval === undefined) return this.notFound(id, started);
    const tool = approval.tool;
    const toolDefinition = definition(tool);
    if (this.options.canApprove !== undefined) {
      let allowed = false;
      try {
        allowed = (await this.options.canApprove(pendingView(approval, toolDefinition), decision)) === true;
      } catch (error) {
        this.logger.warn(`approval ${approval.id}: canApprove threw; the decision is refused`, {
          approvalId: approval.id,
          cause: describeThrown(error),
        });
      }
      if (!allowed) {
        const refused = new PermissionDeniedError(approvalMessages.notAllowed(tool, decision.by));
        this.logger.warn(`approval ${approval.id} for tool ${logSafeName(tool)}: approver refused by canApprove`, {
          approvalId: approval.id,
          tool: logSafeName(tool),
          by: decision.by,
        });
        const result = this.failure(approval, refused, started);
        return { granted: false, result: this.sink(result, refused, approval.context, toolDefinition) };
      }
    }
    // The single use: of every concurrent decision on this id, only the one whose take returns it goes on.
    const taken = await this.lookup(() => this.store.take(id));
    if (taken === undefined) return this.notFound(id, started);
    const outcome: ApprovalOutcome = {
      id: taken.id,
      approved: decision.approved,
      ...(typeof decision.by === 'string' ? { by: decision.by } : {}),
      ...(typeof decision.reason === 'string' ? { reason: decision.reason } : {}),
      decidedAt: new Date().toISOString(),
    };
    const context: ExecutionContext = { ...taken.context, approval: outcome };
    this.logger.info(
      `approval ${taken.id} for tool ${logSafeName(tool)} ${decision.approved ? 'granted' : 'denied'}${outcome.by ? ` by ${logSafeName(outcome.by)}` : ''}`,
      { approvalId: taken.id, tool: logSafeName(tool), callId: taken.callId, ...outcome },
    );
    if (decision.approved) return { granted: true, approval: taken, outcome, context };
    const denied = new ApprovalDeniedError(approvalMessages.denied(tool, outcome.by, outcome.reason));
    const result = { ...this.failure(taken, denied, started), approval: outcome };
    return { granted: false, result: this.sink(result, denied, context, toolDefinition) };
  }

  private async lookup(read: () => Promise<StoredApproval | undefined>): Promise<StoredApproval | undefined> {
    try {
      return await read();
    } catch (error) {
      // A store that cannot answer (Redis down, a tampered record) answers "not found": nothing runs.
      this.logger.error('approval store: a lookup failed', { cause: describeThrown(error) });
      return undefined;
    }
  }

  private notFound(id: unknown, started: number): ApprovalClaim {
    const error = new ApprovalNotFoundError(approvalMessages.notFound());
    const result: ToolResult = {
      callId: '',
      tool: '',
      ok: false,
      error: error.toPayload(),
      transformations: [],
      durationMs: elapsed(started),
    };
    this.logger.warn('approval not found (unknown, expired or already decided)', {
      approvalId: typeof id === 'string' ? logSafeName(id) : typeof id,
    });
    return { granted: false, result };
  }

  private failure(approval: StoredApproval, error: ToolCallError, started: number) {
    return {
      callId: approval.callId,
      tool: approval.tool,
      ok: false as const,
      error: error.toPayload(),
      transformations: approval.transformations,
      durationMs: elapsed(started),
    };
  }
}

/** An approval kept in memory as the call its handler runs with: its validated parameters, exactly. */
export function approvedCall(approval: StoredApproval, compiled: CompiledTool): CompiledCall {
  const { callId, tool, params, transformations } = approval;
  return new CompiledCall(callId, tool, compiled.definition, params, transformations, [], compiled);
}

/** What callers and people see of a stored approval: the parameters as plain JSON, sensitive values redacted. */
export function pendingView(approval: StoredApproval, definition: ToolDefinition | undefined): PendingApproval {
  return {
    id: approval.id,
    callId: approval.callId,
    tool: approval.tool,
    params: definition ? plainParams(definition, approval.params, true) : {},
    ...(approval.reason !== undefined ? { reason: approval.reason } : {}),
    requestedAt: new Date(approval.requestedAt).toISOString(),
    expiresAt: new Date(approval.expiresAt).toISOString(),
  };
}

/**
 * Validated parameters as plain JSON without trusted-context fields (they come from the context again), with
 * `sensitive` values replaced by `[redacted]` when `redact` is set.
 */
export function plainParams(
  definition: ToolDefinition,
  params: Record<string, unknown>,
  redact: boolean,
): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(params ?? {})) as Record<string, unknown>;
  for (const property of definition.parameters.properties)
    if (property.context !== undefined) delete plain[property.name];
  const sensitive = redact ? sensitivePaths(definition.parameters) : undefined;
  return sensitive && sensitive.size > 0 ? (redactValue(plain, sensitive) as Record<string, unknown>) : plain;
}

/** Whether two plain JSON values are equal (object keys in any order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.hasOwn(b, key)) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function isDecision(decision: unknown): decision is ApprovalDecision {
  if (typeof decision !== 'object' || decision === null) return false;
  const { approved, by, reason } = decision as Record<string, unknown>;
  return (
    typeof approved === 'boolean' &&
    (by === undefined || typeof by === 'string') &&
    (reason === undefined || typeof reason === 'string')
  );
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
