import { escapeLogDetails, escapeLogText } from './log-escape';

/** Log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * The logging interface toolwright writes to: each method takes a message and optional structured details.
 * Adapters: `createStderrLogger` (the default), `createConsoleLogger` (console), `pinoLogger` (pino takes
 * `(details, message)`, so it needs the adapter), `silentLogger`.
 */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
  /**
   * Whether a level is on. toolwright builds the details of debug events (one per successful call, one per tool-loop
   * turn) only when `isLevelEnabled('debug')` is true; a logger without this method is treated as fully enabled.
   */
  isLevelEnabled?(level: LogLevel): boolean;
  /** A logger that adds `bindings` to every event (pino's child loggers). */
  child?(bindings: Record<string, unknown>): Logger;
}

/** Whether `logger` wants `level` events (true when it does not say). */
export function isLevelEnabled(logger: Logger, level: LogLevel): boolean {
  return logger.isLevelEnabled === undefined ? true : logger.isLevelEnabled(level);
}

/** The level named by the environment: `TOOLWRIGHT_LOG_LEVEL` (debug|info|warn|error), or `debug` if `TOOLWRIGHT_DEBUG` is set. */
export function levelFromEnvironment(
  fallback: LogLevel = 'warn',
  environment: Readonly<Record<string, string | undefined>> = process.env,
): LogLevel {
  const named = environment['TOOLWRIGHT_LOG_LEVEL']?.toLowerCase();
  if (named !== undefined && named in LEVEL_RANK) return named as LogLevel;
  if (environment['TOOLWRIGHT_DEBUG']) return 'debug';
  return fallback;
}

export interface StderrLoggerOptions {
  /** The lowest level written. Default: `levelFromEnvironment('warn')` (warnings and errors). */
  readonly level?: LogLevel;
  /** Where the lines go. Default `process.stderr`. */
  readonly stream?: { write(chunk: string): unknown };
  /** Fields added to every line (what `child()` adds to). */
  readonly bindings?: Readonly<Record<string, unknown>>;
}

/** JSON for a log line: never throws (cycles, BigInt, functions), one line. */
function lineJson(details: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(details, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'function') return `[function ${(value as { name?: string }).name ?? ''}]`;
      if (value instanceof Error) return `${value.name}: ${value.message}`;
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return '[circular]';
        seen.add(value);
      }
      return value;
    });
  } catch {
    return '"[details could not be serialized]"';
  }
}

/** `[toolwright] message {"details":...}` on one line, every line terminator and control escaped (escapeLogText). */
function formatLine(message: string, details: Record<string, unknown> | undefined): string {
  const suffix = details !== undefined && Object.keys(details).length > 0 ? ` ${lineJson(details)}` : '';
  return `[toolwright] ${escapeLogText(message)}${escapeLogText(suffix)}`;
}

/**
 * A logger that writes one line per event to stderr (never stdout: a stdio protocol may own it):
 * `[toolwright] WARN message {"tool":"...",...}`. Events below `level` cost one comparison.
 */
export function createStderrLogger(options: StderrLoggerOptions = {}): Logger {
  const level = options.level ?? levelFromEnvironment('warn');
  const threshold = LEVEL_RANK[level];
  // process.stderr is read when a line is written, not here: the default logger is made at import, and making Node's
  // stderr stream costs about 5 ms of startup that a process which never logs should not pay (ADR 0027).
  const stream = options.stream;
  const bindings = options.bindings ?? {};
  const hasBindings = Object.keys(bindings).length > 0;
  const write = (eventLevel: LogLevel, message: string, details: Record<string, unknown> | undefined) => {
    if (LEVEL_RANK[eventLevel] < threshold) return;
    (stream ?? process.stderr).write(
      `${formatLine(`${eventLevel.toUpperCase()} ${message}`, hasBindings ? { ...bindings, ...details } : details)}\n`,
    );
  };
  return {
    debug: (message, details) => write('debug', message, details),
    info: (message, details) => write('info', message, details),
    warn: (message, details) => write('warn', message, details),
    error: (message, details) => write('error', message, details),
    isLevelEnabled: (level) => LEVEL_RANK[level] >= threshold,
    child: (extra) => createStderrLogger({ ...options, level, bindings: { ...bindings, ...extra } }),
  };
}

/** The console methods the console adapter calls. */
export interface ConsoleLike {
  debug(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
}

export interface ConsoleLoggerOptions {
  /** The lowest level written. Default: `levelFromEnvironment('info')`. */
  readonly level?: LogLevel;
}

/**
 * The console adapter: `console.debug/info/warn/error('[toolwright] message {details as JSON}')`, one line per
 * event. Node's console writes debug
 * and info to stdout: use it when the application asked for that (a CLI, a demo), never under a stdio protocol.
 */
export function createConsoleLogger(target: ConsoleLike = console, options: ConsoleLoggerOptions = {}): Logger {
  const threshold = LEVEL_RANK[options.level ?? levelFromEnvironment('info')];
  const write = (level: LogLevel, message: string, details: Record<string, unknown> | undefined) => {
    if (LEVEL_RANK[level] < threshold) return;
    target[level](formatLine(message, details));
  };
  return {
    debug: (message, details) => write('debug', message, details),
    info: (message, details) => write('info', message, details),
    warn: (message, details) => write('warn', message, details),
    error: (message, details) => write('error', message, details),
    isLevelEnabled: (level) => LEVEL_RANK[level] >= threshold,
  };
}

/** The part of a pino logger the adapter uses (pino's `(object, message)` argument order). */
export interface PinoLike {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
  isLevelEnabled(level: string): boolean;
  child(bindings: Record<string, unknown>): PinoLike;
}

/**
 * The pino adapter: toolwright's `(message, details)` becomes pino's `(details, message)`, so every detail reaches
 * the log record; `child()` returns an adapter over `pino.child()`; `isLevelEnabled` is pino's own. The message and
 * every string of the details are escaped first (escapeLogText: pino writes U+2028, U+2029 and U+0085 raw).
 */
export function pinoLogger(pino: PinoLike): Logger {
  const record = (details: Record<string, unknown> | undefined) =>
    details === undefined ? {} : escapeLogDetails(details);
  return {
    debug: (message, details) => pino.debug(record(details), escapeLogText(message)),
    info: (message, details) => pino.info(record(details), escapeLogText(message)),
    warn: (message, details) => pino.warn(record(details), escapeLogText(message)),
    error: (message, details) => pino.error(record(details), escapeLogText(message)),
    isLevelEnabled: (level) => pino.isLevelEnabled(level),
    child: (bindings) => pinoLogger(pino.child(bindings)),
  };
}

/**
 * The default logger: one line per event on stderr, warnings and errors only (`TOOLWRIGHT_LOG_LEVEL` or
 * `TOOLWRIGHT_DEBUG` at startup lowers the level). Never writes to stdout.
 */
export const defaultLogger: Logger = createStderrLogger();

/** The console adapter over the global `console` at level info (debug with `TOOLWRIGHT_DEBUG`). Writes info to stdout. */
export const consoleLogger: Logger = createConsoleLogger();

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  isLevelEnabled: () => false,
};
