import type { PipelineLimits } from './limits';
import { beyondSafeInteger, isJsonWhitespace, MAX_EXACT_INTEGER_DIGITS, stringEnd } from './json-text-rules';
import { DANGEROUS_KEYS } from './sanitize';

/**
 * Whether JSON.parse lost something reading valid JSON text: a key given twice (it keeps the last) or an integer
 * literal beyond 2^53 (it rounds). When it may have, the exact reader reads the text again.
 *
 * Sound: never "nothing lost" when something was. "Possibly lost" where nothing was is allowed only where the exact
 * reader returns what JSON.parse returned, with nothing to record; where the reader would differ anyway (a prototype
 * key it drops and records, an array or a nesting beyond a limit it refuses with its own message) the decision is the
 * text scan's, as it always was ({@link mayLoseInformationByScan}).
 */
export const enum InformationLoss {
  None,
  Possible,
  /** A container nests deeper than the limit (exact); the caller decides. */
  TooDeep,
}

/**
 * The canonical check's "no" (`compile/canonical-check.ts`); any other answer is "yes" and the value's
 * {@link ParsedValueFacts.minTextLength} (or `NaN` when it holds a number beyond 2^53).
 */
export const NOT_ACCEPTED = -1;

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as hasOwnProperty.call(object, key)
const hasOwnProperty = Object.prototype.hasOwnProperty;

export function informationLoss(text: string, parsed: unknown, limits: PipelineLimits): InformationLoss {
  const facts = inspectParsedValue(parsed, limits);
  if (facts.tooDeep) return InformationLoss.TooDeep;
  return mayLoseInformation(text, parsed, facts) ? InformationLoss.Possible : InformationLoss.None;
}

/** What one walk over JSON.parse's value tells. */
export interface ParsedValueFacts {
  /** Keys of objects, at any depth. */
  readonly keys: number;
  /** String values (array items, property values, the value itself), at any depth. */
  readonly strings: number;
  /** A number beyond +-(2^53 - 1) (or infinite): the literal may have been an integer JSON.parse rounded. */
  readonly unsafeNumber: boolean;
  /**
   * A lower bound on the length of any JSON text without a backslash that JSON.parse reads as this value: its compact
   * form, with each string's own length, and each number counted at the fewest characters any literal of it takes
   * ({@link minNumberLength}).
   */
  readonly minTextLength: number;
  /** A container nested deeper than the limit. */
  readonly tooDeep: boolean;
  /**
   * Something the exact reader treats differently from JSON.parse even when nothing was lost: a prototype key (the
   * reader drops and records it), an array beyond the item limit or nesting beyond the depth limit (the reader refuses
   * with its own message).
   */
  readonly readerDiffers: boolean;
}

/** Depth limits up to this are walked recursively (a frame per level); deeper ones iteratively. */
const MAX_RECURSIVE_DEPTH = 256;

/** One walk over a value JSON.parse returned (no allocation per value). */
export function inspectParsedValue(value: unknown, limits: PipelineLimits): ParsedValueFacts {
  if (typeof value === 'string')
    return {
      keys: 0,
      strings: 1,
      unsafeNumber: false,
      minTextLength: value.length + 2,
      tooDeep: false,
      readerDiffers: false,
    };
  if (typeof value === 'number') {
    const unsafeNumber = beyondSafeInteger(value);
    return {
      keys: 0,
      strings: 0,
      unsafeNumber,
      minTextLength: minNumberLength(value),
      tooDeep: false,
      readerDiffers: false,
    };
  }
  if (typeof value !== 'object' || value === null)
    return {
      keys: 0,
      strings: 0,
      unsafeNumber: false,
      minTextLength: value === false ? 5 : 4,
      tooDeep: false,
      readerDiffers: false,
    };
  if (limits.maxDepth > MAX_RECURSIVE_DEPTH) return inspectIteratively(value, limits);
  // The answer, filled in by the walk: the one object this call makes.
  const facts: WalkedFacts = {
    keys: 0,
    strings: 0,
    unsafeNumber: false,
    minTextLength: 0,
    tooDeep: false,
    readerDiffers: false,
  };
  facts.strings = countRecursively(value, 1, limits, facts) - facts.keys;
  return facts;
}

/** {@link ParsedValueFacts} while {@link countRecursively} fills them in (each call's own). */
type WalkedFacts = { -readonly [Fact in keyof ParsedValueFacts]: ParsedValueFacts[Fact] };

