import { defaultLogger, isLevelEnabled, type Logger } from '../logging/logger';
import { PersonaToolExecutor } from '../execution/persona-tool-executor';
import { defaultToolTelemetry, type ToolTelemetry } from '../execution/telemetry';
import { type ToolRegistry } from '../registry/tool-registry';
import type { ToolDefinition } from '../types/definition';
import type {
  ApprovalDecision,
  ExecutionContext,
  PendingApproval,
  ToolCall,
  ToolErrorPayload,
  ToolResult,
} from '../types/execution';
import type { AssistantTurn, ChatMessage, ChatModel } from './chat-model';
import { modelText } from '../result-view/model-output';
import { SearchedTools, type ToolLoopToolSearch } from './searched-tools';

/** Error codes the model can fix by calling again: these get a retry message and count against the retries. */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  'INVALID_ARGUMENTS',
  'MALFORMED_ARGUMENTS',
  'UNKNOWN_TOOL',
]);

export interface ToolLoopCall {
  readonly call: ToolCall;
  readonly result: ToolResult;
  /** For a retryable failure: which attempt this was (1 = the first call) and how many retries the tool allows. */
  readonly attempt?: number;
  readonly retriesAllowed?: number;
  /** The exact text sent back to the model for this call. */
  readonly message: string;
}

export interface ToolLoopStep {
  readonly index: number;
  readonly turn: AssistantTurn;
  readonly calls: readonly ToolLoopCall[];
  readonly modelDurationMs: number;
  readonly toolsDurationMs: number;
}

export interface ToolLoopResult {
  /**
   * `completed`: the model answered without calling a tool; `max-steps`: stopped at the limit; `failed`: a call ran out
   * of retries; `awaiting-approval`: calls wait for a person (`pendingApprovals`; resume with `approvals`).
   */
  readonly status: 'completed' | 'max-steps' | 'failed' | 'awaiting-approval';
  readonly text?: string;
  /** The whole conversation, including every tool result message. */
  readonly messages: readonly ChatMessage[];
  readonly steps: readonly ToolLoopStep[];
  /** For `failed`: the final error of the call that ran out of retries. */
  readonly error?: ToolErrorPayload & { readonly tool: string; readonly callId: string };
  /**
   * For `awaiting-approval`: the calls that wait for a person's decision (docs/approval.md). The other calls of that
   * turn have their results in `messages`; run the loop again with these `messages` and a decision for each
   * (`approvals`) to continue.
   */
  readonly pendingApprovals?: readonly PendingApproval[];
}

/** A person's decision on one pending approval, given to a resumed loop. */
export interface ToolLoopApproval {
  /** The pending approval, as the paused loop returned it in `pendingApprovals`. */
  readonly pending: PendingApproval;
  readonly decision: ApprovalDecision;
}

/** What the loop needs of an executor: a PersonaToolExecutor, or another runner with its shape (e.g. `@toolwright/queue`'s QueuedToolExecutor). */
export type ToolCallRunner = Pick<PersonaToolExecutor, 'tools' | 'retriesFor' | 'executeAll'> &
  Partial<Pick<PersonaToolExecutor, 'resolveApproval'>>;

export interface ToolLoopOptions {
  readonly model: ChatModel;
  /** The executor to run calls with; or a registry, for which a default executor is made. */
  readonly executor?: ToolCallRunner;
  readonly registry?: ToolRegistry;
  readonly messages: readonly ChatMessage[];
  readonly context?: ExecutionContext;
  /** Model turns at most. Default 8. */
  readonly maxSteps?: number;
  /** Retries per tool after an invalid call (default 2; `@Command({ retries })` overrides per tool). */
  readonly retries?: number;
  /** Parallel calls in one turn run at most this many at once. Default 4. */
  readonly concurrency?: number;
  /** The tools offered to the model; default every registered tool. */
  readonly tools?: readonly ToolDefinition[];
  /**
   * Search, then call: offer only `core` tools and `search_tools` (register it with `registerToolSearch`) at first,
   * and each tool a `search_tools` call finds from the next turn on (among `tools`). Default: off, every tool offered.
   */
  readonly toolSearch?: ToolLoopToolSearch;
  readonly logger?: Logger;
  /** A `toolwright.tool_loop.turn` span per model turn (docs/observability.md). Default: as the executor's; `false`: none. */
  readonly telemetry?: ToolTelemetry | false;
  readonly onStep?: (step: ToolLoopStep) => void;
  readonly signal?: AbortSignal;
  /**
   * Resumes a loop that stopped with `awaiting-approval`: a decision for each of its `pendingApprovals` (with its
   * `messages` as `messages`). Each is resolved (`executor.resolveApproval`) and its result sent to the model first.
   */
  readonly approvals?: readonly ToolLoopApproval[];
}

