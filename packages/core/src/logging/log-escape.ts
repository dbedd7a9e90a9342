/**
 * What a log line never holds raw: every control character (C0, DEL and C1: LF, CR, VT, FF, U+0085 NEL, ...), the
 * line and paragraph separators U+2028 and U+2029, and every Default_Ignorable_Code_Point (bidi controls, zero-width
 * characters, tag characters, variation selectors), which a log viewer would show as nothing or reorder.
 */
const UNSAFE_IN_LOG = /[\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;
const UNSAFE_IN_LOG_ALL = /[\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;

function escapeCodePoint(character: string): string {
  switch (character) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      // UTF-16 units (`\udb40\udc20` for U+E0020): the same escape is valid inside a JSON string.
      let escaped = '';
      for (let index = 0; index < character.length; index++)
        escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
      return escaped;
    }
  }
}

/**
 * Text made safe for one log line: controls, Unicode line terminators (LF, CR, VT, FF, U+0085, U+2028, U+2029) and
 * invisible code points written as escapes (`\n`, `\u2028`), so no value can forge a second line or hide itself. Text
 * that is JSON stays valid JSON that reads back to the same value (the escapes are JSON's). The one escape function
 * of every toolwright log line: core's loggers, the adapters in the other packages and `logSafeName`.
 */
export function escapeLogText(text: string): string {
  return UNSAFE_IN_LOG.test(text) ? text.replace(UNSAFE_IN_LOG_ALL, escapeCodePoint) : text;
}

/** Deepest details copied by `escapeLogDetails` (deeper values are replaced by a marker). */
const MAX_ESCAPED_DEPTH = 32;

/**
 * A copy of a log event's details with `escapeLogText` applied to every string and key, for a logger that serializes
 * the details itself (pino writes U+2028 raw). Cycles, functions and BigInts become text, as in core's line format.
 */
export function escapeLogDetails(details: Record<string, unknown>): Record<string, unknown> {
  const seen = new WeakSet<object>();
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return escapeLogText(value);
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'function') return `[function ${escapeLogText((value as { name?: string }).name ?? '')}]`;
    if (typeof value !== 'object' || value === null) return value;
    if (value instanceof Error) return escapeLogText(`${value.name}: ${value.message}`);
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
      return copy((value as { toJSON(): unknown }).toJSON(), depth + 1);
    if (seen.has(value)) return '[circular]';
    if (depth >= MAX_ESCAPED_DEPTH) return '[too deep]';
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value))
        Object.defineProperty(result, escapeLogText(key), {
          value: copy(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return result;
    } finally {
      seen.delete(value);
    }
  };
  return copy(details, 0) as Record<string, unknown>;
}
