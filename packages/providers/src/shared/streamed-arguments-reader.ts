/**
 * The incremental reader of a call's arguments text as it streams in: it says when a top-level member is complete
 * (its key and the exact text of its value, for the executor's own reader to read and its plan to check) and passes
 * on the decoded text of long string values as it arrives (for display only: nothing checked it yet).
 *
 * One pass over each chunk, with its state kept between chunks: a chunk costs in proportion to its length, wherever
 * the text is cut. The lexical rules (white space, escapes, the number grammar) are core's; this file only tracks
 * where it is. Text that is not plain JSON (Python literals, single quotes, a fenced block, a double-encoded string,
 * a truncated or otherwise broken document) stops the reader: nothing more is reported early, and the complete call
 * is read and repaired or refused by the executor as any other.
 */
import { isJsonHexDigit, isJsonWhitespace, jsonEscapeCharacter, JSON_NUMBER } from '@toolwright/core/internal';

/** What the reader reports as the text arrives (called during `push`, in the text's order). */
export interface ArgumentsTextSink {
  /** A top-level member is complete: its key (decoded) and its value's text exactly as written. */
  member(key: string, text: string): void;
  /** More of a string value, decoded (display only): `path` in the executor's form (`items[0].note`). */
  text(path: string, text: string): void;
}

/** Strings shorter than this are not shown piece by piece (their member's event shows them whole). */
export const LONG_STRING = 64;

const enum State {
  /** Before the document: white space, then `{`. */
  Start,
  /** After `{`: a key or `}`. */
  KeyOrEnd,
  /** After `,` in an object: a key. */
  Key,
  Colon,
  /** A value is expected (after `:` or `,` in an array). */
  Value,
  /** After `[`: a value or `]`. */
  ValueOrEnd,
  InString,
  InLiteral,
  /** After a value: `,` or the container's end. */
  AfterValue,
  /** After the document's `}`: white space only. */
  Done,
  /** Not plain JSON: nothing more is reported. */
  Stopped,
}

interface Frame {
  readonly array: boolean;
  readonly path: string;
  /** The current member's key (objects) or element index (arrays). */
  key: string;
  index: number;
}

/** One call's reader. Feed it chunks with `push`; what they complete or add goes to its sink. */
export class StreamedArgumentsReader {
  private state = State.Start;
  private readonly frames: Frame[] = [];
  /** Escape state inside a string: 0 none, 1 after `\`, 2-5 reading the hex digits of `\u`. */
  private escape = 0;
  private hex = 0;
  /** Whether the string being read is a key (its text is kept, not shown). */
  private stringIsKey = false;
  /** The raw text of the key being read, and of the literal being read (both short in practice; linear in any case). */
  private keyText = '';
  private literal = '';
  /** The top-level member being read: its key, its value's text in pieces (joined once, when it is complete). */
  private memberKey = '';
  private memberPieces: string[] = [];
  private capturing = false;
  /** Where the member being captured starts in the current chunk (0: in an earlier chunk). */
  private captureFrom = 0;
  private readonly showText: boolean;
  /** The text of the string being read while it is still short, and whether it is long enough to be shown. */
  private held = '';
  private showing = false;
  /** The path of the string being shown (made once per string, not once per chunk). */
  private shownPath = '';

  constructor(
    private readonly sink: ArgumentsTextSink,
    options: { readonly text?: boolean } = {},
  ) {
    this.showText = options.text !== false;
  }

  /** Whether the reader stopped at text that is not plain JSON (no more early members from this call). */
  get stopped(): boolean {
    return this.state === State.Stopped;
  }

  /** Whether the document's closing `}` was read. */
  get done(): boolean {
    return this.state === State.Done;
  }

  /** Stops reading (text that is not plain JSON, or text replaced by another): the early view of the call ends there. */
  stop(): void {
    this.state = State.Stopped;
    this.memberPieces = [];
    this.capturing = false;
    this.held = '';
  }

