/** Longest model-chosen text (a tool name) written into a log line, in characters. */
export const MAX_LOGGED_NAME_LENGTH = 128;

/**
 * A model-chosen name made safe for a log line: control characters, line and paragraph separators, bidi controls
 * and invisible characters escaped (`\n`, `\u2028`), so a name cannot forge a line; clipped to `MAX_LOGGED_NAME_LENGTH` characters
 * with the full length said, so a 1 MiB name stays one short line.
 */
export function logSafeName(name: string): string {
  const clipped = name.length > MAX_LOGGED_NAME_LENGTH ? name.slice(0, MAX_LOGGED_NAME_LENGTH) : name;
  /* eslint-disable no-control-regex, no-misleading-character-class -- control characters are what it escapes; invisible and combining code points are listed one by one on purpose */
  const escaped = clipped.replace(
    /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g,
    /* eslint-enable no-control-regex, no-misleading-character-class */
    (character) => {
      switch (character) {
        case '\n':
          return '\\n';
        case '\r':
          return '\\r';
        case '\t':
          return '\\t';
        default:
          return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
      }
    },
  );
  return name.length > MAX_LOGGED_NAME_LENGTH ? `${escaped}... (${name.length} characters)` : escaped;
}
