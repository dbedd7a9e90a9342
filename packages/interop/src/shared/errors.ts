import { ToolwrightError, type ToolErrorCode, type ToolResult } from '@toolwright/core';

type FailedToolResult = Extract<ToolResult, { ok: false }>;

/**
 * A tool call the executor answered with an error, thrown to a framework that reports tool errors by exception (the
 * AI SDK turns it into a `tool-error` part and sends `message` to the model). The message is the executor's
 * model-facing text: which argument, what was expected, what was received, an example; no stack, no secret.
 */
export class ToolResultError extends ToolwrightError {
  readonly code: ToolErrorCode;
  readonly result: FailedToolResult;

  constructor(result: FailedToolResult) {
    super(result.error.message);
    this.code = result.error.code;
    this.result = result;
    // The model reads `message`; a stack would only describe this adapter, so none is kept.
    this.stack = `${this.name}: ${this.message}`;
  }
}
