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
  messages(level: LogEntry['level']): string[] {
    return this.entries.filter((entry) => entry.level === level).map((entry) => entry.message);
  }
}
