/**
 * The logging interface toolwright writes to. pino, the Nest `Logger` and `console` all satisfy it
 * structurally: each method takes a message and optional structured details.
 */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** The default logger: console, with the details as a second argument. Debug is off unless TOOLWRIGHT_DEBUG is set. */
export const consoleLogger: Logger = {
  debug: (message, details) => {
    if (process.env['TOOLWRIGHT_DEBUG']) console.debug(`[toolwright] ${message}`, ...(details ? [details] : []));
  },
  info: (message, details) => console.info(`[toolwright] ${message}`, ...(details ? [details] : [])),
  warn: (message, details) => console.warn(`[toolwright] ${message}`, ...(details ? [details] : [])),
  error: (message, details) => console.error(`[toolwright] ${message}`, ...(details ? [details] : [])),
};

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
