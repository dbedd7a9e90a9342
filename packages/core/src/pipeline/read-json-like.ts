import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import { MalformedArgumentsError } from '../errors/malformed-arguments-error';
import type { Transformation } from '../types/execution';
import { deepEqual } from './deep-equal';
import { describeReceived, messages } from './messages';
import { DANGEROUS_KEYS } from './sanitize';
import { UnsafeIntegerLiteral } from '../rules/unsafe-integer';
import { isJsonWhitespace, MAX_EXACT_INTEGER_DIGITS, tooDeepError } from './json-text-rules';
import { joinPath } from './keys';

/**
 * The tolerant reader of JSON-like text (docs/decisions/0006-tolerant-reader.md): one left-to-right pass, no
 * backtracking and no recursion, so time is linear in the text and any nesting yields a typed error, never a
 * RangeError. It reads JSON and what Python's `repr` prints, records each lossless repair by name, and refuses
 * whatever has more than one reading or would lose information in `JSON.parse`:
 *
 * - the same key twice with different values (equal values are kept once, recorded as `duplicate-key`);
 * - integer literals beyond 2^53 are kept as their digits ({@link UnsafeIntegerLiteral}) for the value rules to decide;
 * - a string mixing real escapes with backslashes that escape nothing, and escapes whose meaning differs between
 *   JSON and Python (`\'`, `\x41`, `\0`, ...) inside double quotes;
 * - unescaped quotes inside a string when another reading of the document exists;
 * - NaN and Infinity, unquoted words, cut-off text.
 *
 * Dangerous keys (`__proto__`, `constructor`, `prototype`) are dropped at any depth, nesting and array sizes are
 * checked against the limits while reading.
 */

export { UnsafeIntegerLiteral, isUnsafeIntegerLiteral } from '../rules/unsafe-integer';

export interface ReadLimits {
  readonly maxDepth: number;
  readonly maxArrayItems: number;
}

export interface ReadOptions extends ReadLimits {
  /** Where the text's value sits in the arguments (`''` at the top), for paths in records and messages. */
  readonly basePath?: string;
  /** Whether the value at a path is sensitive: messages then name it without echoing its values. */
  readonly sensitive?: (path: string) => boolean;
  /** Nesting levels above the text's value (0 at the top). */
  readonly depthOffset?: number;
}

