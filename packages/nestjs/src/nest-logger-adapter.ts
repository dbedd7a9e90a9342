import { Logger as NestLogger, type LoggerService } from '@nestjs/common';
import { createConsoleLogger, levelFromEnvironment, type Logger, type LogLevel } from '@toolwright/core';

export interface NestLoggerAdapterOptions {
  /**
   * The lowest level passed on. Default: `levelFromEnvironment('info')`: info, warnings and errors; debug events (one
   * per successful call) only with `level: 'debug'`, `TOOLWRIGHT_LOG_LEVEL=debug` or `TOOLWRIGHT_DEBUG=1`.
   */
  readonly level?: LogLevel;
  /** A Nest context passed last, for a target that has none of its own (a bare `ConsoleLogger`). */
  readonly context?: string;
}

/** The prefix core's line format starts with; the Nest context (`[Toolwright]`) says it already. */
const LINE_PREFIX = '[toolwright] ';

/**
 * toolwright's `Logger` over a Nest `LoggerService`: by default `new Logger('Toolwright')`, Nest's proxy to the app's
 * logger (so `app.useLogger(...)` and `bufferLogs` apply). Each event is one call of the Nest method with one message,
 * `text {"details":"as JSON"}` on one line (the format of core's loggers, newlines escaped), and the context: never a
 * second parameter that Nest's `ConsoleLogger` would print as a second `Object(n)` entry. `info` goes to `log`,
 * `debug` to `debug` (or `verbose`); events below `level` are not built (`isLevelEnabled`). Where the lines go is the
 * target's choice: `StderrConsoleLogger` writes every level to stderr, without colors when stderr is not a terminal.
 */
export class NestLoggerAdapter implements Logger {
  private readonly lines: Logger;

  constructor(target: LoggerService = new NestLogger('Toolwright'), options: NestLoggerAdapterOptions = {}) {
    const context = options.context;
    const to =
      (method: ((message: unknown, ...rest: unknown[]) => unknown) | undefined) =>
      (line: unknown): void => {
        const text = typeof line === 'string' && line.startsWith(LINE_PREFIX) ? line.slice(LINE_PREFIX.length) : line;
        if (context === undefined) method?.call(target, text);
        else method?.call(target, text, context);
      };
    // Core's console adapter owns the line format and the level check; its "console" is the Nest target.
    this.lines = createConsoleLogger(
      {
        // eslint-disable-next-line @typescript-eslint/unbound-method -- called by `to` with the target as `this`.
        debug: to(target.debug ?? target.verbose),
        // eslint-disable-next-line @typescript-eslint/unbound-method
        info: to(target.log),
        // eslint-disable-next-line @typescript-eslint/unbound-method
        warn: to(target.warn),
        // eslint-disable-next-line @typescript-eslint/unbound-method
        error: to(target.error),
      },
      { level: options.level ?? levelFromEnvironment('info') },
    );
  }

  debug(message: string, details?: Record<string, unknown>): void {
    this.lines.debug(message, details);
  }

  info(message: string, details?: Record<string, unknown>): void {
    this.lines.info(message, details);
  }

  warn(message: string, details?: Record<string, unknown>): void {
    this.lines.warn(message, details);
  }

  error(message: string, details?: Record<string, unknown>): void {
    this.lines.error(message, details);
  }

  isLevelEnabled(level: LogLevel): boolean {
    return this.lines.isLevelEnabled?.(level) ?? true;
  }
}
