import { deepEqual } from './deep-equal';
import { isJsonWhitespace } from './json-text-rules';

/**
 * The search for the one reading of arguments text that is not JSON (docs/normalization.md, "One reading, found by
 * search"). It looks for the smallest syntax-only edits that make the text a JSON document the tool accepts: a
 * structural character (`{ } [ ] : , "`) inserted, removed or replaced by another, never a character inside a value
 * (an edit inside a string can only be a quote, which moves the string's end). Up to {@link MAX_EDIT_DISTANCE} edits;
 * the readings at the smallest distance must all give the same value, or the text is refused as ambiguous.
 *
 * Sound and complete within its bounds: a strict JSON recognizer finds where the text stops being a prefix of any
 * document (`failure`); an edit after that point leaves the failing prefix as it is, so every edit of a reading starts
 * at or before it (with two edits, the lower one before the text's failure and the higher one before the failure of
 * the text with the lower one applied). Each candidate is recognized from the recognizer's state where it differs from
 * its text, and dropped as soon as its state is again the state the failing text had at the same character (the rest
 * would fail the same way). A candidate that only adds text at the end is a completion of a cut-off text: never a
 * reading. Text that fails only at its end (a string or a bracket still open) is cut off: not searched.
 *
 * Bounded: only texts of at most {@link MAX_SEARCH_LENGTH} characters are searched, and the search reads at most
 * {@link MAX_SEARCH_WORK} characters in all (it refuses when that overflows), so its work has a constant bound and
 * longer texts keep the reader's linear refusal.
 */

/** The characters an edit may insert, remove or replace. */
export const STRUCTURAL_CHARACTERS = '{}[]:,"';
/** Edits per reading, at most. */
export const MAX_EDIT_DISTANCE = 2;
/** Texts longer than this are not searched (the reader's refusal stands). */
export const MAX_SEARCH_LENGTH = 4096;
/**
 * Characters the search reads per text, at most, counting every candidate's characters and every edited text's trace
 * (a few milliseconds); past it the search refuses (`overflow`). Texts of a tool call's usual size need a small part.
 */
export const MAX_SEARCH_WORK = 1_500_000;

/** One edit: at `at` (an offset in the text it applies to), `removed` (one character or none) becomes `inserted`. */
export interface SyntaxEdit {
  readonly at: number;
  readonly removed: string;
  readonly inserted: string;
}

export type ReadingSearchOutcome =
  /** One value at the smallest distance: `edits` is one of the readings that give it, in the order applied. */
  | {
      readonly kind: 'one';
      readonly value: Record<string, unknown>;
      /** One of the texts that give it. */
      readonly text: string;
      readonly edits: readonly SyntaxEdit[];
    }
  /** Readings with different values at the smallest distance (two of them, as texts). */
  | { readonly kind: 'several'; readonly first: string; readonly second: string }
  /** The text fails only at its end: cut off, never completed. */
  | { readonly kind: 'cut-off' }
  /** No reading within the distance, or the text is longer than the search reads. */
  | { readonly kind: 'none' }
  /** More candidates than the bound. */
  | { readonly kind: 'overflow' };

const enum Mode {
  Value,
  ValueOrCloseArray,
  KeyOrCloseObject,
  Key,
  Colon,
  AfterValue,
  String,
  KeyString,
  Escape,
  KeyEscape,
  Unicode,
  KeyUnicode,
  Number,
  Literal,
}

/** The containers open at a point: a persistent list, so a state is kept by reference and compared by identity. */
interface Frame {
  readonly array: boolean;
  readonly parent: Frame | null;
}

const LITERALS = ['true', 'false', 'null'] as const;

/** A strict JSON recognizer (RFC 8259, what `JSON.parse` accepts), one character at a time. */
class Recognizer {
  mode = Mode.Value;
  sub = 0;
  stack: Frame | null = null;

  set(mode: Mode, sub: number, stack: Frame | null): void {
    this.mode = mode;
    this.sub = sub;
    this.stack = stack;
  }

