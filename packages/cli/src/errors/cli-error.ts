import { ToolwrightError } from '@toolwright/core';

/**
 * A command line the CLI cannot act on: a bad option value, an app module without a registry, an MCP server that
 * does not start, an unreadable file. The message names what, where and the fix; the CLI prints it on stderr and
 * exits with `exitCode` (2: usage or load problem).
 */
export class CliError extends ToolwrightError {
  readonly code = 'CLI_ERROR';

  constructor(
    message: string,
    readonly exitCode: number = 2,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