export interface ReadValue {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

export interface ReadDocument {
  /** The top-level values read, in order (several when objects follow each other: `{..}{..}`). */
  readonly values: readonly ReadValue[];
  /** The names of the repairs made, in a fixed order. */
  readonly repairs: readonly string[];
  /** Per-key records: dropped dangerous keys, duplicate keys with equal values. */
  readonly records: readonly Transformation[];
  /** Text that is not a value sits before, between or after the values (prose). */
  readonly textOutside: boolean;
}

/** The repair rules, in the order they are reported. */
export const REPAIR_RULES = [
  'python-literals',
  'single-quotes',
  'trailing-commas',
  'unquoted-keys',
  'python-tuples',
  'triple-quotes',
  'invalid-escapes',
  'escaped-underscores',
  'inner-quotes',
  'raw-control-characters',
  'comments',
  'stray-closing-bracket',
  'escaped-whitespace',
] as const;
type RepairRule = (typeof REPAIR_RULES)[number];

export const readerMessages = {
  duplicateKey: (path: string, first: unknown, second: unknown) =>
    `The arguments give "${path}" twice with different values (${describeReceived(first)} and ${describeReceived(second)}); send it once, with the value you mean.`,
  duplicateSensitiveKey: (path: string) =>
    `The arguments give "${path}" twice with different values; send it once, with the value you mean.`,
  mixedEscapes: (path: string, escape: string, literal: string) =>
    `The string at "${path}" mixes escape sequences (${escape}) with backslashes that escape nothing (${literal}), so it has two readings; write every literal backslash as \\\\ and send the call again.`,
  ambiguousEscape: (path: string, sequence: string) =>
    `The string at "${path}" contains ${sequence}, which means one thing in JSON and another in Python; write a literal backslash as \\\\ (or the character itself) and send the call again.`,
  escapedPunctuation: (path: string, sequence: string) =>
    `The string at "${path}" contains ${sequence}, which is no JSON escape and has two readings (the backslash kept, as in a regular expression, or dropped, as in markdown); write a literal backslash as \\\\ or send the character alone, and send the call again.`,
  incompleteEscape: (path: string, sequence: string, escape: string, digits: number) =>
    `The string at "${path}" contains ${sequence}, an escape with too few hex digits (${escape} takes ${digits}), so the character it means cannot be known; send the character itself or the complete escape, and send the call again.`,
  invalidPythonEscape: (path: string, sequence: string) =>
    `The string at "${path}" contains the escape ${sequence}, which is not complete; send the character itself or a JSON string.`,
  ambiguousQuotes: () =>
    'The arguments contain double quotes inside a string value that are not escaped, and the text can be read in more than one way; escape every quote inside a string as \\" and send the call again.',
  unreadableQuote: (path: string) =>
    `The string at "${path}" contains a quote that neither ends it nor can be part of it; escape quotes inside strings as \\" and send the call again.`,
  notFinite: (word: string) =>
    `The arguments contain ${word}, which is not a number JSON can carry; send a finite number (or a string if the value is text).`,
  unreadable: (what: string, at: number) =>
    `The arguments could not be read as a JSON object: ${what} at character ${at + 1}. Send one JSON object with double-quoted keys and strings.`,
  unquotedText: (word: string, at: number) =>
    `The arguments contain the unquoted text ${describeReceived(word)} at character ${at + 1}; put text values in double quotes and send the call again.`,
};

/** The reader's refusals for syntax (no reading found, or text cut off): the reading search may look further. */
const SYNTAX_FAILURES = new WeakSet<Error>();

/** Whether the reader refused `error`'s text for its syntax, not for a reason a search must keep (escapes, duplicates). */
export function isSyntaxFailure(error: unknown): boolean {
  return error instanceof Error && SYNTAX_FAILURES.has(error);
}

function syntaxFailure(message: string): MalformedArgumentsError {
  const error = new MalformedArgumentsError(message);
  SYNTAX_FAILURES.add(error);
  return error;
}

const enum Code {
  DoubleQuote = 34,
  Quote = 39,
  OpenParen = 40,
  CloseParen = 41,
  Star = 42,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

interface ObjectFrame {
  readonly kind: 'object';
  readonly value: Record<string, unknown>;
  readonly path: string;
  key: string;
  /** The key the member being read is dropped under (a dangerous key), or undefined. */
  dropped: boolean;
}
interface ArrayFrame {
  readonly kind: 'array';
  readonly value: unknown[];
  readonly path: string;
  readonly closer: Code.CloseBracket | Code.CloseParen;
}
type Frame = ObjectFrame | ArrayFrame;

const NO_CLOSER = -1;
/** Per-key records (duplicates, dropped keys) kept per document; the rest are counted in one summary record. */
const MAX_RECORDS = 100;

/** `n`, `t`, `r`: the letters of the escapes of JSON's white space. */
function isEscapedWhitespace(code: number): boolean {
  return code === 110 || code === 116 || code === 114;
}
function isDigit(code: number): boolean {
  return code >= Code.Zero && code <= Code.Nine;
}
function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}
function isWordPart(code: number): boolean {
  return isWordStart(code) || isDigit(code);
}
function isHex(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}
function isStructural(code: number): boolean {
  return (
    code === Code.Colon ||
    code === Code.Comma ||
    code === Code.OpenBrace ||
    code === Code.CloseBrace ||
    code === Code.OpenBracket ||
    code === Code.CloseBracket ||
    code === Code.OpenParen ||
    code === Code.CloseParen
  );
}

const WORDS: ReadonlyMap<string, { value: unknown; python: boolean }> = new Map([
  ['true', { value: true, python: false }],
  ['false', { value: false, python: false }],
  ['null', { value: null, python: false }],
  ['True', { value: true, python: true }],
  ['False', { value: false, python: true }],
  ['None', { value: null, python: true }],
]);
const NOT_FINITE: ReadonlySet<string> = new Set(['NaN', 'nan', 'Infinity', 'infinity', 'inf', 'Inf']);
const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
/** What a backslash that escapes nothing may precede in a JSON string and stay as written (the letter itself is one unit). */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const PYTHON_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** Reads a whole document: one value, or several in a row; stops at the first text that is not a value. */
export function readJsonLike(text: string, options: ReadOptions): ReadDocument {
  return new Reader(text, options).readDocument();
}

class Reader {
  private position = 0;
  private readonly repairs = new Set<RepairRule>();
  private readonly records: Transformation[] = [];
  private readonly basePath: string;
  private readonly depthOffset: number;
  private stringValues = 0;
  private unrecorded = 0;
  private innerQuotes = 0;
  /** Set by {@link continuesAfter}: the next non-blank character after a quote, and where it is. */
  private afterCode = -1;
  private afterAt = 0;
  /** Set by {@link readEscape}: where the escape ends, and its decoded text (`undefined`: the backslash is literal). */
  private escapeEnd = 0;
  private escapeDecoded: string | undefined;

