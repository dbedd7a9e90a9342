import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { messages } from './messages';

/**
 * The lexical rules of arguments text, each written once and used by every reading path: the checks made on
 * `JSON.parse`'s result (`information-loss.ts`), the bracket scan (`scan-json-text.ts`) and the tolerant reader
 * (`read-json-like.ts`).
 */

/** JSON's white space (RFC 8259): space, TAB, line feed, carriage return. */
export function isJsonWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/**
 * Where the string opened by the quote at `opening` closes: the next `quote` (its character code) not escaped, that is
 * not preceded by an odd run of backslashes inside the string; -1 when the string never closes (cut off).
 */
export function stringEnd(text: string, opening: number, quote: number): number {
  const character = quote === 34 ? '"' : String.fromCharCode(quote);
  let closing = text.indexOf(character, opening + 1);
  while (closing !== -1) {
    let backslashes = 0;
    while (closing - 1 - backslashes > opening && text.charCodeAt(closing - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return closing;
    closing = text.indexOf(character, closing + 1);
  }
  return -1;
}

/**
 * Digits an integer literal may have and always be read exactly by a double: every integer of at most 15 digits is
 * below 2^53. A longer literal may be one `JSON.parse` rounds.
 */
export const MAX_EXACT_INTEGER_DIGITS = 15;

/**
 * Whether a number read from text may not be the literal's exact value: beyond +-(2^53 - 1) (or infinite), where a
 * double no longer holds every integer. Below it, the literal was exact (an integer) or reads the same both ways.
 */
export function beyondSafeInteger(value: number): boolean {
  return value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER;
}

/** The refusal of arguments nested deeper than the limit, at `path` (`''`: the arguments themselves). */
export function tooDeepError(maxDepth: number, path = ''): InvalidArgumentsError {
  const message = messages.tooDeep(maxDepth);
  return new InvalidArgumentsError(message, {
    issues: [{ path, rule: 'max-depth', expected: `at most ${maxDepth} levels of nesting`, message }],
  });
}

/**
 * The character a JSON escape `\x` stands for (RFC 8259 section 7), by the code of `x`: `"`, `\`, `/`, `b`, `f`, `n`,
 * `r`, `t`; `undefined` for any other (`u` starts a four-hex-digit escape: {@link isJsonHexDigit}).
 */
export function jsonEscapeCharacter(code: number): string | undefined {
  switch (code) {
    case 34:
      return '"';
    case 92:
      return '\\';
    case 47:
      return '/';
    case 98:
      return '\b';
    case 102:
      return '\f';
    case 110:
      return '\n';
    case 114:
      return '\r';
    case 116:
      return '\t';
    default:
      return undefined;
  }
}

/** A hex digit of a `\uXXXX` escape. */
export function isJsonHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}