  /** Feeds one character; false when no document starts with what was fed. */
  feed(code: number): boolean {
    for (;;) {
      switch (this.mode) {
        case Mode.Value:
        case Mode.ValueOrCloseArray:
          if (isJsonWhitespace(code)) return true;
          if (code === 93 && this.mode === Mode.ValueOrCloseArray) return this.close(true);
          return this.startValue(code);
        case Mode.KeyOrCloseObject:
        case Mode.Key:
          if (isJsonWhitespace(code)) return true;
          if (code === 125 && this.mode === Mode.KeyOrCloseObject) return this.close(false);
          if (code !== 34) return false;
          this.mode = Mode.KeyString;
          return true;
        case Mode.Colon:
          if (isJsonWhitespace(code)) return true;
          if (code !== 58) return false;
          this.mode = Mode.Value;
          return true;
        case Mode.AfterValue:
          if (isJsonWhitespace(code)) return true;
          if (this.stack === null) return false;
          if (code === 44) {
            this.mode = this.stack.array ? Mode.Value : Mode.Key;
            return true;
          }
          if (code === (this.stack.array ? 93 : 125)) return this.close(this.stack.array);
          return false;
        case Mode.String:
        case Mode.KeyString:
          if (code === 34) {
            this.mode = this.mode === Mode.String ? Mode.AfterValue : Mode.Colon;
            return true;
          }
          if (code === 92) this.mode = this.mode === Mode.String ? Mode.Escape : Mode.KeyEscape;
          return code >= 0x20;
        case Mode.Escape:
        case Mode.KeyEscape: {
          const key = this.mode === Mode.KeyEscape;
          if (code === 117) {
            this.mode = key ? Mode.KeyUnicode : Mode.Unicode;
            this.sub = 0;
            return true;
          }
          // " \ / b f n r t
          if (code !== 34 && code !== 92 && code !== 47 && code !== 98 && code !== 102 && code !== 110)
            if (code !== 114 && code !== 116) return false;
          this.mode = key ? Mode.KeyString : Mode.String;
          return true;
        }
        case Mode.Unicode:
        case Mode.KeyUnicode:
          if (!isHex(code)) return false;
          if (++this.sub === 4) this.mode = this.mode === Mode.Unicode ? Mode.String : Mode.KeyString;
          return true;
        case Mode.Number: {
          const next = numberStep(this.sub, code);
          if (next !== 0) {
            this.sub = next;
            return true;
          }
          if (!numberComplete(this.sub)) return false;
          this.mode = Mode.AfterValue;
          continue; // the character after the number, read after it
        }
        case Mode.Literal: {
          const word = LITERALS[this.sub >> 4]!;
          const index = this.sub & 15;
          if (code !== word.charCodeAt(index)) return false;
          if (index + 1 === word.length) this.mode = Mode.AfterValue;
          else this.sub++;
          return true;
        }
      }
    }
  }

  /** Whether what was fed is a whole document. */
  complete(): boolean {
    if (this.stack !== null) return false;
    return this.mode === Mode.AfterValue || (this.mode === Mode.Number && numberComplete(this.sub));
  }

  private startValue(code: number): boolean {
    switch (code) {
      case 123:
        this.stack = { array: false, parent: this.stack };
        this.mode = Mode.KeyOrCloseObject;
        return true;
      case 91:
        this.stack = { array: true, parent: this.stack };
        this.mode = Mode.ValueOrCloseArray;
        return true;
      case 34:
        this.mode = Mode.String;
        return true;
      case 116:
      case 102:
      case 110:
        this.mode = Mode.Literal;
        this.sub = ((code === 116 ? 0 : code === 102 ? 1 : 2) << 4) | 1;
        return true;
    }
    const number = numberStep(0, code);
    if (number === 0) return false;
    this.mode = Mode.Number;
    this.sub = number;
    return true;
  }

  private close(array: boolean): boolean {
    if (this.stack === null || this.stack.array !== array) return false;
    this.stack = this.stack.parent;
    this.mode = Mode.AfterValue;
    return true;
  }
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * A number's states: 0 before it, 1 after `-`, 2 a leading `0`, 3 integer digits, 4 after `.`, 5 fraction digits,
 * 6 after `e`, 7 after the exponent's sign, 8 exponent digits. The next state, or 0 when the character ends it.
 */
function numberStep(state: number, code: number): number {
  switch (state) {
    case 0:
      return code === 45 ? 1 : code === 48 ? 2 : isDigit(code) ? 3 : 0;
    case 1:
      return code === 48 ? 2 : isDigit(code) ? 3 : 0;
    case 2:
    case 3:
      if (code === 46) return 4;
      if (code === 101 || code === 69) return 6;
      return state === 3 && isDigit(code) ? 3 : 0;
    case 4:
    case 5:
      if (isDigit(code)) return 5;
      return state === 5 && (code === 101 || code === 69) ? 6 : 0;
    case 6:
      return code === 43 || code === 45 ? 7 : isDigit(code) ? 8 : 0;
    case 7:
    case 8:
      return isDigit(code) ? 8 : 0;
  }
  return 0;
}
function numberComplete(state: number): boolean {
  return state === 2 || state === 3 || state === 5 || state === 8;
}

/** A text's recognizer states before each of its characters, up to where it fails. */
class Trace {
  readonly modes: Int32Array;
  readonly subs: Int32Array;
  readonly stacks: Array<Frame | null>;
  /** The first character no document can continue with (`text.length`: it fails only at its end, or is whole). */
  failure = 0;
  whole = false;