  constructor(
    private readonly text: string,
    private readonly options: ReadOptions,
  ) {
    this.basePath = options.basePath ?? '';
    this.depthOffset = options.depthOffset ?? 0;
  }

  readDocument(): ReadDocument {
    const values: ReadValue[] = [];
    let textOutside = false;
    const { text } = this;
    for (;;) {
      this.skipBlank();
      if (this.position >= text.length) break;
      const code = text.charCodeAt(this.position);
      if (code === Code.OpenBrace || code === Code.OpenBracket || (values.length === 0 && code === Code.OpenParen)) {
        const start = this.position;
        const value = this.readValue();
        values.push({ value, start, end: this.position });
        continue;
      }
      if (
        values.length > 0 &&
        (code === Code.CloseBrace || code === Code.CloseBracket) &&
        !this.repairs.has('stray-closing-bracket')
      ) {
        // One closing bracket after a complete value, then nothing: a lossless repair.
        const after = this.position;
        this.position++;
        this.skipBlank();
        if (this.position >= text.length) {
          this.repairs.add('stray-closing-bracket');
          break;
        }
        this.position = after;
      }
      textOutside = true;
      break;
    }
    if (this.innerQuotes > 0 && this.stringValues > 1)
      throw new MalformedArgumentsError(readerMessages.ambiguousQuotes());
    if (this.unrecorded > 0)
      this.records.push({ path: this.basePath, rule: 'more-key-records', from: this.unrecorded, to: undefined });
    const repairs = REPAIR_RULES.filter((rule) => this.repairs.has(rule));
    return { values, repairs, records: this.records, textOutside };
  }

  private fail(what: string): never {
    if (this.position >= this.text.length) throw syntaxFailure(messages.truncated());
    throw syntaxFailure(readerMessages.unreadable(what, this.position));
  }

  /** Skips white space and comments (`// ...` to the end of the line, `/* ... *\/`). */
  private skipBlank(): void {
    const { text } = this;
    const length = text.length;
    while (this.position < length) {
      const code = text.charCodeAt(this.position);
      if (isJsonWhitespace(code)) {
        this.position++;
        continue;
      }
      // `\n`, `\t`, `\r` written out between tokens (a template that escaped the text's line breaks): white space, the
      // only thing they can be outside a string.
      if (code === Code.Backslash && isEscapedWhitespace(text.charCodeAt(this.position + 1))) {
        this.position += 2;
        this.repairs.add('escaped-whitespace');
        continue;
      }
      if (code === Code.Slash) {
        const next = text.charCodeAt(this.position + 1);
        if (next === Code.Slash) {
          const end = text.indexOf('\n', this.position + 2);
          this.position = end === -1 ? length : end + 1;
          this.repairs.add('comments');
          continue;
        }
        if (next === Code.Star) {
          const end = text.indexOf('*/', this.position + 2);
          if (end === -1) {
            this.position = length;
            throw syntaxFailure(messages.truncated());
          }
          this.position = end + 2;
          this.repairs.add('comments');
          continue;
        }
      }
      return;
    }
  }

