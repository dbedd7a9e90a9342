import { ToolCallError } from './tool-call-error';

/** The call is valid and waits for a person's approval (`executor.resolveApproval`); the handler has not run. */
export class ApprovalRequiredError extends ToolCallError {
  readonly code = 'APPROVAL_REQUIRED';
  readonly family = 'execution';
}
