import { ToolCallError } from './tool-call-error';

/** The arguments were read but do not fit the tool's parameters. */
export class InvalidArgumentsError extends ToolCallError {
  readonly code = 'INVALID_ARGUMENTS';
  readonly family = 'input';
}