/** The text a model receives for a failed call it may retry (the error, then how many retries are left). */
export function retryMessage(error: ToolErrorPayload, attempt: number, retriesAllowed: number): string {
  const remaining = retriesAllowed - (attempt - 1);
  return `${error.message}\n(Attempt ${attempt} failed; ${remaining} ${remaining === 1 ? 'retry' : 'retries'} left. Send the call again with corrected arguments.)`;
}

/** The text a model receives when a call has used up its retries. */
export function finalErrorMessage(error: ToolErrorPayload, attempts: number): string {
  return `${error.message}\n(This call failed ${attempts} times; no retries are left. Do not call this tool again with these arguments; answer the user with what you have.)`;
}

/**
 * The tool loop, provider-neutral: ask the model, run its tool calls (in parallel when it sent several), send the
 * results back, until the model answers without a tool call or `maxSteps` is reached. A call that fails with a
 * retryable code gets the model-facing error as its retry message, and the model may retry that tool `retries` more
 * times; after that the error is final: it is sent, reported, and the loop stops with status `failed`.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const logger = options.logger ?? defaultLogger;
  const executor =
    options.executor ??
    (options.registry
      ? new PersonaToolExecutor(options.registry, {
          logger,
          ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
        })
      : undefined);
  if (!executor) throw new TypeError('runToolLoop needs an executor or a registry.');
  const searched = options.toolSearch
    ? new SearchedTools(options.tools ?? executor.tools(), options.toolSearch)
    : undefined;
  let tools = searched?.tools ?? options.tools ?? executor.tools();
  const maxSteps = options.maxSteps ?? 8;
  const defaultRetries = options.retries ?? 2;
  const context: ExecutionContext = { ...options.context, ...(options.signal ? { signal: options.signal } : {}) };
  const messages: ChatMessage[] = [...options.messages];
  const steps: ToolLoopStep[] = [];
  const failures = new Map<string, number>();
  if (options.approvals !== undefined) await resolveApprovals(options.approvals, executor, messages);

  const telemetry = options.telemetry === false ? undefined : (options.telemetry ?? defaultToolTelemetry());

  for (let index = 0; index < maxSteps; index++) {
    const span = telemetry?.startTurn(index, options.model.name);
    const inTurn = <T>(work: () => Promise<T>): Promise<T> => (span ? span.run(work) : work());
    const modelStarted = performance.now();
    let turn: AssistantTurn;
    try {
      turn = await inTurn(() => options.model.complete({ messages, tools, signal: options.signal }));
    } catch (error) {
      span?.fail(error);
      throw error;
    }
    const modelDurationMs = performance.now() - modelStarted;
    messages.push({
      role: 'assistant',
      ...(turn.text !== undefined ? { content: turn.text } : {}),
      ...(turn.toolCalls.length > 0 ? { toolCalls: turn.toolCalls } : {}),
    });
    if (turn.toolCalls.length === 0) {
      const step: ToolLoopStep = { index, turn, calls: [], modelDurationMs, toolsDurationMs: 0 };
      span?.end([]);
      report(step, options, logger);
      steps.push(step);
      return { status: 'completed', ...(turn.text !== undefined ? { text: turn.text } : {}), messages, steps };
    }

    const toolsStarted = performance.now();
    let results: ToolResult[];
    try {
      results = await inTurn(() =>
        executor.executeAll(turn.toolCalls, context, { concurrency: options.concurrency ?? 4 }),
      );
    } catch (error) {
      span?.fail(error);
      throw error;
    }
    if (searched?.addFound(results)) tools = searched.tools;
    const calls: ToolLoopCall[] = [];
    const pendingApprovals: PendingApproval[] = [];
    const failedBefore = span ? new Map(failures) : undefined;
    let exhausted: ToolLoopResult['error'];
    for (let position = 0; position < results.length; position++) {
      const call = turn.toolCalls[position]!;
      const result = results[position]!;
      let message: string;
      let attempt: number | undefined;
      let retriesAllowed: number | undefined;
      if (result.ok) {
        failures.delete(result.tool);
        message = modelText(result);
      } else if (RETRYABLE_CODES.has(result.error.code)) {
        const key = result.tool;
        attempt = (failures.get(key) ?? 0) + 1;
        failures.set(key, attempt);
        retriesAllowed = executor.retriesFor(result.tool) ?? defaultRetries;
        if (attempt > retriesAllowed) {
          message = finalErrorMessage(result.error, attempt);
          exhausted ??= { ...result.error, tool: result.tool, callId: result.callId };
        } else message = retryMessage(result.error, attempt, retriesAllowed);
      } else message = result.error.message;
      calls.push({ call, result, message, ...(attempt !== undefined ? { attempt, retriesAllowed } : {}) });
      // A call waiting for a person gets its tool message when the loop resumes with the decision.
      if (!result.ok && result.pendingApproval !== undefined) {
        pendingApprovals.push(result.pendingApproval);
        continue;
      }
      messages.push({
        role: 'tool',
        callId: call.id,
        tool: result.tool,
        content: message,
        isError: !result.ok,
        result,
      });
    }
    const step: ToolLoopStep = {
      index,
      turn,
      calls,
      modelDurationMs,
      toolsDurationMs: performance.now() - toolsStarted,
    };
    span?.end(
      calls.map((entry) => ({
        tool: entry.result.tool,
        callId: entry.result.callId,
        outcome: entry.result.ok ? 'ok' : entry.result.error.code,
        attempt: entry.attempt ?? (failedBefore?.get(entry.result.tool) ?? 0) + 1,
      })),
    );
    report(step, options, logger);
    steps.push(step);
    if (exhausted) {
      logger.warn(
        `tool loop stopped: ${exhausted.tool} failed ${calls.find((entry) => entry.result.tool === exhausted.tool)?.attempt} times (${exhausted.code})`,
        { tool: exhausted.tool, code: exhausted.code },
      );
      return { status: 'failed', messages, steps, error: exhausted };
    }
    if (pendingApprovals.length > 0) return { status: 'awaiting-approval', messages, steps, pendingApprovals };
  }
  logger.warn(`tool loop stopped after ${maxSteps} model turns without a final answer`, { maxSteps });
  return { status: 'max-steps', messages, steps };
}

/**
 * A resumed loop's first work: each decision resolved and its result sent as the tool message of its call. Every call
 * of the last assistant turn must then have its result (a decision missing for a pending call is the caller's bug).
 */
