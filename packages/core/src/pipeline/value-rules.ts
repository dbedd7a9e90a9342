import { isUnsafeIntegerLiteral } from './unsafe-integer';
import {
  canonicalTimeZone,
  daysInMonth,
  formatOffset,
  instantOfWallTime,
  isCalendarDate,
  wallTimeAsUtc,
} from '../time/calendar';

/**
 * The scalar normalization rules of DESIGN section 4, each a pure function. A rule returns the value
 * unchanged, a recovered value with the rule's name, or a refusal with the reason. None invents a value.
 */
export type RuleOutcome =
  | { readonly ok: true; readonly value: unknown; readonly rule?: string }
  | { readonly ok: false; readonly reason?: string; readonly relative?: boolean };

const KEEP = (value: unknown): RuleOutcome => ({ ok: true, value });
const CHANGED = (value: unknown, rule: string): RuleOutcome => ({ ok: true, value, rule });
const REFUSED: RuleOutcome = { ok: false };
const refuse = (reason: string, relative = false): RuleOutcome => ({ ok: false, reason, relative });

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INTEGER_FORM = /^-?\d+$/;
const BEYOND_2_53 =
  'it is beyond 2^53 - 1 and no JavaScript number holds it exactly; send it as a string if the tool takes text, or a smaller number';

/**
 * Number text in JSON's grammar after the lossless clean-ups (surrounding white space, one leading plus), or the
 * reason it is refused: every other form (a thousands separator, a currency, a unit) needs a guess.
 */
export function readNumberText(value: string): { readonly text: string } | { readonly reason?: string } {
  let text = value.trim();
  if (text.startsWith('+') && !text.startsWith('+-') && !text.startsWith('++')) text = text.slice(1);
  if (JSON_NUMBER.test(text)) return { text };
  if (/^[+-]?(nan|inf|infinity)$/i.test(text))
    return { reason: 'NaN and Infinity are not numbers a tool can use; send a finite number' };
  if (/^[+-]?0[xob][0-9a-f_]+$/i.test(text))
    return { reason: 'it has a radix prefix (0x, 0o, 0b); send the number in decimal digits' };
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text))
    return {
      reason:
        'it has a thousands separator, which could also be a decimal comma; send digits only, with a dot for decimals',
    };
  if (/^[+-]?\d+,\d+$/.test(text))
    return {
      reason:
        'it has a decimal comma, which could also be a thousands separator; send digits only, with a dot for decimals',
    };
  // A currency sign ($, € \u20ac, £ \u00a3, ¥ \u00a5: escapes, so core's bundle stays ASCII, decision 0027) or code.
  if (
    /^[+-]?[$\u20ac\u00a3\u00a5]\s*[\d.,]+$|^[+-]?[\d.,]+\s*[$\u20ac\u00a3\u00a5%]$|^[+-]?[\d.,]+\s*[A-Z]{3}$/.test(
      text,
    )
  )
    return { reason: 'it has a currency or percent sign; send the bare number in the unit the parameter describes' };
  return {};
}

export function toInteger(value: unknown, coerce: boolean): RuleOutcome {
  if (isUnsafeIntegerLiteral(value)) return refuse(BEYOND_2_53);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return Number.isFinite(value) ? refuse('it has a fractional part') : REFUSED;
    if (!Number.isSafeInteger(value)) return refuse('it is larger than 2^53 - 1 and cannot be represented exactly');
    return KEEP(value);
  }
  if (coerce && typeof value === 'string') {
    const read = readNumberText(value);
    if (!('text' in read)) return read.reason ? refuse(read.reason) : REFUSED;
    const number = Number(read.text);
    if (INTEGER_FORM.test(read.text) && !Number.isSafeInteger(number)) return refuse(BEYOND_2_53);
    if (!Number.isInteger(number))
      return Number.isFinite(number) ? refuse('it has a fractional part') : refuse('it is out of range');
    if (!Number.isSafeInteger(number)) return refuse('it is larger than 2^53 - 1 and cannot be represented exactly');
    return CHANGED(number === 0 ? 0 : number, 'string-to-integer');
  }
  return REFUSED;
}