  push(chunk: string): void {
    if (this.state === State.Stopped) return;
    this.captureFrom = 0;
    let position = 0;
    const length = chunk.length;
    while (position < length) {
      const state = this.state;
      if (state === State.InString) {
        position = this.readString(chunk, position);
        continue;
      }
      const code = chunk.charCodeAt(position);
      if (state === State.InLiteral) {
        if (isLiteralPart(code)) {
          const end = literalEnd(chunk, position);
          this.literal += chunk.slice(position, end);
          position = end;
          continue;
        }
        const literal = this.literal;
        this.literal = '';
        if (!JSON_NUMBER.test(literal) && literal !== 'true' && literal !== 'false' && literal !== 'null')
          return this.stop();
        this.valueEnded(chunk, position);
        continue;
      }
      if (isJsonWhitespace(code)) {
        position += 1;
        continue;
      }
      switch (state) {
        case State.Start:
          if (code !== 123 /* { */) return this.stop();
          this.frames.push({ array: false, path: '', key: '', index: 0 });
          this.state = State.KeyOrEnd;
          break;
        case State.KeyOrEnd:
        case State.Key:
          if (code === 34 /* " */) {
            this.keyText = '';
            this.stringIsKey = true;
            this.state = State.InString;
          } else if (code === 125 /* } */ && state === State.KeyOrEnd) this.close(chunk, position);
          else return this.stop();
          break;
        case State.Colon:
          if (code !== 58 /* : */) return this.stop();
          this.state = State.Value;
          break;
        case State.Value:
        case State.ValueOrEnd:
          if (code === 93 /* ] */ && state === State.ValueOrEnd) {
            this.close(chunk, position);
            break;
          }
          if (this.frames.length === 1) {
            // A top-level member's value starts here.
            this.capturing = true;
            this.captureFrom = position;
          }
          if (code === 34 /* " */) {
            this.stringIsKey = false;
            this.state = State.InString;
          } else if (code === 123 /* { */) {
            this.frames.push({ array: false, path: this.valuePath(), key: '', index: 0 });
            this.state = State.KeyOrEnd;
          } else if (code === 91 /* [ */) {
            this.frames.push({ array: true, path: this.valuePath(), key: '', index: 0 });
            this.state = State.ValueOrEnd;
          } else if (isLiteralPart(code)) {
            this.state = State.InLiteral;
            continue;
          } else return this.stop();
          break;
        case State.AfterValue: {
          const frame = this.frames[this.frames.length - 1]!;
          if (code === 44 /* , */) {
            if (frame.array) {
              frame.index += 1;
              this.state = State.Value;
            } else this.state = State.Key;
          } else if (code === (frame.array ? 93 /* ] */ : 125) /* } */) this.close(chunk, position);
          else return this.stop();
          break;
        }
        default:
          // After the document's end, or stopped.
          return this.stop();
      }
      position += 1;
    }
    if (this.capturing) this.memberPieces.push(this.captureFrom === 0 ? chunk : chunk.slice(this.captureFrom));
  }

