import { escapeLogText } from '../logging/log-escape';

/** Longest model-chosen text (a tool name) written into a log line, in characters. */
export const MAX_LOGGED_NAME_LENGTH = 128;

/**
 * A model-chosen name made safe for a log line: escaped by escapeLogText (controls, line terminators, invisible and
 * bidi code points: `\n`, `\u2028`), so a name cannot forge a line; clipped to `MAX_LOGGED_NAME_LENGTH` characters
 * with the full length said, so a 1 MiB name stays one short line.
 */
export function logSafeName(name: string): string {
  if (name.length <= MAX_LOGGED_NAME_LENGTH) return escapeLogText(name);
  return `${escapeLogText(name.slice(0, MAX_LOGGED_NAME_LENGTH))}... (${name.length} characters)`;
}
