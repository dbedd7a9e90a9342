import { Logger as NestLogger, type LoggerService } from '@nestjs/common';
import type { Logger } from '@toolwright/core';

/**
 * toolwright's `Logger` over a Nest `LoggerService`: by default `new Logger('Toolwright')`, Nest's proxy to the app's
 * logger (so `app.useLogger(...)` and `bufferLogs` apply). Nest's methods take `(message, ...optionalParams,
 * context)`: the details object is passed as its own parameter, so Nest prints it (as JSON with `json: true`), never
 * dropped. `context` is added last for a service that has no context of its own (a bare `ConsoleLogger`). `info` goes
 * to Nest's `log`; `debug` to `debug` (or `verbose`) when the service has it.
 */
export class NestLoggerAdapter implements Logger {
  constructor(
    private readonly target: LoggerService = new NestLogger('Toolwright'),
    private readonly context?: string,
  ) {}

  debug(message: string, details?: Record<string, unknown>): void {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the target as `this`.
    const method = this.target.debug ?? this.target.verbose;
    method?.call(this.target, message, ...this.rest(details));
  }

  info(message: string, details?: Record<string, unknown>): void {
    this.target.log(message, ...this.rest(details));
  }

  warn(message: string, details?: Record<string, unknown>): void {
    this.target.warn(message, ...this.rest(details));
  }

  error(message: string, details?: Record<string, unknown>): void {
    this.target.error(message, ...this.rest(details));
  }

  private rest(details: Record<string, unknown> | undefined): unknown[] {
    const rest: unknown[] = details === undefined ? [] : [details];
    if (this.context !== undefined) rest.push(this.context);
    return rest;
  }
}
