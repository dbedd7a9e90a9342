import { Console } from 'node:console';
import { createStderrLogger, levelFromEnvironment, type Logger } from '@toolwright/core';

/** A console that writes everything to stderr. */
const stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });

/**
 * A logger that writes to stderr only, one line per event, info and up (debug with TOOLWRIGHT_DEBUG or
 * TOOLWRIGHT_LOG_LEVEL): the default of a stdio MCP server, whose stdout carries nothing but JSON-RPC messages.
 */
export const stderrLogger: Logger = Object.freeze(createStderrLogger({ level: levelFromEnvironment('info') }));

const REDIRECTED_METHODS = ['log', 'info', 'debug', 'trace', 'dir', 'table'] as const;

/**
 * Sends what `console.log` and its stdout siblings print to stderr instead (a command that logs must not corrupt a
 * stdio server's JSON-RPC stream). Returns the function that restores them.
 */
export function redirectConsoleToStderr(): () => void {
  // The originals are only stored and put back on `console` as they were, never called detached.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- stored to be restored onto console, not called
  const saved = REDIRECTED_METHODS.map((method) => [method, console[method]] as const);
  for (const method of REDIRECTED_METHODS)
    (console as unknown as Record<string, unknown>)[method] = stderrConsole[method].bind(stderrConsole);
  return () => {
    for (const [method, original] of saved) (console as unknown as Record<string, unknown>)[method] = original;
  };
}
