import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { MalformedArgumentsError } from '../errors/malformed-arguments-error';
import type { ToolCallError } from '../errors/tool-call-error';
import { redactIssues } from '../pipeline/redaction';

/**
 * A refusal from the parse and sanitize steps, safe for the model when the tool has sensitive fields: the arguments
 * text may carry a secret anywhere, so a message that quotes the text is replaced by one that does not, and issues
 * about values holding a sensitive field lose their rendering of the value. The original stays the cause (for logs,
 * which never print a cause's text for input errors).
 */
export function withoutSensitiveEcho(error: ToolCallError, sensitive: ReadonlySet<string>): ToolCallError {
  if (sensitive.size === 0 || error.family !== 'input') return error;
  const quotes = /["'{[`]/.test(error.message);
  if (error instanceof MalformedArgumentsError) {
    if (!quotes) return error;
    return new MalformedArgumentsError(
      'The arguments could not be read as one JSON object (the text received is not repeated: this tool takes sensitive values). Send only one JSON object with double-quoted keys and strings.',
      { cause: error, issues: redactIssues(error.issues, sensitive) },
    );
  }
  if (error instanceof InvalidArgumentsError) {
    const issues = redactIssues(error.issues, sensitive);
    let message = error.message;
    error.issues.forEach((issue, index) => {
      const redacted = issues[index]!;
      if (issue.received !== undefined && redacted.received !== issue.received)
        message = message.split(issue.received).join(redacted.received);
    });
    return message === error.message ? error : new InvalidArgumentsError(message, { cause: error, issues });
  }
  return error;
}
