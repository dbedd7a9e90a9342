import type { ToolCallError } from '../errors/tool-call-error';
import { redactIssues } from '../pipeline/redaction';
import type { ToolResult, ValidationIssue } from '../types/execution';
import { describeThrown } from './fault-tolerance';
import { logSafeName } from './log-text';
// From the logging layer itself: execution/logger.ts re-exports it through a getter, read on every call.
import { isLevelEnabled, type Logger } from '../logging/logger';

/** How many of a refusal's issues its log line names (all of them are in the details). */
const ISSUES_IN_LINE = 5;

/**
 * Logs the outcome of one tool call: a debug event for a success (its details built only when debug is on), a warning
 * for a refused call (input family) that names each issue's path and rule, an error for a failure, a debug event for
 * an approval outcome. The result's transformations arrive redacted (CallReport redacts the values of `sensitive`
 * fields before anything sees them); a refusal's issues are redacted here by the same rule (`sensitive`: the tool's
 * sensitive paths), so a value received for a sensitive field is never logged.
 */
export function logCallOutcome(
  logger: Logger,
  result: ToolResult,
  error: ToolCallError | undefined,
  sensitive?: ReadonlySet<string>,
): void {
  if (!error && !isLevelEnabled(logger, 'debug')) return;
  const name = logSafeName(result.tool);
  const details = {
    tool: name,
    callId: result.callId,
    durationMs: result.durationMs,
    outcome: error ? error.code : 'ok',
    transformations: result.transformations,
  };
  if (!error) logger.debug(`tool call ${name} ok`, details);
  // Approval outcomes are not faults: the approval module logs each decision, with who made it, at info.
  else if (error.code.startsWith('APPROVAL_')) logger.debug(`tool call ${name}: ${error.code}`, details);
  else if (error.family === 'input') {
    const issues = redactIssues(error.issues, sensitive ?? NO_PATHS);
    // The pipeline bounds a refusal's issues (unknown keys beyond the first few are one issue), so the details are too.
    logger.warn(`tool call ${name} refused: ${error.code}${issueSummary(issues)}`, {
      ...details,
      issues: issues.map(loggedIssue),
    });
  } else
    logger.error(`tool call ${name} failed: ${error.code}`, {
      ...details,
      cause: error.cause === undefined ? undefined : describeThrown(error.cause),
    });
}

const NO_PATHS: ReadonlySet<string> = new Set();

/** `' (date: format; limit: maximum)'`: each issue's path and rule, the first few, for an operator reading the line. */
function issueSummary(issues: readonly ValidationIssue[]): string {
  if (issues.length === 0) return '';
  const named = issues.slice(0, ISSUES_IN_LINE).map((issue) => `${loggedPath(issue.path)}: ${logSafeName(issue.rule)}`);
  const more = issues.length > ISSUES_IN_LINE ? `; ${issues.length - ISSUES_IN_LINE} more` : '';
  return ` (${named.join('; ')}${more})`;
}

/** A path is model-chosen text (an unknown key is the model's own): escaped and clipped like a tool name. */
function loggedPath(path: string): string {
  return path === '' ? '(arguments)' : logSafeName(path);
}

/** What the details keep of an issue: where, which rule, what was expected and (redacted when sensitive) received. */
function loggedIssue(issue: ValidationIssue): Record<string, string> {
  return {
    path: loggedPath(issue.path),
    rule: logSafeName(issue.rule),
    expected: issue.expected,
    ...(issue.received !== undefined ? { received: issue.received } : {}),
  };
}