/**
 * A lower bound of the characters of any JSON number literal that JSON.parse reads as `value` (finite), exact for the
 * forms providers send. Every literal of a number holds at least as many significant digits as its shortest round-trip
 * spelling, so, with a minus sign one more:
 * - a safe integer whose last digit is not 0 takes all its digits (`1234`: a shorter decimal is at least 1 away, and
 *   doubles below 2^53 are at most 1 apart, so it would be read as another number; `1.234e3` is longer);
 * - a safe integer ending in 0 takes its digits, or three where it has more (`1e3` for `1000`);
 * - a fraction above 1 takes the digits of its integer part, a point and a fraction digit (no decimal with only the
 *   integer part's digits is read as it: those are integers, each a double of its own; an exponent form is longer);
 * - a fraction below 1 takes three (`0.5`; `5e-1` is longer);
 * - a number beyond 2^53 takes three (`1e21`: a decimal with fewer digits may be read as it).
 * (`-0` counts as one: a lower bound.)
 */
export function minNumberLength(value: number): number {
  const sign = value < 0 ? 1 : 0;
  const magnitude = value < 0 ? -value : value;
  if (magnitude > Number.MAX_SAFE_INTEGER) return 3 + sign;
  const whole = Math.floor(magnitude);
  if (whole !== magnitude) return (whole === 0 ? 3 : integerDigits(whole) + 2) + sign;
  const digits = integerDigits(magnitude);
  return (digits <= 3 || magnitude % 10 !== 0 ? digits : 3) + sign;
}

/** The decimal digits of a safe integer (`0` has one). */
function integerDigits(integer: number): number {
  let digits = 1;
  for (let power = 10; power <= integer; power *= 10) digits++;
  return digits;
}

/** {@link ParsedValueFacts.minTextLength} of a `true`, `false` or `null` (the only other primitives JSON.parse makes). */
function literalLength(value: unknown): number {
  return value === false ? 5 : 4;
}

/**
 * Keys and strings in a container at `depth` (a frame per level: the caller keeps the depth limit within
 * {@link MAX_RECURSIVE_DEPTH}, and nothing below a container beyond the limit is visited).
 */
function countRecursively(container: object, depth: number, limits: PipelineLimits, facts: WalkedFacts): number {
  if (depth > limits.maxDepth) {
    facts.tooDeep = facts.readerDiffers = true;
    return 0;
  }
  let count = 0;
  // The brackets, and one comma fewer than members (added back below for an empty container).
  let length = 1;
  if (Array.isArray(container)) {
    if (container.length > limits.maxArrayItems) facts.readerDiffers = true;
    for (let index = 0; index < container.length; index++) {
      const item: unknown = container[index];
      length++;
      if (typeof item === 'string') {
        count++;
        length += item.length + 2;
      } else if (typeof item === 'number') {
        if (beyondSafeInteger(item)) facts.unsafeNumber = true;
        length += minNumberLength(item);
      } else if (typeof item === 'object' && item !== null) count += countRecursively(item, depth + 1, limits, facts);
      else length += literalLength(item);
    }
    facts.minTextLength += container.length === 0 ? length + 1 : length;
    return count;
  }
  let members = 0;
  for (const key in container) {
    if (!hasOwnProperty.call(container, key)) continue;
    count++;
    facts.keys++;
    members++;
    // A comma, the key's quotes and colon, the key.
    length += key.length + 4;
    if (DANGEROUS_KEYS.has(key)) facts.readerDiffers = true;
    const item = (container as Record<string, unknown>)[key];
    if (typeof item === 'string') {
      count++;
      length += item.length + 2;
    } else if (typeof item === 'number') {
      if (beyondSafeInteger(item)) facts.unsafeNumber = true;
      length += minNumberLength(item);
    } else if (typeof item === 'object' && item !== null) count += countRecursively(item, depth + 1, limits, facts);
    else length += literalLength(item);
  }
  facts.minTextLength += members === 0 ? length + 1 : length;
  return count;
}

/** {@link inspectParsedValue} with an explicit stack, for depth limits beyond {@link MAX_RECURSIVE_DEPTH}. */
function inspectIteratively(value: object, limits: PipelineLimits): ParsedValueFacts {
  let keys = 0;
  let strings = 0;
  let unsafeNumber = false;
  let minTextLength = 0;
  let tooDeep = false;
  let readerDiffers = false;
  const values: object[] = [value];
  const depths: number[] = [1];
  /** One array item or member value of a container at `depth`: counted, or stacked when it is a container. */
  const member = (item: unknown, depth: number) => {
    if (typeof item === 'string') {
      strings++;
      minTextLength += item.length + 2;
    } else if (typeof item === 'number') {
      if (beyondSafeInteger(item)) unsafeNumber = true;
      minTextLength += minNumberLength(item);
    } else if (typeof item === 'object' && item !== null) {
      values.push(item);
      depths.push(depth + 1);
    } else minTextLength += literalLength(item);
  };
  while (values.length > 0) {
    const current = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limits.maxDepth) {
      tooDeep = readerDiffers = true;
      continue;
    }
    // The brackets, and one comma fewer than members (added back for an empty container).
    let members = 0;
    minTextLength += 1;
    if (Array.isArray(current)) {
      if (current.length > limits.maxArrayItems) readerDiffers = true;
      for (let index = 0; index < current.length; index++) {
        members++;
        minTextLength++;
        member(current[index], depth);
      }
      if (members === 0) minTextLength++;
      continue;
    }
    for (const key in current) {
      if (!hasOwnProperty.call(current, key)) continue;
      keys++;
      members++;
      minTextLength += key.length + 4;
      if (DANGEROUS_KEYS.has(key)) readerDiffers = true;
      member((current as Record<string, unknown>)[key], depth);
    }
    if (members === 0) minTextLength++;
  }
  return { keys, strings, unsafeNumber, minTextLength, tooDeep, readerDiffers };
}