  /** One value, containers iteratively with an explicit stack. */
  private readValue(): unknown {
    const { text, options } = this;
    const stack: Frame[] = [];
    let value: unknown;
    let pending = false;
    for (;;) {
      if (!pending) {
        this.skipBlank();
        const code = text.charCodeAt(this.position);
        const top = stack[stack.length - 1];
        if (code === Code.OpenBrace || code === Code.OpenBracket || code === Code.OpenParen) {
          const path = this.pathIn(top);
          if (stack.length + 1 + this.depthOffset > options.maxDepth) throw tooDeepError(options.maxDepth, path);
          this.position++;
          let frame: Frame;
          if (code === Code.OpenBrace) frame = { kind: 'object', value: {}, path, key: '', dropped: false };
          else {
            if (code === Code.OpenParen) this.repairs.add('python-tuples');
            frame = {
              kind: 'array',
              value: [],
              path,
              closer: code === Code.OpenBracket ? Code.CloseBracket : Code.CloseParen,
            };
          }
          stack.push(frame);
          if (this.startMember(frame, true)) {
            stack.pop();
            value = frame.value;
            pending = true;
          }
          continue;
        }
        value = this.readScalar(top);
        pending = true;
      }
      const top = stack[stack.length - 1];
      if (top === undefined) return value;
      this.attach(top, value);
      pending = false;
      this.skipBlank();
      if (this.position >= text.length) throw syntaxFailure(messages.truncated());
      const code = text.charCodeAt(this.position);
      if (code === Code.Comma) {
        this.position++;
        if (this.startMember(top, false)) {
          stack.pop();
          value = top.value;
          pending = true;
        }
        continue;
      }
      if (code === (top.kind === 'object' ? Code.CloseBrace : top.closer)) {
        this.position++;
        stack.pop();
        value = top.value;
        pending = true;
        continue;
      }
      this.fail(
        `expected "," or "${top.kind === 'object' ? '}' : String.fromCharCode(top.closer)}" but found ${JSON.stringify(text[this.position])}`,
      );
    }
  }

  /**
   * After `{`, `[`, `(` or a comma: true when the container closes here (empty, or a trailing comma); otherwise,
   * for objects, reads the key and the colon.
   */
  private startMember(frame: Frame, first: boolean): boolean {
    this.skipBlank();
    const { text } = this;
    if (this.position >= text.length) throw syntaxFailure(messages.truncated());
    const code = text.charCodeAt(this.position);
    const closer = frame.kind === 'object' ? Code.CloseBrace : frame.closer;
    if (code === closer) {
      if (!first) this.repairs.add('trailing-commas');
      this.position++;
      return true;
    }
    if (first && code === Code.Comma) {
      // `{,}` and `[,]`: a trailing comma in an empty container.
      this.position++;
      this.skipBlank();
      if (text.charCodeAt(this.position) === closer) {
        this.repairs.add('trailing-commas');
        this.position++;
        return true;
      }
      this.fail('expected a value after "," but found another ","');
    }
    if (frame.kind === 'array') return false;
    let key: string;
    if (code === Code.DoubleQuote || code === Code.Quote) key = this.readString(code, true, Code.CloseBrace, frame);
    else if (isWordStart(code)) {
      const start = this.position;
      while (this.position < text.length && isWordPart(text.charCodeAt(this.position))) this.position++;
      key = text.slice(start, this.position);
      this.repairs.add('unquoted-keys');
    } else this.fail(`expected a key in double quotes but found ${JSON.stringify(text[this.position])}`);
    this.skipBlank();
    if (text.charCodeAt(this.position) !== Code.Colon) this.fail(`expected ":" after the key ${JSON.stringify(key)}`);
    this.position++;
    frame.key = key;
    frame.dropped = DANGEROUS_KEYS.has(key);
    return false;
  }

  private attach(frame: Frame, value: unknown): void {
    if (frame.kind === 'array') {
      if (frame.value.length >= this.options.maxArrayItems) {
        const message = messages.tooManyItems(frame.path, this.options.maxArrayItems, frame.value.length + 1);
        throw new InvalidArgumentsError(message, {
          issues: [
            { path: frame.path, rule: 'max-items', expected: `at most ${this.options.maxArrayItems} items`, message },
          ],
        });
      }
      frame.value.push(value);
      return;
    }
    const { key } = frame;
    if (frame.dropped) {
      this.record(joinPath(frame.path, key), 'dropped-dangerous-key', key);
      return;
    }
    const object = frame.value;
    if (Object.prototype.hasOwnProperty.call(object, key)) {
      const existing = object[key];
      if (existing !== value && !deepEqual(existing, value)) {
        const path = joinPath(frame.path, key);
        throw new MalformedArgumentsError(
          this.options.sensitive?.(path)
            ? readerMessages.duplicateSensitiveKey(path)
            : readerMessages.duplicateKey(path, existing, value),
        );
      }
      this.record(joinPath(frame.path, key), 'duplicate-key', key);
      return;
    }
    object[key] = value;
  }

  /** The path of the value being read in `top` (computed only when needed: records, messages, new containers). */
  private pathIn(top: Frame | undefined): string {
    return top === undefined
      ? this.basePath
      : top.kind === 'object'
        ? joinPath(top.path, top.key)
        : joinPath(top.path, top.value.length);
  }

