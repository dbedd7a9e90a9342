import { ToolCallError } from './tool-call-error';

/** The arguments text could not be read as one object (cut off, prose, several different objects). */
export class MalformedArgumentsError extends ToolCallError {
  readonly code = 'MALFORMED_ARGUMENTS';
  readonly family = 'input';
}
