import { ToolCallError } from './tool-call-error';

/** The handler threw; the message is user-friendly and the cause is kept for logs only. */
export class HandlerError extends ToolCallError {
  readonly code = 'HANDLER_ERROR';
  readonly family = 'execution';
}
