import { ToolCallError } from './tool-call-error';

/** The persona may not call this tool; the handler never ran. */
export class PermissionDeniedError extends ToolCallError {
  readonly code = 'PERMISSION_DENIED';
  readonly family = 'input';
}
