import { ToolCallError } from './tool-call-error';

/**
 * The handler returned a value that does not match the tool's declared output schema (`@Command({ returns })`,
 * `outputSchema`): a defect in the tool, never repaired. `message` is a generic failure for the model; `issues` say
 * what did not match, for the application (logged, never rendered to the model).
 */
export class ResultInvalidError extends ToolCallError {
  readonly code = 'RESULT_INVALID';
  readonly family = 'execution';
}