  /** `capacity`: the longest text this trace records. */
  constructor(
    public text: string,
    capacity: number,
  ) {
    this.modes = new Int32Array(capacity + 1);
    this.subs = new Int32Array(capacity + 1);
    this.stacks = new Array<Frame | null>(capacity + 1).fill(null);
  }

  /** Records the states of `text` from `from` on, starting with `recognizer`'s state there. */
  run(text: string, recognizer: Recognizer, from: number): void {
    this.text = text;
    this.whole = false;
    let at = from;
    for (; at < text.length; at++) {
      this.modes[at] = recognizer.mode;
      this.subs[at] = recognizer.sub;
      this.stacks[at] = recognizer.stack;
      if (!recognizer.feed(text.charCodeAt(at))) break;
    }
    if (at === text.length) {
      this.modes[at] = recognizer.mode;
      this.subs[at] = recognizer.sub;
      this.stacks[at] = recognizer.stack;
      this.whole = recognizer.complete();
    }
    this.failure = at;
  }

  restore(recognizer: Recognizer, at: number): void {
    recognizer.set(this.modes[at] as Mode, this.subs[at]!, this.stacks[at]!);
  }

  /** Whether `recognizer` is, before character `at`, in the state this text was in (then it fails as this text does). */
  same(recognizer: Recognizer, at: number): boolean {
    return (
      at <= this.failure &&
      recognizer.stack === this.stacks[at] &&
      recognizer.mode === this.modes[at] &&
      recognizer.sub === this.subs[at]
    );
  }

