import type { SecurityEvent } from '../pipeline/normalizer';
import type { ExecutionContext } from '../types/execution';
import { logSafeName } from './log-text';
import type { Logger } from '../logging/logger';

/** Security events of one call logged one line each; past this, one summary line says how many more there were. */
export const MAX_LOGGED_SECURITY_EVENTS = 10;

function sentence(event: SecurityEvent, tool: string): string {
  const key = logSafeName(event.key);
  const name = event.contextKey ?? event.key;
  switch (event.kind) {
    case 'context-override':
      return `security: the model tried to set trusted context field "${logSafeName(name)}" of ${tool}; the value was dropped`;
    case 'nested-context-name':
      return `security: the model sent the context name "${key}" nested at "${logSafeName(event.path)}" of ${tool}; it is data there and sets no context`;
    case 'look-alike-context-key':
      return `security: the model sent the key "${key}", a look-alike of the context field "${name}", at "${logSafeName(event.path)}" of ${tool}; it sets no context`;
  }
}

/** Each event through the logger (a warning), model-chosen keys escaped and clipped, at most `MAX_LOGGED_SECURITY_EVENTS` lines and a summary. */
export function logSecurityEvents(
  logger: Logger,
  tool: string,
  callId: string,
  events: readonly SecurityEvent[],
  context: ExecutionContext,
): void {
  for (const event of events.slice(0, MAX_LOGGED_SECURITY_EVENTS)) {
    logger.warn(sentence(event, tool), {
      tool,
      callId,
      kind: event.kind,
      path: logSafeName(event.path),
      key: logSafeName(event.key),
      sessionId: context.sessionId,
      model: context.model,
    });
  }
  if (events.length > MAX_LOGGED_SECURITY_EVENTS) {
    logger.warn(
      `security: ${events.length - MAX_LOGGED_SECURITY_EVENTS} more security events in one call of ${tool} (not logged one by one)`,
      {
        tool,
        callId,
        count: events.length,
        sessionId: context.sessionId,
        model: context.model,
      },
    );
  }
}
