import type { Logger } from '@toolwright/core';

/** A security event: the model tried to set a trusted context field (the executor dropped the value and logged it). */
export interface SecurityEventRecord {
  readonly time: string;
  readonly tool: string;
  readonly message: string;
  readonly key?: string;
  readonly path?: string;
  readonly callId?: string;
}

/** One call made from the page. */
export interface InspectorCallRecord {
  readonly time: string;
  readonly origin: 'form' | 'playground';
  readonly mode: 'prepare' | 'run';
  readonly tool: string;
  readonly ok: boolean;
  readonly code?: string;
  readonly transformations: number;
}

const MAX_ENTRIES = 200;

/**
 * What the statistics view lists besides the executor's TransformationStats: the security events the executor
 * logged, and the calls made from the page. Bounded (the last 200 of each). `tap(logger)` is a Logger that records
 * security events and forwards everything: give it to the executor (the application's, when mounted in an app).
 */
export class InspectorEventLog {
  private readonly security: SecurityEventRecord[] = [];
  private readonly calls: InspectorCallRecord[] = [];
  private revision = 0;

  /** Increments on every record: the live stream sends a snapshot when it (or the stats) changed. */
  get version(): number {
    return this.revision;
  }

  tap(next?: Logger): Logger {
    const record = (message: string, details?: Record<string, unknown>) => {
      // The executor's security warning: `security: the model tried to set trusted context field ...`.
      if (!message.startsWith('security:')) return;
      this.push(this.security, {
        time: new Date().toISOString(),
        tool: typeof details?.['tool'] === 'string' ? details['tool'] : '',
        message,
        ...(typeof details?.['key'] === 'string' ? { key: details['key'] } : {}),
        ...(typeof details?.['path'] === 'string' ? { path: details['path'] } : {}),
        ...(typeof details?.['callId'] === 'string' ? { callId: details['callId'] } : {}),
      });
    };
    return {
      debug: (message, details) => next?.debug(message, details),
      info: (message, details) => next?.info(message, details),
      warn: (message, details) => {
        record(message, details);
        next?.warn(message, details);
      },
      error: (message, details) => next?.error(message, details),
    };
  }

  recordCall(call: InspectorCallRecord): void {
    this.push(this.calls, call);
  }

  securityEvents(): readonly SecurityEventRecord[] {
    return [...this.security].reverse();
  }

  recentCalls(): readonly InspectorCallRecord[] {
    return [...this.calls].reverse();
  }

  private push<T>(list: T[], entry: T): void {
    list.push(entry);
    if (list.length > MAX_ENTRIES) list.splice(0, list.length - MAX_ENTRIES);
    this.revision++;
  }
}
