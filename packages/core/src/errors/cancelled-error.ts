import { ToolCallError } from './tool-call-error';

/** The caller's signal aborted the call. */
export class CancelledError extends ToolCallError {
  readonly code = 'CANCELLED';
  readonly family = 'execution';
}