  /** Whether the character at `at` is read inside a string (an edit there can only move the string's end). */
  inString(at: number): boolean {
    const mode = this.modes[at] as Mode;
    return mode >= Mode.String && mode <= Mode.KeyUnicode;
  }
}

/**
 * Every edit of `trace`'s text from `from` on that may make it a document: at or before its failure, structural
 * characters only, a quote only inside a string. Inserting a character other than a quote before or after white space
 * between tokens gives the same document: only the first place is tried.
 */
function editsOf(trace: Trace, from: number): SyntaxEdit[] {
  const { text } = trace;
  const edits: SyntaxEdit[] = [];
  const last = Math.min(trace.failure, text.length - 1);
  for (let at = from; at <= last; at++) {
    const character = text[at]!;
    const mode = trace.modes[at] as Mode;
    if (trace.inString(at)) {
      // Only a quote moves the string's end: inserted, removed, replaced or put in place of a structural character
      // (after a backslash it would only be escaped).
      if (mode === Mode.String || mode === Mode.KeyString) {
        edits.push({ at, removed: '', inserted: '"' });
        if (character === '"') pushRemovals(edits, at, character);
        else if (STRUCTURAL_CHARACTERS.includes(character)) edits.push({ at, removed: character, inserted: '"' });
      }
      continue;
    }
    const afterBlank = at > from && isJsonWhitespace(text.charCodeAt(at - 1)) && !trace.inString(at - 1);
    for (const inserted of STRUCTURAL_CHARACTERS)
      if (!afterBlank || inserted === '"') edits.push({ at, removed: '', inserted });
    if (STRUCTURAL_CHARACTERS.includes(character)) pushRemovals(edits, at, character);
  }
  return edits;
}

function pushRemovals(edits: SyntaxEdit[], at: number, character: string): void {
  edits.push({ at, removed: character, inserted: '' });
  for (const inserted of STRUCTURAL_CHARACTERS)
    if (inserted !== character) edits.push({ at, removed: character, inserted });
}

function applyEdit(text: string, edit: SyntaxEdit): string {
  return text.slice(0, edit.at) + edit.inserted + text.slice(edit.at + edit.removed.length);
}

/** The characters a search has read, against {@link MAX_SEARCH_WORK}. */
interface Work {
  read: number;
}

/** Whether the edited text is a document, recognized from where the edit starts, dropped once it meets `trace` again. */
function recognizes(trace: Trace, edit: SyntaxEdit, recognizer: Recognizer, work: Work): boolean {
  const { text } = trace;
  trace.restore(recognizer, edit.at);
  if (edit.inserted !== '' && !recognizer.feed(edit.inserted.charCodeAt(0))) return false;
  const start = edit.at + edit.removed.length;
  let at = start;
  try {
    return recognizesFrom();
  } finally {
    work.read += at - start + 1;
  }
  function recognizesFrom(): boolean {
    for (; at < text.length; at++) {
      // The state the trace's text had here: the rest reads as it does (a failure, or a whole document).
      if (at > edit.at && trace.same(recognizer, at)) return trace.whole;
      if (!recognizer.feed(text.charCodeAt(at))) return false;
    }
    return recognizer.complete();
  }
}

/**
 * The readings of `text` (not JSON) within {@link MAX_EDIT_DISTANCE} edits that `accepts` takes, and what they say:
 * one value, several, none, a cut-off text, or too many candidates. `accepts` answers the value as the tool reads it
 * (undefined: not accepted); readings are the same when those are equal. `maxDistance`: 1 or 2 edits.
 */
export function searchReadings(
  text: string,
  accepts: (value: Record<string, unknown>) => Record<string, unknown> | undefined,
  maxDistance: number = MAX_EDIT_DISTANCE,
): ReadingSearchOutcome {
  if (text.length > MAX_SEARCH_LENGTH) return { kind: 'none' };
  const recognizer = new Recognizer();
  const trace = new Trace(text, text.length);
  trace.run(text, recognizer, 0);
  if (trace.whole) return { kind: 'none' };
  if (trace.failure >= text.length) return { kind: 'cut-off' };
  const work: Work = { read: text.length };
  const readings: Array<{ value: Record<string, unknown>; text: string; edits: SyntaxEdit[] }> = [];
  /** Whether a recognized candidate is a reading (then it is kept). */
  const consider = (candidate: string, edits: SyntaxEdit[]): boolean => {
    // Only text added at the end: a completion of a cut-off text, never a reading.
    if (candidate.startsWith(text)) return false;
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      return false;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const read = accepts(value as Record<string, unknown>);
    if (read === undefined) return false;
    readings.push({ value: read, text: candidate, edits });
    return true;
  };
  const failed: SyntaxEdit[] = [];
  for (const edit of editsOf(trace, 0)) {
    // A document the tool does not take may still be one edit from one it takes.
    if (!recognizes(trace, edit, recognizer, work) || !consider(applyEdit(text, edit), [edit])) failed.push(edit);
    if (work.read > MAX_SEARCH_WORK) return { kind: 'overflow' };
  }
  if (readings.length === 0 && maxDistance >= 2) {
    // The lower edit first: the higher one sits at or after it, and at or before the edited text's failure. The edited
    // text's states before the edit are the text's: it is recognized from the edit on (one scratch trace for all).
    const second = new Trace(text, text.length + 1);
    for (const edit of failed) {
      const edited = applyEdit(text, edit);
      trace.restore(recognizer, edit.at);
      second.run(edited, recognizer, edit.at);
      work.read += second.failure - edit.at + 1;
      for (const next of editsOf(second, edit.at)) {
        if (recognizes(second, next, recognizer, work)) consider(applyEdit(edited, next), [edit, next]);
        if (work.read > MAX_SEARCH_WORK) return { kind: 'overflow' };
      }
    }
  }
  if (readings.length === 0) return { kind: 'none' };
  const [one] = readings as [(typeof readings)[number]];
  const other = readings.find((reading) => !deepEqual(reading.value, one.value));
  if (other !== undefined) return { kind: 'several', first: one.text, second: other.text };
  return { kind: 'one', value: one.value, text: one.text, edits: one.edits };
}

/** The transformation rule of a reading's edit: what it did, by the character. */
export function editRule(edit: SyntaxEdit): string {
  const name = (character: string) =>
    character === '"' ? 'quote' : character === ',' ? 'comma' : character === ':' ? 'colon' : 'bracket';
  if (edit.removed === '') return `inserted-${name(edit.inserted)}`;
  if (edit.inserted === '') return `removed-${name(edit.removed)}`;
  return `replaced-${name(edit.removed)}`;
}
