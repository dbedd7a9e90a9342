import type { PipelineLimits } from './limits';

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

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Whether a key is one of sanitize's `DANGEROUS_KEYS`, as three comparisons: keys from JSON.parse are internalized
 * strings, so each is a pointer comparison, cheaper than a Set lookup (a unit test holds the two lists equal).
 */
export function isDangerousKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

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
    return { keys: 0, strings: 1, unsafeNumber: false, tooDeep: false, readerDiffers: false };
  if (typeof value === 'number') {
    const unsafeNumber = value > MAX_SAFE || value < -MAX_SAFE;
    return { keys: 0, strings: 0, unsafeNumber, tooDeep: false, readerDiffers: false };
  }
  if (typeof value !== 'object' || value === null)
    return { keys: 0, strings: 0, unsafeNumber: false, tooDeep: false, readerDiffers: false };
  if (limits.maxDepth > MAX_RECURSIVE_DEPTH) return inspectIteratively(value, limits);
  walkKeys = 0;
  walkFlags = 0;
  const keysAndStrings = countRecursively(value, 1, limits);
  return {
    keys: walkKeys,
    strings: keysAndStrings - walkKeys,
    unsafeNumber: (walkFlags & UNSAFE_NUMBER) !== 0,
    tooDeep: (walkFlags & TOO_DEEP) !== 0,
    readerDiffers: (walkFlags & READER_DIFFERS) !== 0,
  };
}

const UNSAFE_NUMBER = 1;
const TOO_DEEP = 2;
const READER_DIFFERS = 4;
/** What {@link countRecursively} found besides its count (it runs to completion before anything reads these). */
let walkKeys = 0;
let walkFlags = 0;

/**
 * Keys and strings in a container at `depth` (a frame per level: the caller keeps the depth limit within
 * {@link MAX_RECURSIVE_DEPTH}, and nothing below a container beyond the limit is visited).
 */
function countRecursively(container: object, depth: number, limits: PipelineLimits): number {
  if (depth > limits.maxDepth) {
    walkFlags |= TOO_DEEP | READER_DIFFERS;
    return 0;
  }
  let count = 0;
  if (Array.isArray(container)) {
    if (container.length > limits.maxArrayItems) walkFlags |= READER_DIFFERS;
    for (let index = 0; index < container.length; index++) {
      const item: unknown = container[index];
      if (typeof item === 'string') count++;
      else if (typeof item === 'number') {
        if (item > MAX_SAFE || item < -MAX_SAFE) walkFlags |= UNSAFE_NUMBER;
      } else if (typeof item === 'object' && item !== null) count += countRecursively(item, depth + 1, limits);
    }
    return count;
  }
  for (const key in container) {
    if (!hasOwnProperty.call(container, key)) continue;
    count++;
    walkKeys++;
    if (isDangerousKey(key)) walkFlags |= READER_DIFFERS;
    const item = (container as Record<string, unknown>)[key];
    if (typeof item === 'string') count++;
    else if (typeof item === 'number') {
      if (item > MAX_SAFE || item < -MAX_SAFE) walkFlags |= UNSAFE_NUMBER;
    } else if (typeof item === 'object' && item !== null) count += countRecursively(item, depth + 1, limits);
  }
  return count;
}

/** {@link inspectParsedValue} with an explicit stack, for depth limits beyond {@link MAX_RECURSIVE_DEPTH}. */
export function inspectIteratively(value: object, limits: PipelineLimits): ParsedValueFacts {
  let keys = 0;
  let strings = 0;
  let unsafeNumber = false;
  let tooDeep = false;
  let readerDiffers = false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limits.maxDepth) {
      tooDeep = readerDiffers = true;
      continue;
    }
    if (Array.isArray(current)) {
      if (current.length > limits.maxArrayItems) readerDiffers = true;
      for (let index = 0; index < current.length; index++) {
        const item: unknown = current[index];
        if (typeof item === 'string') strings++;
        else if (typeof item === 'number') {
          if (item > MAX_SAFE || item < -MAX_SAFE) unsafeNumber = true;
        } else if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      if (!hasOwnProperty.call(current, key)) continue;
      keys++;
      if (isDangerousKey(key)) readerDiffers = true;
      const item = (current as Record<string, unknown>)[key];
      if (typeof item === 'string') strings++;
      else if (typeof item === 'number') {
        if (item > MAX_SAFE || item < -MAX_SAFE) unsafeNumber = true;
      } else if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return { keys, strings, unsafeNumber, tooDeep, readerDiffers };
}

/**
 * The general check, from the walk's facts:
 * - an integer literal the exact reader keeps as digits (more than 15 digits, not exactly a double) parses to a number
 *   beyond +-(2^53 - 1) or to an infinity, so a value without such a number lost none (a long fraction reads the same
 *   both ways);
 * - in text without a backslash every `"` opens or closes a string, so the text holds twice as many `"` as the value
 *   holds keys and strings exactly when JSON.parse dropped no key (a dropped key takes its strings with it);
 * - text with a backslash has its keys counted by the text scan.
 * Where the exact reader would treat the text differently anyway ({@link ParsedValueFacts.readerDiffers}), the text
 * scan decides, as before.
 */
export function mayLoseInformation(text: string, parsed: unknown, facts: ParsedValueFacts): boolean {
  if (facts.readerDiffers) return mayLoseInformationByScan(text, parsed);
  if (facts.unsafeNumber) return true;
  if (facts.keys === 0) return false;
  if (text.indexOf('\\') === -1) return countQuotes(text) !== 2 * (facts.keys + facts.strings);
  return countKeysInText(text, false) !== facts.keys;
}

function countQuotes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count++;
  return count;
}

/**
 * The check as it was before issue 12, kept for the cases above and as the tests' reference: one linear pass over the
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
          if (++digits > 15) return -1;
        } else digits = 0;
      }
    }
    if (quote === -1) break;
    digits = 0;
    // The closing quote: the next one not escaped (an odd run of backslashes before it escapes it).
    let closing = text.indexOf('"', quote + 1);
    while (closing !== -1) {
      let backslashes = 0;
      while (closing - 1 - backslashes > quote && text.charCodeAt(closing - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      closing = text.indexOf('"', closing + 1);
    }
    if (closing === -1) break;
    let after = closing + 1;
    while (
      after < length &&
      (text.charCodeAt(after) === 32 ||
        text.charCodeAt(after) === 10 ||
        text.charCodeAt(after) === 13 ||
        text.charCodeAt(after) === 9)
    )
      after++;
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
