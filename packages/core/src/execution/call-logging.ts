import type { ToolCallError } from '../errors/tool-call-error';
import type { ToolResult } from '../types/execution';
import { describeThrown } from './fault-tolerance';
import { logSafeName } from './log-text';
// From the logging layer itself: execution/logger.ts re-exports it through a getter, read on every call.
import { isLevelEnabled, type Logger } from '../logging/logger';

/**
 * Logs the outcome of one tool call: a debug event for a success (its details built only when debug is on), a warning
 * for a refused call (input family), an error for a failure, a debug event for an approval outcome. The result's
 * transformations arrive redacted (CallReport redacts the values of `sensitive` fields before anything sees them).
 */
export function logCallOutcome(logger: Logger, result: ToolResult, error: ToolCallError | undefined): void {
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
  else if (error.family === 'input') logger.warn(`tool call ${name} refused: ${error.code}`, details);
  else
    logger.error(`tool call ${name} failed: ${error.code}`, {
      ...details,
      cause: error.cause === undefined ? undefined : describeThrown(error.cause),
    });
}