  /** One per-key record; past {@link MAX_RECORDS}, one summary for the rest. */
  private record(path: string, rule: string, key: string): void {
    if (this.records.length < MAX_RECORDS) this.records.push({ path, rule, from: key, to: undefined });
    else this.unrecorded++;
  }

  private readScalar(top: Frame | undefined): unknown {
    const { text } = this;
    if (this.position >= text.length) throw syntaxFailure(messages.truncated());
    const code = text.charCodeAt(this.position);
    if (code === Code.DoubleQuote || code === Code.Quote) {
      const closer = top === undefined ? NO_CLOSER : top.kind === 'object' ? Code.CloseBrace : top.closer;
      const value = this.readString(code, false, closer, top);
      this.stringValues++;
      return value;
    }
    if (isDigit(code) || code === Code.Minus) return this.readNumber();
    if (isWordStart(code)) {
      const start = this.position;
      while (this.position < text.length && isWordPart(text.charCodeAt(this.position))) this.position++;
      const word = text.slice(start, this.position);
      const known = WORDS.get(word);
      if (known) {
        if (known.python) this.repairs.add('python-literals');
        return known.value;
      }
      if (NOT_FINITE.has(word)) throw new MalformedArgumentsError(readerMessages.notFinite(word));
      throw syntaxFailure(readerMessages.unquotedText(word, start));
    }
    return this.fail(`unexpected ${JSON.stringify(text[this.position])}`);
  }

  /** A number in JSON's grammar; anything else that starts like a number is refused, never guessed. */
  private readNumber(): unknown {
    const { text } = this;
    const start = this.position;
    let index = start;
    if (text.charCodeAt(index) === Code.Minus) index++;
    if (isWordStart(text.charCodeAt(index))) {
      const wordEnd = this.wordEnd(index);
      const word = text.slice(index, wordEnd);
      if (NOT_FINITE.has(word)) throw new MalformedArgumentsError(readerMessages.notFinite(`-${word}`));
    }
    const digitsStart = index;
    while (isDigit(text.charCodeAt(index))) index++;
    const integerDigits = index - digitsStart;
    let integral = true;
    let valid = integerDigits > 0 && !(integerDigits > 1 && text.charCodeAt(digitsStart) === Code.Zero);
    if (text.charCodeAt(index) === Code.Dot) {
      integral = false;
      index++;
      const fractionStart = index;
      while (isDigit(text.charCodeAt(index))) index++;
      if (index === fractionStart) valid = false;
    }
    const exponent = text.charCodeAt(index);
    if (exponent === 101 || exponent === 69) {
      integral = false;
      index++;
      const sign = text.charCodeAt(index);
      if (sign === 43 || sign === Code.Minus) index++;
      const exponentStart = index;
      while (isDigit(text.charCodeAt(index))) index++;
      if (index === exponentStart) valid = false;
    }
    const after = text.charCodeAt(index);
    if (!valid || isWordPart(after) || after === Code.Dot) {
      this.position = start;
      const end = Math.max(this.wordEnd(index), index);
      throw syntaxFailure(
        readerMessages.unreadable(
          `${JSON.stringify(text.slice(start, Math.min(end, start + 40)))} is not a number in JSON form (digits, an optional fraction with a dot, an optional exponent)`,
          start,
        ),
      );
    }
    this.position = index;
    const literal = text.slice(start, index);
    const number = Number(literal);
    if (
      integral &&
      integerDigits > MAX_EXACT_INTEGER_DIGITS &&
      (!Number.isFinite(number) || (!Number.isSafeInteger(number) && BigInt(literal) !== BigInt(number)))
    )
      return new UnsafeIntegerLiteral(literal);
    return number;
  }

  private wordEnd(from: number): number {
    let index = from;
    while (
      index < this.text.length &&
      (isWordPart(this.text.charCodeAt(index)) ||
        this.text.charCodeAt(index) === Code.Dot ||
        this.text.charCodeAt(index) === Code.Comma)
    )
      index++;
    return index;
  }

