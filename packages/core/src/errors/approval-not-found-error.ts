import { ToolCallError } from './tool-call-error';

/** `resolveApproval` got an id that is unknown, expired or already used; nothing ran. */
export class ApprovalNotFoundError extends ToolCallError {
  readonly code = 'APPROVAL_NOT_FOUND';
  readonly family = 'execution';
}
