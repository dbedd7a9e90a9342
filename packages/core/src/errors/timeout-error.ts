import { ToolCallError } from './tool-call-error';

/** The handler did not finish within its timeout; its late result is discarded. */
export class TimeoutError extends ToolCallError {
  readonly code = 'TIMEOUT';
  readonly family = 'execution';
}