/**
 * The general check, from the walk's facts:
 * - an integer literal the exact reader keeps as digits (more than 15 digits, not exactly a double) parses to a number
 *   beyond +-(2^53 - 1) or to an infinity, so a value without such a number lost none (a long fraction reads the same
 *   both ways);
 * - in text without a backslash every string literal is as long as its string plus its quotes, so the text is at least
 *   {@link ParsedValueFacts.minTextLength} long, and at least {@link DROPPED_MEMBER_LENGTH} longer when JSON.parse
 *   dropped a key (the dropped member's comma, quotes, colon and value are in the text and not in the value): text
 *   shorter than that lost nothing (compact JSON, as most providers send it, is decided without reading it);
 * - otherwise, in text without a backslash every `"` opens or closes a string, so the text holds twice as many `"` as
 *   the value holds keys and strings exactly when JSON.parse dropped no key (a dropped key takes its strings with it);
 * - text with a backslash has its keys counted by the text scan.
 * Where the exact reader would treat the text differently anyway ({@link ParsedValueFacts.readerDiffers}), the text
 * scan decides, as before.
 */
export function mayLoseInformation(text: string, parsed: unknown, facts: ParsedValueFacts): boolean {
  if (facts.readerDiffers) return mayLoseInformationByScan(text, parsed);
  if (facts.unsafeNumber) return true;
  if (facts.keys === 0) return false;
  if (text.indexOf('\\') === -1) {
    if (text.length < facts.minTextLength + DROPPED_MEMBER_LENGTH) return false;
    return countQuotes(text) !== 2 * (facts.keys + facts.strings);
  }
  return countKeysInText(text, false) !== facts.keys;
}

/** The fewest characters a member JSON.parse dropped leaves in the text: `,"":0`. */
export const DROPPED_MEMBER_LENGTH = 5;

/** The `"` in a text. */
export function countQuotes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count++;
  return count;
}

/**
 * The check as it was before it was made cheap (the reference form), kept for the cases above and as the tests' reference: one linear pass over the
 * text counts its keys (and finds runs of more than 15 digits outside strings), compared with the parsed value's keys.
 */
export function mayLoseInformationByScan(text: string, parsed: unknown): boolean {
  const keys = countKeysInText(text, true);
  return keys === -1 || (keys > 0 && countKeys(parsed) !== keys);
}

/** The keys in JSON text; -1 when `stopAtLongDigitRun` and a run of more than 15 digits lies outside strings. */
function countKeysInText(text: string, stopAtLongDigitRun: boolean): number {
  let keys = 0;
  let digits = 0;
  const length = text.length;
  let index = 0;
  while (index < length) {
    // Between strings: a run of more than 15 digits is an integer a double may not hold.
    const quote = text.indexOf('"', index);
    const end = quote === -1 ? length : quote;
    if (stopAtLongDigitRun) {
      for (; index < end; index++) {
        const code = text.charCodeAt(index);
        if (code >= 48 && code <= 57) {
          if (++digits > MAX_EXACT_INTEGER_DIGITS) return -1;
        } else digits = 0;
      }
    }
    if (quote === -1) break;
    digits = 0;
    const closing = stringEnd(text, quote, 34);
    if (closing === -1) break;
    let after = closing + 1;
    while (after < length && isJsonWhitespace(text.charCodeAt(after))) after++;
    if (text.charCodeAt(after) === 58) keys++;
    index = closing + 1;
  }
  return keys;
}

function countKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const item: unknown = current[index];
        if (typeof item === 'object' && item !== null) stack.push(item);
      }
      continue;
    }
    // `for...in` with an own-key check counts what `Object.keys` would, without allocating the key array.
    for (const key in current) {
      if (!hasOwnProperty.call(current, key)) continue;
      count++;
      const item = (current as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
  return count;
}
