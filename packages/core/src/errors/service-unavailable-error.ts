import { ToolCallError } from './tool-call-error';

/** A service the handler depends on could not be reached (connection refused, DNS, network timeout). */
export class ServiceUnavailableError extends ToolCallError {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly family = 'execution';
}
