import type { Logger } from '@toolwright/core';

/** Warnings and errors to stderr, one line each; the example's own output stays on stdout. */
export const stderrLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message, details) => process.stderr.write(`warn: ${message}${details ? ` ${JSON.stringify(details)}` : ''}\n`),
  error: (message, details) =>
    process.stderr.write(`error: ${message}${details ? ` ${JSON.stringify(details)}` : ''}\n`),
};
