import type { ToModelOutput } from './content';
import type { CrossFieldValidator } from './cross-field';
import type { ExecutionContext } from './execution';
import type { CoercionPolicy, Constructor, ObjectSchema } from './schema';

/** MCP-style behaviour hints (untrusted when they come from a remote server). */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** Options every tool may carry, whatever its source. */
export interface ToolOptions {
  /** A human-readable title (MCP `title`). */
  readonly title?: string;
  /** Other names the model may call this tool by. */
  readonly aliases?: readonly string[];
  /** Handler timeout; default 30,000 ms. */
  readonly timeoutMs?: number;
  /** A call slower than this logs a slow-call warning; default 1,000 ms. */
  readonly slowCallMs?: number;
  readonly tags?: readonly string[];
  /** Permissions a persona must hold to call this tool. */
  readonly permissions?: readonly string[];
  /** Coercion policy for this tool's arguments (overrides the executor's). */
  readonly coercion?: CoercionPolicy;
  /** How many times the tool loop lets the model retry an invalid call (default 2). */
  readonly retries?: number;
  readonly annotations?: ToolAnnotations;
  /**
   * A cross-field check run after every per-field check passed, on the normalized, context-injected parameters:
   * returns nothing when valid, else a message or issues for the model (`INVALID_ARGUMENTS`, counted by the retries).
   */
  readonly validate?: CrossFieldValidator;
  /** How the tool runs as a durable job (`@toolwright/queue`); the in-process executor ignores it. */
  readonly queue?: ToolQueueOptions;
  /**
   * Human approval (docs/approval.md): `true` asks a person before every call; a function decides per call, on the
   * validated parameters and the trusted context (`true` or a reason text: ask; `false`: run). The call is parsed,
   * normalized and validated first, so an invalid call never reaches a person.
   */
  readonly approval?: boolean | ApprovalCondition;
  /**
   * What the model reads of this tool's result (docs/results.md): maps the handler's value to text (a string), content
   * parts (a `ToolContent`) or a JSON value. `ToolResult.value` stays the handler's value; the view is on
   * `ToolResult.modelOutput`. Runs after the output-schema check, and its view is cut to the result budget.
   */
  readonly toModelOutput?: ToModelOutput;
  /**
   * The most characters of text and JSON one result of this tool may put before the model (overrides the executor's
   * `resultBudgetChars`; default 80,000 characters, about 20,000 tokens). A larger result is cut, well-formed, with a
   * note saying what was cut; `Infinity` turns the budget off for this tool.
   */
  readonly resultBudgetChars?: number;
}

/**
 * Decides whether one validated call needs a person's approval: `true` (or a non-empty text, shown as the reason) asks;
 * `false` runs the call at once. A condition that throws, or answers anything else, asks (fails closed).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- public default: a condition typed with its own params must stay assignable (parameters are contravariant)
export type ApprovalCondition<P = any> = (
  params: P,
  context: ExecutionContext,
) => boolean | string | Promise<boolean | string>;

/** Per-tool job options for `@toolwright/queue` (BullMQ): retries of TIMEOUT and SERVICE_UNAVAILABLE, and priority. */
export interface ToolQueueOptions {
  /** How many times the job may run in all (1 = no retry). Default 1. */
  readonly attempts?: number;
  /** The wait between attempts. Default: exponential from 1,000 ms. */
  readonly backoff?: { readonly type: 'fixed' | 'exponential'; readonly delayMs: number };
  /** BullMQ priority: 1 is the highest, larger numbers run later; absent = no priority (first in, first out). */
  readonly priority?: number;
}

export interface CompactParameterDeclaration {
  readonly name: string;
  /** A grammar type: `string int float bool date datetime`, `array<T>`, `array[T]`, `T[]`. */
  readonly type: string;
  readonly required?: boolean;
  readonly description?: string;
}

/** The compact declaration a client sends: `{ command_name, description, parameters: [{ name, type, required }] }`. */
export interface CompactDeclaration {
  readonly command_name: string;
  readonly description?: string;
  readonly parameters: readonly CompactParameterDeclaration[];
}

/** Where a definition came from: a decorated command class, a JSON Schema, or a compact declaration. */
export type ToolDefinitionSource =
  | { readonly kind: 'class'; readonly command: Constructor; readonly params: Constructor }
  | { readonly kind: 'json-schema'; readonly schema: Readonly<Record<string, unknown>> }
  | { readonly kind: 'compact'; readonly declaration: CompactDeclaration };

/** The one internal tool definition (IR): immutable, built once at registration. */
export interface ToolDefinition {
  /** The name the developer chose, kept exactly (`decision/propose`, `math.factorial`). */
  readonly name: string;
  readonly description: string;
  /** Always an object at the root; context fields are in here, marked, and never exported. */
  readonly parameters: ObjectSchema;
  readonly options: ToolOptions;
  readonly source: ToolDefinitionSource;
  /**
   * What the handler returns, when the tool declares it (`@Command({ returns })`, `outputSchema`): an object schema the
   * executor checks each result against (`RESULT_INVALID` on a mismatch) and MCP lists as the tool's `outputSchema`.
   */
  readonly output?: ObjectSchema;
}

/** The output schema of a JSON-Schema or compact tool (a command class declares its result with `returns`). */
export interface OutputSchemaOptions {
  /** A JSON Schema (draft 2020-12 subset) of an object: what the handler returns (MCP `outputSchema`). */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}

/** A JSON Schema tool as registered at run time (an MCP server's `tools/list` entry has this shape). */
export interface JsonSchemaToolDeclaration {
  readonly name: string;
  readonly description?: string;
  /** Draft 2020-12 subset; `inputSchema` is accepted as a synonym (MCP). */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  /** What the tool returns (MCP `outputSchema`): an object schema, imported like `parameters`. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}