export function toFloat(value: unknown, coerce: boolean): RuleOutcome {
  if (isUnsafeIntegerLiteral(value)) return refuse(BEYOND_2_53);
  if (typeof value === 'number') return Number.isFinite(value) ? KEEP(value) : REFUSED;
  if (coerce && typeof value === 'string') {
    const read = readNumberText(value);
    if (!('text' in read)) return read.reason ? refuse(read.reason) : REFUSED;
    const number = Number(read.text);
    if (INTEGER_FORM.test(read.text) && !Number.isSafeInteger(number)) return refuse(BEYOND_2_53);
    return Number.isFinite(number) ? CHANGED(number, 'string-to-number') : refuse('it is out of range');
  }
  return REFUSED;
}

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

export function toBoolean(value: unknown, coerce: boolean): RuleOutcome {
  if (typeof value === 'boolean') return KEEP(value);
  if (!coerce) return REFUSED;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return CHANGED(true, 'string-to-boolean');
    if (FALSE_WORDS.has(word)) return CHANGED(false, 'string-to-boolean');
    return REFUSED;
  }
  if (value === 1) return CHANGED(true, 'number-to-boolean');
  if (value === 0) return CHANGED(false, 'number-to-boolean');
  return REFUSED;
}

export function toStringValue(value: unknown, coerce: boolean): RuleOutcome {
  if (typeof value === 'string') return KEEP(value);
  if (!coerce) return REFUSED;
  // An integer literal beyond 2^53 for a string parameter: its digits as sent (a 64-bit id), never a rounded number.
  if (isUnsafeIntegerLiteral(value)) return CHANGED(value.text, 'number-to-string');
  if (typeof value === 'number' && Number.isFinite(value)) return CHANGED(String(value), 'number-to-string');
  if (typeof value === 'boolean') return CHANGED(String(value), 'boolean-to-string');
  return REFUSED;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const RELATIVE_WORDS =
  /\b(today|tomorrow|yesterday|tonight|now|next|last|this|ago|in \d+|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|afternoon|evening|noon|midnight|hours?|minutes?|days?)\b/i;

export function looksRelative(text: string): boolean {
  return !/\d{4}-\d{2}-\d{2}/.test(text) && RELATIVE_WORDS.test(text);
}

/** Character codes `isCanonicalDate` reads. */
const HYPHEN = 0x2d;
const ZERO = 0x30;

/**
 * A date `toDate` keeps as it is: `YYYY-MM-DD` exactly (ASCII digits, no white space), on a day that exists. The same
 * answer as `DATE.exec` and `isCalendarDate` of its three numbers (kept as the reference in
 * `test/property/canonical-date-time.spec.ts`), as character codes: no match array, no `Number` of three slices.
 */
export function isCanonicalDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== HYPHEN || text.charCodeAt(7) !== HYPHEN) return false;
  const year1 = text.charCodeAt(0) - ZERO;
  const year2 = text.charCodeAt(1) - ZERO;
  const year3 = text.charCodeAt(2) - ZERO;
  const year4 = text.charCodeAt(3) - ZERO;
  const month1 = text.charCodeAt(5) - ZERO;
  const month2 = text.charCodeAt(6) - ZERO;
  const day1 = text.charCodeAt(8) - ZERO;
  const day2 = text.charCodeAt(9) - ZERO;
  if (
    year1 >>> 0 > 9 ||
    year2 >>> 0 > 9 ||
    year3 >>> 0 > 9 ||
    year4 >>> 0 > 9 ||
    month1 >>> 0 > 9 ||
    month2 >>> 0 > 9 ||
    day1 >>> 0 > 9 ||
    day2 >>> 0 > 9
  )
    return false;
  return isCalendarDate(((year1 * 10 + year2) * 10 + year3) * 10 + year4, month1 * 10 + month2, day1 * 10 + day2);
}

export function toDate(value: unknown): RuleOutcome {
  if (typeof value !== 'string') return REFUSED;
  const text = value.trim();
  const match = DATE.exec(text);
  if (match) {
    if (!isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])))
      return refuse('it is not a calendar date');
    return text === value ? KEEP(value) : CHANGED(text, 'trimmed-whitespace');
  }
  if (DATE_TIME.test(text))
    return refuse('it has a time of day; send only the date part as YYYY-MM-DD if that is what you mean');
  if (looksRelative(text)) return refuse('it is a relative phrase, not a date', true);
  return REFUSED;
}

