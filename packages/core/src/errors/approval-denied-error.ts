import { ToolCallError } from './tool-call-error';

/** A person declined the call; the handler never ran. The message (with the person's reason) is for the model. */
export class ApprovalDeniedError extends ToolCallError {
  readonly code = 'APPROVAL_DENIED';
  readonly family = 'execution';
}
