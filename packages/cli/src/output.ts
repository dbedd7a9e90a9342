import type { Writable } from 'node:stream';
import type { Logger } from '@toolwright/core';
import { escapeLogText } from '@toolwright/core/internal';
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** Where a command writes: results on `out`, diagnostics on `err`; colors only when the stream is a TTY (and NO_COLOR is unset). */
export interface Output {
  readonly stdout: Writable;
  readonly stderr: Writable;
  out(text: string): void;
  err(text: string): void;
  /** `text` styled for stdout (plain when stdout is not a color terminal). */
  style(format: Style, text: string): string;
  /** `text` styled for stderr. */
  styleErr(format: Style, text: string): string;
}

/** Whether a stream takes colors: a terminal that has them (`hasColors` reads NO_COLOR, FORCE_COLOR and TERM). */
function takesColors(stream: Writable): boolean {
  const terminal = stream as Writable & { isTTY?: boolean; hasColors?: () => boolean };
  return terminal.isTTY === true && typeof terminal.hasColors === 'function' && terminal.hasColors();
}

export function createOutput(stdout: Writable = process.stdout, stderr: Writable = process.stderr): Output {
  const colors = { stdout: takesColors(stdout), stderr: takesColors(stderr) };
  return {
    stdout,
    stderr,
    out: (text) => void stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    style: (format, text) => (colors.stdout ? styleText(format, text, { validateStream: false }) : text),
    styleErr: (format, text) => (colors.stderr ? styleText(format, text, { validateStream: false }) : text),
  };
}

/** JSON for `--json`: two-space indented, one document per command. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A value shortened for one line: strings quoted, long text cut with an ellipsis. */
export function short(value: unknown, length = 90): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the fallback for what JSON cannot write.
  const text = value === undefined ? 'absent' : (JSON.stringify(toJsonSafe(value)) ?? String(value));
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

/**
 * A value as plain JSON data: DTO instances become plain objects, Dates ISO strings, bigints strings, cycles and
 * functions are marked. What the page and `--json` show as "validated parameters" and handler results.
 */
export function toJsonSafe(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (value === undefined) return undefined;
  if (typeof value === 'function' || typeof value === 'symbol') return `[${typeof value}]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- defensive: any other typeof a future runtime adds.
  if (typeof value !== 'object') return String(value);
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => toJsonSafe(item, seen) ?? null);
    const plain: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      const safe = toJsonSafe(entry, seen);
      if (safe !== undefined)
        Object.defineProperty(plain, key, { value: safe, enumerable: true, writable: true, configurable: true });
    }
    return plain;
  } finally {
    seen.delete(value);
  }
}

/**
 * Warnings and errors on stderr (`[toolwright] message {details}`, line terminators and controls escaped); debug and
 * info dropped: the CLI's logger while loading tools.
 */
export const stderrWarnings: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message, details) => writeLogLine(message, details),
  error: (message, details) => writeLogLine(message, details),
};

function writeLogLine(message: string, details: Record<string, unknown> | undefined): void {
  const detail = details === undefined ? '' : ` ${JSON.stringify(toJsonSafe(details))}`;
  process.stderr.write(`[toolwright] ${escapeLogText(`${message}${detail}`)}\n`);
}
