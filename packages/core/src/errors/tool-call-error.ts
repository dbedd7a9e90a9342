import type { ToolErrorCode, ToolErrorPayload, ValidationIssue } from '../types/execution';
import { ToolwrightError } from './toolwright-error';

/**
 * An error about one tool call, in one of two families: input errors (for the model: UNKNOWN_TOOL,
 * MALFORMED_ARGUMENTS, INVALID_ARGUMENTS, PERMISSION_DENIED) and execution errors (TIMEOUT, CANCELLED,
 * HANDLER_ERROR, SERVICE_UNAVAILABLE). `message` is model-facing text; `cause` is for logs only.
 */
export abstract class ToolCallError extends ToolwrightError {
  abstract override readonly code: ToolErrorCode;
  abstract readonly family: 'input' | 'execution';
  readonly issues: readonly ValidationIssue[];
  readonly suggestions?: readonly string[];

  constructor(
    message: string,
    options: { cause?: unknown; issues?: readonly ValidationIssue[]; suggestions?: readonly string[] } = {},
  ) {
    // A tool-call error is a result for the model, not a crash: capturing a stack trace would be most of its cost on
    // the hot path, and no one reads it (a handler's own error keeps its stack, as the cause).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.issues = options.issues ?? [];
    this.suggestions = options.suggestions;
  }

  /** Whether the model can succeed by calling again with corrected arguments. */
  get retryable(): boolean {
    return this.family === 'input' && this.code !== 'PERMISSION_DENIED';
  }

  /** The error as it goes back to the model: no stack, no cause. */
  toPayload(): ToolErrorPayload {
    return {
      code: this.code,
      message: this.message,
      issues: this.issues,
      ...(this.suggestions ? { suggestions: this.suggestions } : {}),
      retryable: this.retryable,
    };
  }
}