async function resolveApprovals(
  approvals: readonly ToolLoopApproval[],
  executor: ToolCallRunner,
  messages: ChatMessage[],
): Promise<void> {
  if (executor.resolveApproval === undefined)
    throw new TypeError('runToolLoop got approvals, but its executor has no resolveApproval method.');
  for (const { pending, decision } of approvals) {
    const resolved = await executor.resolveApproval(pending.id, decision);
    // An unknown or expired approval has no call of its own: its message goes to the call it was filed for.
    const result = resolved.callId === '' ? { ...resolved, callId: pending.callId, tool: pending.tool } : resolved;
    const content = result.ok ? modelText(result) : result.error.message;
    messages.push({ role: 'tool', callId: pending.callId, tool: result.tool, content, isError: !result.ok, result });
  }
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  const answered = new Set(messages.slice(last + 1).map((message) => (message.role === 'tool' ? message.callId : '')));
  const turn = messages[last];
  const calls = turn?.role === 'assistant' ? (turn.toolCalls ?? []) : [];
  const missing = calls.filter((call) => !answered.has(call.id));
  if (missing.length > 0)
    throw new TypeError(
      `runToolLoop: the calls ${missing.map((call) => call.id).join(', ')} of the last turn have no result; give a decision for each pending approval in \`approvals\`.`,
    );
}

/** A successful call's value as the text the model receives. */

function report(step: ToolLoopStep, options: ToolLoopOptions, logger: Logger): void {
  if (isLevelEnabled(logger, 'debug')) logTurn(step, options, logger);
  options.onStep?.(step);
}

/** A debug event per model turn (built only when debug is on). */
function logTurn(step: ToolLoopStep, options: ToolLoopOptions, logger: Logger): void {
  logger.debug(`tool loop step ${step.index + 1}: ${step.calls.length} call(s)`, {
    model: options.model.name,
    text: step.turn.text,
    calls: step.calls.map((entry) => ({
      tool: entry.result.tool,
      callId: entry.call.id,
      outcome: entry.result.ok ? 'ok' : entry.result.error.code,
      attempt: entry.attempt,
      transformations: entry.result.transformations.map(
        (transformation) => `${transformation.path}:${transformation.rule}`,
      ),
      durationMs: entry.result.durationMs,
    })),
    modelDurationMs: step.modelDurationMs,
    toolsDurationMs: step.toolsDurationMs,
  });
}