  /**
   * Whether the text after a quote at `index` can follow a string there: `:` after a key; `,` or the container's
   * closing bracket (or the end of the text at the top) after a value; a comment.
   */
  private continuesAfter(index: number, closer: number): boolean {
    const { text } = this;
    let at = index;
    for (;;) {
      if (at < text.length && isJsonWhitespace(text.charCodeAt(at))) at++;
      else if (text.charCodeAt(at) === Code.Backslash && isEscapedWhitespace(text.charCodeAt(at + 1))) at += 2;
      else break;
    }
    this.afterAt = at;
    if (at >= text.length) {
      this.afterCode = -1;
      return closer === NO_CLOSER;
    }
    const next = text.charCodeAt(at);
    this.afterCode = next;
    if (next === Code.Comma || next === closer) return true;
    if (next === Code.Slash) {
      const after = text.charCodeAt(at + 1);
      return after === Code.Slash || after === Code.Star;
    }
    return false;
  }

  /**
   * A string at the current position. `top` is the container it sits in (for paths in messages). Inner quotes,
   * escapes and control characters follow the rules in the class comment.
   */
  private readString(quote: number, key: boolean, closer: number, top: Frame | undefined): string {
    const { text } = this;
    const length = text.length;
    const triple = !key && text.charCodeAt(this.position + 1) === quote && text.charCodeAt(this.position + 2) === quote;
    if (quote === Code.Quote) this.repairs.add('single-quotes');
    const python = quote === Code.Quote || triple;
    let index = this.position + (triple ? 3 : 1);
    if (triple) this.repairs.add('triple-quotes');
    const parts: string[] = [];
    let chunkStart = index;
    let escapes = '';
    let literals = '';
    for (;;) {
      if (index >= length) {
        this.position = length;
        throw syntaxFailure(messages.truncated());
      }
      const code = text.charCodeAt(index);
      if (code === quote) {
        if (triple) {
          if (text.charCodeAt(index + 1) === quote && text.charCodeAt(index + 2) === quote) {
            parts.push(text.slice(chunkStart, index));
            this.position = index + 3;
            break;
          }
          index++;
          continue;
        }
        if (key || this.continuesAfter(index + 1, closer)) {
          parts.push(text.slice(chunkStart, index));
          this.position = index + 1;
          break;
        }
        // Not a place a string can end: the quote is part of the text, unless what follows is structure, or
        // another quote after a gap (the shape of a missing comma), which leaves the reading open.
        if (isStructural(this.afterCode) || (this.afterCode === quote && this.afterAt !== index + 1)) {
          this.position = index;
          throw syntaxFailure(readerMessages.unreadableQuote(this.stringPath(key, top)));
        }
        this.innerQuotes++;
        this.repairs.add('inner-quotes');
        index++;
        continue;
      }
      if (code === Code.Backslash) {
        this.readEscape(index, python, key, top);
        const end = this.escapeEnd;
        if (this.escapeDecoded !== undefined) {
          if (index > chunkStart) parts.push(text.slice(chunkStart, index));
          parts.push(this.escapeDecoded);
          if (escapes === '') escapes = text.slice(index, end);
        } else {
          // Kept as written: a backslash before a character that is not an escape.
          if (literals === '') {
            literals = text.slice(index, end);
            this.repairs.add('invalid-escapes');
          }
          index = end;
          if (escapes !== '')
            throw new MalformedArgumentsError(
              readerMessages.mixedEscapes(this.stringPath(key, top), escapes, literals),
            );
          continue;
        }
        if (literals !== '')
          throw new MalformedArgumentsError(readerMessages.mixedEscapes(this.stringPath(key, top), escapes, literals));
        index = end;
        chunkStart = index;
        continue;
      }
      if (code < 0x20) this.repairs.add('raw-control-characters');
      index++;
    }
    return parts.length === 1 ? parts[0]! : parts.join('');
  }

  private stringPath(key: boolean, top: Frame | undefined): string {
    return key ? (top?.path ?? this.basePath) : this.pathIn(top);
  }

  /** Whether `count` hex digits start at `from`. */
  private hexAt(from: number, count: number): boolean {
    for (let offset = 0; offset < count; offset++) if (!isHex(this.text.charCodeAt(from + offset))) return false;
    return true;
  }

  /**
   * An escape letter (`u`, `x`, `U`) at `index + 1` followed by at least one hex digit but fewer than `count`: the
   * character meant cannot be known, so the call is refused. With no hex digit at all the backslash cannot start an
   * escape (`c:\\Users`) and is kept as written.
   */
  private refuseIncompleteEscape(index: number, count: number, key: boolean, top: Frame | undefined): void {
    let digits = 0;
    while (digits < count && isHex(this.text.charCodeAt(index + 2 + digits))) digits++;
    if (digits === 0) return;
    throw new MalformedArgumentsError(
      readerMessages.incompleteEscape(
        this.stringPath(key, top),
        JSON.stringify(this.text.slice(index, index + 3 + digits)),
        `\\${this.text[index + 1]!}`,
        count,
      ),
    );
  }

