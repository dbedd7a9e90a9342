import type { ModelOutput } from './content';
import type { ContextKey } from './schema';

/** One tool call as every provider's parser returns it. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Text (most providers) or an already-parsed object (Anthropic, Gemini, Ollama, Bedrock). */
  readonly arguments: string | Record<string, unknown> | null | undefined;
  /** Changes a provider parser already made (e.g. OpenAI strict mode's nulls mapped back to absent); reported first in the result. */
  readonly transformations?: readonly Transformation[];
}

/** Who is calling: the persona's allow-lists come from trusted configuration, never from the model. */
export interface PersonaContext {
  readonly name?: string;
  /** Tool names this persona may call; absent = no restriction by name. */
  readonly allowedTools?: readonly string[];
  /** Tags this persona may call; absent = no restriction by tag. */
  readonly allowedTags?: readonly string[];
  /** Permissions the persona holds, matched against `@Command({ permissions })`. */
  readonly permissions?: readonly string[];
}

/** A pipeline data packet (Data Machine's `$data` entries): extracted fields read `content.body` and `content.title` of the latest one (see `dataPacketOrder`). */
export interface DataPacket {
  readonly content?: { readonly body?: unknown; readonly title?: unknown; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** Which end of a packet list is the latest. */
export type DataPacketOrder = 'oldest-first' | 'latest-first';

/** The trusted execution context: set by the engine, never by the model. */
export interface ExecutionContext {
  readonly sessionId?: string;
  readonly jobId?: string;
  readonly flowStepId?: string;
  readonly sourceUrl?: string;
  readonly imageUrl?: string;
  readonly handlerConfig?: Readonly<Record<string, unknown>>;
  readonly persona?: PersonaContext;
  /**
   * Pipeline data packets in the order `dataPacketOrder` names; extraction reads the latest. With more than one packet
   * the order must be said (`dataPacketOrder`), or the packets given as `dataPacketsLatestFirst`: a guessed order
   * would extract the wrong packet's content.
   */
  readonly dataPackets?: readonly DataPacket[];
  /** Which end of `dataPackets` is the latest: `'oldest-first'` (the last packet is the latest) or `'latest-first'`. */
  readonly dataPacketOrder?: DataPacketOrder;
  /** Data Machine's order: `[0]` is the latest packet (its `$data`). Give this or `dataPackets`, not both. */
  readonly dataPacketsLatestFirst?: readonly DataPacket[];
  /** IANA time zone used for datetimes without an offset and by `resolve_relative_date`. */
  readonly timeZone?: string;
  /** The reference instant for relative dates (default: now). */
  readonly now?: Date;
  /** Cancellation from the caller. */
  readonly signal?: AbortSignal;
  /** The model that produced the call, for the per-model transformation counts. */
  readonly model?: string;
  /**
   * Set by the executor for a call that runs after a person approved it (`resolveApproval`): who approved it and
   * when. A value given to `execute()` is passed on like any context field, but it is not an approval: it never lets a
   * call skip one (only the executor marks a call approved).
   */
  readonly approval?: ApprovalOutcome;
}

/** Maps each reserved context key to the `ExecutionContext` property it reads. */
export const CONTEXT_KEY_PROPERTIES: Readonly<Record<ContextKey, keyof ExecutionContext>> = Object.freeze({
  session_id: 'sessionId',
  job_id: 'jobId',
  flow_step_id: 'flowStepId',
  source_url: 'sourceUrl',
  image_url: 'imageUrl',
  handler_config: 'handlerConfig',
  persona: 'persona',
});

/** One change the normalizer made to the model's arguments. */
export interface Transformation {
  /** Dotted path with array indices: `options[1].label`; `''` for the arguments text itself. */
  readonly path: string;
  /** The rule's name, e.g. `string-to-int`, `snake-case-key`, `double-encoded-json`. */
  readonly rule: string;
  readonly from: unknown;
  readonly to: unknown;
}

export type ToolErrorCode =
  | 'UNKNOWN_TOOL'
  | 'MALFORMED_ARGUMENTS'
  | 'INVALID_ARGUMENTS'
  | 'PERMISSION_DENIED'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'HANDLER_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'RESULT_INVALID'
  | 'APPROVAL_REQUIRED'
  | 'APPROVAL_DENIED'
  | 'APPROVAL_NOT_FOUND';

/** One failing argument, structured. */
export interface ValidationIssue {
  /** Path of the argument (`options[0].label`), `''` for the whole arguments object. */
  readonly path: string;
  /** For a cross-field issue: every argument involved (`path` is the first of them). */
  readonly paths?: readonly string[];
  /** Machine-readable: `type`, `required`, `enum`, `minimum`, `unknown-key`, `format`, ... */
  readonly rule: string;
  readonly expected: string;
  /** What was received, rendered short (never a secret: sensitive fields are redacted). */
  readonly received?: string;
  /** A valid example value, rendered as JSON. */
  readonly example?: string;
  readonly message: string;
}

/** A tool error as it goes back to the model: no stack, no path, no secret. */
export interface ToolErrorPayload {
  readonly code: ToolErrorCode;
  /** Text for the model: which argument, what was expected, what was received, an example, what to do. */
  readonly message: string;
  readonly issues: readonly ValidationIssue[];
  /** For UNKNOWN_TOOL: up to three close names. */
  readonly suggestions?: readonly string[];
  /** Whether calling again with corrected arguments can succeed. */
  readonly retryable: boolean;
}

/** A validated call waiting for a person's decision (`executor.resolveApproval(id, decision)`; docs/approval.md). */
export interface PendingApproval {
  /** The approval's id: unguessable, single use. */
  readonly id: string;
  readonly callId: string;
  readonly tool: string;
  /** The validated parameters as plain JSON, without trusted-context fields; `sensitive` values are `[redacted]`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Why a person is asked (the text an approval condition returned), when it gave one. */
  readonly reason?: string;
  /** ISO-8601: when the call asked for approval. */
  readonly requestedAt: string;
  /** ISO-8601: after this the id is refused (`APPROVAL_NOT_FOUND`). */
  readonly expiresAt: string;
}

/** A person's answer to a pending approval. */
export interface ApprovalDecision {
  readonly approved: boolean;
  /** Who decided (a user id, an email): recorded in the result, the log and the span. */
  readonly by?: string;
  /** Why; for a denial, the model reads it. */
  readonly reason?: string;
}

/** Who decided a call's approval and when: on the result of a resolved approval. */
export interface ApprovalOutcome {
  readonly id: string;
  readonly approved: boolean;
  readonly by?: string;
  readonly reason?: string;
  /** ISO-8601: when the decision was made. */
  readonly decidedAt: string;
}

export type ToolResult<T = unknown> =
  | {
      readonly callId: string;
      /** The resolved registry name (or the name as called, when unknown). */
      readonly tool: string;
      readonly ok: true;
      /** The handler's value, whole: what the application receives. */
      readonly value: T;
      /**
       * What the model reads, when that is not `value` as it is: a `toModelOutput` view, the parts of a `ToolContent`
       * value, or a view cut to the result budget (`modelOutput.truncation` says what was cut). Absent: the model reads
       * `value` (a string as text, anything else as JSON). Providers lower it (docs/results.md).
       */
      readonly modelOutput?: ModelOutput;
      readonly transformations: readonly Transformation[];
      readonly durationMs: number;
      /** Set when the call ran after a person approved it. */
      readonly approval?: ApprovalOutcome;
    }
  | {
      readonly callId: string;
      readonly tool: string;
      readonly ok: false;
      readonly error: ToolErrorPayload;
      readonly transformations: readonly Transformation[];
      readonly durationMs: number;
      /** With `error.code === 'APPROVAL_REQUIRED'`: the call waiting for a person's decision; the handler did not run. */
      readonly pendingApproval?: PendingApproval;
      /** Set when a person decided on the call (a denial, or an approved call that then failed). */
      readonly approval?: ApprovalOutcome;
    };

/**
 * The value a command class's `execute` (or a handler function) resolves to: `CommandValue<typeof PlaceOrderCommand>`.
 * With `@Command({ returns: Dto })`, declare `execute(): Dto` (or `Promise<Dto>`): the executor checks each value
 * against `Dto` at run time (`RESULT_INVALID` otherwise), so the type says what the application receives.
 */
export type CommandValue<C> =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor and any parameters: only the result type is read
  C extends abstract new (...args: any[]) => { execute(...args: any[]): infer R }
    ? Awaited<R>
    : // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any handler function: only the result type is read
      C extends (...args: any[]) => infer R
      ? Awaited<R>
      : never;

/**
 * A `ToolResult` typed by the command (or handler) it comes from: `ToolResultOf<typeof PlaceOrderCommand>` is
 * `ToolResult<Order>` when its `execute` returns an `Order`. `executor.execute<typeof PlaceOrderCommand>(call)` gives
 * it; without a type argument, `ToolResult` (of `unknown`).
 */
export type ToolResultOf<C> = unknown extends C ? ToolResult : ToolResult<CommandValue<C>>;
