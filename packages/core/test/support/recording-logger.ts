import type { Logger } from '@toolwright/core';

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/** A logger that keeps what it was told, for assertions. */
export class RecordingLogger implements Logger {
  readonly entries: LogEntry[] = [];
  debug(message: string, details?: Record<string, unknown>): void {
    this.entries.push({ level: 'debug', message, details });
  }
  info(message: string, details?: Record<string, unknown>): void {
    this.entries.push({ level: 'info', message, details });
  }
  warn(message: string, details?: Record<string, unknown>): void {
    this.entries.push({ level: 'warn', message, details });
  }
  error(message: string, details?: Record<string, unknown>): void {
    this.entries.push({ level: 'error', message, details });
  }
  messages(level?: LogEntry['level']): string[] {
    return this.entries.filter((entry) => level === undefined || entry.level === level).map((entry) => entry.message);
  }
  /** Resolves once a message matching `pattern` has been logged (polls; the test's own timeout bounds it). */
  async waitFor(pattern: RegExp, timeoutMs = 5_000): Promise<LogEntry> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const entry = this.entries.find((candidate) => pattern.test(candidate.message));
      if (entry) return entry;
      if (Date.now() > deadline)
        throw new Error(
          `no log message matched ${pattern} within ${timeoutMs} ms; got:\n${this.messages().join('\n')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * A logger that keeps each record as one line (`level message details`), the details described by `describe` without
 * `durationMs` (it differs from run to run): what the differential tests compare between two executors.
 */
export class TextRecordingLogger implements Logger {
  readonly records: string[] = [];
  constructor(private readonly describe: (value: unknown) => string) {}
  debug(message: string, details?: Record<string, unknown>): void {
    this.records.push(`debug ${message} ${this.describe(withoutDuration(details))}`);
  }
  info(message: string, details?: Record<string, unknown>): void {
    this.records.push(`info ${message} ${this.describe(withoutDuration(details))}`);
  }
  warn(message: string, details?: Record<string, unknown>): void {
    this.records.push(`warn ${message} ${this.describe(withoutDuration(details))}`);
  }
  error(message: string, details?: Record<string, unknown>): void {
    this.records.push(`error ${message} ${this.describe(withoutDuration(details))}`);
  }
}

function withoutDuration(details: Record<string, unknown> | undefined): unknown {
  if (details === undefined) return undefined;
  const { durationMs: _durationMs, ...rest } = details;
  return rest;
}