export interface DateTimeOptions {
  /** Reformat lossless variants (space separator, lower-case z, missing seconds, `+0100`). */
  readonly reformat: boolean;
  /** Attach this IANA zone's offset to a date-time given without one. */
  readonly timeZone?: string;
}

/**
 * RFC 3339 as `isCanonicalDateTime` keeps it, every field in range: month 01-12, day 01-31, hours to 23, minutes and
 * seconds to 59, an optional fraction of 1 to 9 digits, then `Z` or an offset to 23:59 (upper-case `T` and `Z`).
 */
const CANONICAL_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Two ASCII digits at `at` as a number (the caller has matched them). */
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
}

/**
 * The common case, one regular expression without captures: already RFC 3339, on a day and at a time that exist. The
 * expression checks every range but the month's length, which matters only for days 29 to 31.
 *
 * A char-code scanner (the fixed positions, the fraction, the zone; no allocation) gives the same answers and was
 * measured against it (the fast validators' decision record, addendum): never reliably faster on a valid date-time (0.95x to 1.17x across
 * processes: V8's `charCodeAt` dispatches on the string's representation per character, irregexp's native loop does
 * not), only on refusals, which the normalizer then handles at far greater cost. So the expression stays.
 */
export function isCanonicalDateTime(text: string): boolean {
  if (!CANONICAL_DATE_TIME.test(text)) return false;
  const day = twoDigits(text, 8);
  return day <= 28 || day <= daysInMonth(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5));
}

export function toDateTime(value: unknown, options: DateTimeOptions): RuleOutcome {
  if (typeof value !== 'string') return REFUSED;
  if (isCanonicalDateTime(value)) return KEEP(value);
  const text = options.reformat ? value.trim() : value;
  const match = DATE_TIME.exec(text);
  if (!match) {
    if (DATE.test(text))
      return refuse('it is a date without a time of day; send a date-time such as 2026-01-31T09:00:00+01:00');
    if (looksRelative(text)) return refuse('it is a relative phrase, not a date-time', true);
    return REFUSED;
  }
  const [, year, month, day, hour, minute, second = '00', fraction = '', offset] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return refuse('it is not a calendar date');
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return refuse('it is not a valid time of day');
  if (!offset) {
    const zone = options.reformat && options.timeZone ? canonicalTimeZone(options.timeZone) : undefined;
    if (!zone) return refuse('it has no UTC offset; add one, e.g. "+01:00" or "Z"');
    const wall = {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      second: Number(second),
      millisecond: 0,
    };
    const offsetMinutes = Math.round((wallTimeAsUtc(wall) - instantOfWallTime(wall, zone)) / 60_000);
    const completed = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${formatOffset(offsetMinutes)}`;
    return CHANGED(completed, 'datetime-context-time-zone');
  }
  if (RFC3339.test(text)) return text === value ? KEEP(value) : CHANGED(text, 'trimmed-whitespace');
  if (!options.reformat) return refuse('it is not in RFC 3339 form (YYYY-MM-DDTHH:MM:SS+HH:MM)');
  const canonicalOffset = offset === 'Z' || offset === 'z' ? 'Z' : canonicalNumericOffset(offset);
  return CHANGED(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${canonicalOffset}`, 'datetime-format');
}

function canonicalNumericOffset(offset: string): string {
  const digits = offset.slice(1).replace(':', '');
  return `${offset[0]}${digits.slice(0, 2)}:${digits.length > 2 ? digits.slice(2, 4) : '00'}`;
}

/** Exact, else a unique case-insensitive (and trimmed) match among string values. */
export function matchEnum(value: unknown, allowed: readonly unknown[], coerce: boolean): RuleOutcome {
  for (const candidate of allowed) if (Object.is(candidate, value) || candidate === value) return KEEP(value);
  if (!coerce || typeof value !== 'string') return REFUSED;
  const wanted = value.trim().toLowerCase();
  const matches = allowed.filter((candidate) => typeof candidate === 'string' && candidate.toLowerCase() === wanted);
  return matches.length === 1 ? CHANGED(matches[0], 'enum-case') : REFUSED;
}
