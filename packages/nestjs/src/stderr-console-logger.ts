import { ConsoleLogger, type ConsoleLoggerOptions } from '@nestjs/common';

/**
 * Nest's console logger with every level on stderr (Nest's own writes `log`, `warn`, `debug` and `verbose` to stdout,
 * which an MCP stdio server reserves and a shell pipes into the next program), and colors only when stderr is a
 * terminal and `NO_COLOR` is unset (never escape codes in a piped or captured stderr). Other options are Nest's.
 */
export class StderrConsoleLogger extends ConsoleLogger {
  constructor(options: ConsoleLoggerOptions = {}) {
    super({ ...options, colors: options.colors ?? stderrSupportsColor() });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: Parameters<ConsoleLogger['printMessages']>[2],
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

/** Whether escape codes belong on stderr: a terminal, and no `NO_COLOR` (https://no-color.org). */
function stderrSupportsColor(
  stream: { readonly isTTY?: boolean } = process.stderr,
  environment: NodeJS.ProcessEnv = process.env,
): boolean {
  return stream.isTTY === true && !environment['NO_COLOR'];
}