  /** Reads string text from `position` to the string's end or the chunk's; returns where it stopped. */
  private readString(chunk: string, position: number): number {
    const length = chunk.length;
    let shown = '';
    let runStart = position;
    while (position < length) {
      if (this.escape === 0) {
        // The plain run up to the next quote or backslash.
        let code = chunk.charCodeAt(position);
        while (code !== 34 && code !== 92) {
          position += 1;
          if (position === length) break;
          code = chunk.charCodeAt(position);
        }
        if (position === length) break;
        if (code === 92 /* \ */) {
          shown += chunk.slice(runStart, position);
          position += 1;
          runStart = position;
          this.escape = 1;
          continue;
        }
        // The closing quote. A value string that ends short shows nothing (its member's event shows it whole): its
        // text is not copied (an array of many short strings would copy each one for nothing).
        const end = position;
        position += 1;
        if (
          !this.stringIsKey &&
          (!this.showText || (!this.showing && this.held.length + shown.length + (end - runStart) < LONG_STRING))
        ) {
          this.held = '';
          this.valueEnded(chunk, position);
          return position;
        }
        this.stringEnded(chunk, position, shown + chunk.slice(runStart, end));
        return position;
      }
      const code = chunk.charCodeAt(position);
      if (this.escape === 1) {
        if (code === 117 /* u */) {
          this.escape = 2;
          this.hex = 0;
        } else {
          const character = jsonEscapeCharacter(code);
          if (character === undefined) {
            this.stop();
            return length;
          }
          this.escape = 0;
          shown += character;
        }
      } else {
        if (!isJsonHexDigit(code)) {
          this.stop();
          return length;
        }
        this.hex = this.hex * 16 + hexValue(code);
        if (this.escape === 5) {
          this.escape = 0;
          shown += String.fromCharCode(this.hex);
        } else this.escape += 1;
      }
      position += 1;
      runStart = position;
    }
    shown += chunk.slice(runStart, position);
    if (this.stringIsKey) this.keyText += shown;
    else if (this.showText && shown !== '') this.show(shown);
    return position;
  }

  /** A string ended right before `end` (exclusive), with `shown` its decoded text since the chunk's start. */
  private stringEnded(chunk: string, end: number, shown: string): void {
    if (this.stringIsKey) {
      const frame = this.frames[this.frames.length - 1]!;
      frame.key = this.keyText + shown;
      this.keyText = '';
      if (this.frames.length === 1) this.memberKey = frame.key;
      this.state = State.Colon;
      return;
    }
    if (this.showText && shown !== '') this.show(shown);
    this.held = '';
    this.showing = false;
    this.valueEnded(chunk, end);
  }

  /** A value ended right before `end`: when it is a top-level member's, the member is complete. */
  private valueEnded(chunk: string, end: number): void {
    this.state = State.AfterValue;
    if (this.frames.length !== 1 || !this.capturing) return;
    let text: string;
    if (this.memberPieces.length === 0) text = chunk.slice(this.captureFrom, end);
    else {
      // Only a member cut across chunks has pieces (a member within one chunk makes no array).
      this.memberPieces.push(chunk.slice(this.captureFrom, end));
      text = this.memberPieces.join('');
      this.memberPieces = [];
    }
    this.capturing = false;
    this.sink.member(this.memberKey, text);
  }

  /** The container ends at `position` (its bracket). */
  private close(chunk: string, position: number): void {
    this.frames.pop();
    if (this.frames.length === 0) {
      this.state = State.Done;
      return;
    }
    this.valueEnded(chunk, position + 1);
  }

  /**
   * Shows more of the string being read, once it is long (`LONG_STRING` characters): a short string is shown whole by
   * its member's event, so its text is held, and dropped when the string ends short.
   */
  private show(text: string): void {
    if (!this.showing) {
      this.held += text;
      if (this.held.length < LONG_STRING) return;
      text = this.held;
      this.held = '';
      this.showing = true;
      this.shownPath = this.valuePath();
    }
    this.sink.text(this.shownPath, text);
  }

  /** The path of the value being read (the executor's form: `a.b[2]`). */
  private valuePath(): string {
    const frame = this.frames[this.frames.length - 1]!;
    if (frame.array) return `${frame.path}[${frame.index}]`;
    return frame.path === '' ? frame.key : `${frame.path}.${frame.key}`;
  }
}

function hexValue(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

/** A character of a number or of `true`/`false`/`null` (and of the words a model writes instead, which stop the reader). */
function isLiteralPart(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 43 ||
    code === 46 ||
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90)
  );
}

function literalEnd(chunk: string, position: number): number {
  let end = position;
  while (end < chunk.length && isLiteralPart(chunk.charCodeAt(end))) end += 1;
  return end;
}
