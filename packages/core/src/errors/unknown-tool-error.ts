import { ToolCallError } from './tool-call-error';

/** The model called a tool name the registry does not know (after aliases, case and prefixes). */
export class UnknownToolError extends ToolCallError {
  readonly code = 'UNKNOWN_TOOL';
  readonly family = 'input';
}