  /** Reads the escape at `index` (a backslash) into {@link escapeEnd} and {@link escapeDecoded}. */
  private readEscape(index: number, python: boolean, key: boolean, top: Frame | undefined): void {
    const { text } = this;
    if (index + 1 >= text.length) {
      this.position = text.length;
      throw syntaxFailure(messages.truncated());
    }
    const letter = text[index + 1]!;
    this.escapeEnd = index + 2;
    this.escapeDecoded = undefined;
    if (!python) {
      const simple = JSON_ESCAPES[letter];
      if (simple !== undefined) {
        this.escapeDecoded = simple;
        return;
      }
      if (letter === 'u') {
        if (this.hexAt(index + 2, 4)) {
          this.escapeDecoded = String.fromCharCode(parseInt(text.slice(index + 2, index + 6), 16));
          this.escapeEnd = index + 6;
          return;
        }
        this.refuseIncompleteEscape(index, 4, key, top);
        return;
      }
      // `\x` and `\U` with some hex digits but too few: the character meant cannot be known.
      if (letter === 'x' && !this.hexAt(index + 2, 2)) this.refuseIncompleteEscape(index, 2, key, top);
      if (letter === 'U' && !this.hexAt(index + 2, 8)) this.refuseIncompleteEscape(index, 8, key, top);
      const ambiguous =
        letter === "'" ||
        letter === '\n' ||
        letter === '\r' ||
        (letter >= '0' && letter <= '7') ||
        (letter === 'x' && this.hexAt(index + 2, 2)) ||
        (letter === 'U' && this.hexAt(index + 2, 8)) ||
        (letter === 'N' && text[index + 2] === '{');
      if (ambiguous)
        throw new MalformedArgumentsError(
          readerMessages.ambiguousEscape(this.stringPath(key, top), JSON.stringify(text.slice(index, index + 2))),
        );
      // A markdown-escaped underscore (`hello\_world.sh`): `_` in markdown and in a regular expression alike.
      if (letter === '_') {
        this.escapeDecoded = '_';
        this.repairs.add('escaped-underscores');
        return;
      }
      // A backslash before a letter or digit escapes nothing (`c:\Users`, `\d+`): kept as written. Before any other
      // character (`\(`, `\.`, `\*`) it is a regular expression's escape or markdown's: two readings.
      if (!LETTER_OR_DIGIT.test(letter))
        throw new MalformedArgumentsError(
          readerMessages.escapedPunctuation(this.stringPath(key, top), JSON.stringify(text.slice(index, index + 2))),
        );
      return;
    }
    const simple = PYTHON_ESCAPES[letter];
    if (simple !== undefined) {
      this.escapeDecoded = simple;
      return;
    }
    if (letter === '\n') {
      this.escapeDecoded = '';
      return;
    }
    if (letter === '\r') {
      this.escapeDecoded = '';
      if (text[index + 2] === '\n') this.escapeEnd = index + 3;
      return;
    }
    if (letter === 'x' || letter === 'u' || letter === 'U') {
      const count = letter === 'x' ? 2 : letter === 'u' ? 4 : 8;
      const code = this.hexAt(index + 2, count) ? parseInt(text.slice(index + 2, index + 2 + count), 16) : Infinity;
      if (code > 0x10ffff)
        throw new MalformedArgumentsError(
          readerMessages.invalidPythonEscape(
            this.stringPath(key, top),
            JSON.stringify(text.slice(index, index + 2 + count)),
          ),
        );
      this.escapeDecoded = String.fromCodePoint(code);
      this.escapeEnd = index + 2 + count;
      return;
    }
    if (letter >= '0' && letter <= '7') {
      let end = index + 2;
      while (end < index + 4 && end < text.length && text[end]! >= '0' && text[end]! <= '7') end++;
      this.escapeDecoded = String.fromCharCode(parseInt(text.slice(index + 1, end), 8));
      this.escapeEnd = end;
      return;
    }
    if (letter === 'N')
      throw new MalformedArgumentsError(readerMessages.invalidPythonEscape(this.stringPath(key, top), '\\N{...}'));
    // Python keeps an unknown escape as written: '\d' is a backslash and a d.
  }
}
