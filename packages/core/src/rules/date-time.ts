import {
  canonicalTimeZone,
  daysInMonth,
  formatOffset,
  instantOfWallTime,
  isCalendarDate,
  wallTimeAsUtc,
} from '../time/calendar';
import { DATE_FORM, looksRelative } from './date';
import { CHANGED, KEEP, REFUSED, invalid, refuse, valid, type LabelledValue, type RuleOutcome } from './outcome';

/**
 * The date-time kind (RFC 3339 with a UTC offset, JSON Schema `format: date-time`): its one grammar, its canonical
 * test, its repairs, its words for the model, its JSON Schema and its edge cases. Every engine reads it from here: the
 * normalizer (`toDateTime`), the shared walk and the hot tier (`isCanonicalDateTime`), the reference path, the
 * output-schema check and the schema conformance check (`isOffsetDateTime`).
 *
 * The ranges, in every form: month 01-12, a day that exists in its month (29 February only in a leap year), hours to
 * 23, minutes and seconds to 59, an offset from -23:59 to +23:59. Second 60 (a leap second, `23:59:60`) is refused
 * with its reason: a JavaScript `Date` cannot hold it, and mapping it to :59 or the next minute would change the value.
 */

/** Every form the rule reads: `T`, `t` or a space; seconds and fraction optional; `Z`, `z`, `+HH`, `+HHMM`, `+HH:MM`. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|([+-])(\d{2})(?::?(\d{2}))?)?$/;
/** RFC 3339's own form (what is kept as sent). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The canonical form as one expression without captures: RFC 3339, every field in range but the month's length
 * (which matters only for days 29 to 31), upper-case `T` and `Z`.
 *
 * A char-code scanner gives the same answers and was measured against it (the fast validators' decision record, addendum): never reliably
 * faster on a valid date-time (V8's `charCodeAt` dispatches on the string's representation per character, irregexp's
 * native loop does not), only on refusals, which the normalizer then handles at far greater cost. So the expression
 * stays.
 */
const CANONICAL_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Two ASCII digits at `at` as a number (the caller has matched them). */
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
}

/** The canonical test: already RFC 3339, on a day and at a time that exist, with an offset in range. */
export function isCanonicalDateTime(text: string): boolean {
  if (!CANONICAL_DATE_TIME.test(text)) return false;
  const day = twoDigits(text, 8);
  return day <= 28 || day <= daysInMonth(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5));
}

/** Why a time of day or an offset is out of range, or `undefined` when both are in range (shared with `time`). */
export function timeOfDayProblem(
  hour: number,
  minute: number,
  second: number,
  offsetHours: number,
  offsetMinutes: number,
): string | undefined {
  if (second === 60 && hour <= 23 && minute <= 59)
    return 'second 60 is a leap second, which a date-time value cannot hold; send :59 or the next minute';
  if (hour > 23 || minute > 59 || second > 59) return 'it is not a valid time of day';
  if (offsetHours > 23 || offsetMinutes > 59) return 'its UTC offset is out of range (-23:59 to +23:59)';
  return undefined;
}

/** The fields of a date-time in any form the rule reads, or `undefined`. */
interface DateTimeFields {
  readonly year: string;
  readonly month: string;
  readonly day: string;
  readonly hour: string;
  readonly minute: string;
  readonly second: string;
  readonly fraction: string;
  /** `undefined` (none), `Z`/`z`, or `+HH`, `+HHMM`, `+HH:MM`. */
  readonly offset: string | undefined;
  readonly offsetSign: string | undefined;
  readonly offsetHours: string | undefined;
  readonly offsetMinutes: string | undefined;
}

function readFields(text: string): DateTimeFields | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [
    ,
    year,
    month,
    day,
    hour,
    minute,
    second = '00',
    fraction = '',
    offset,
    offsetSign,
    offsetHours,
    offsetMinutes = '00',
  ] = match;
  return {
    year: year!,
    month: month!,
    day: day!,
    hour: hour!,
    minute: minute!,
    second,
    fraction,
    offset,
    offsetSign,
    offsetHours,
    offsetMinutes: offset === undefined || offsetSign === undefined ? undefined : offsetMinutes,
  };
}

/** Why the fields do not name an instant that exists, or `undefined`. */
function fieldsProblem(fields: DateTimeFields): string | undefined {
  if (!isCalendarDate(Number(fields.year), Number(fields.month), Number(fields.day)))
    return 'it is not a calendar date';
  return timeOfDayProblem(
    Number(fields.hour),
    Number(fields.minute),
    Number(fields.second),
    Number(fields.offsetHours ?? 0),
    Number(fields.offsetMinutes ?? 0),
  );
}

/**
 * A date-time in a form the rule reads, in range, with a UTC offset: what a value of the kind must be where no
 * repair runs (a documented default, a union variant checked by conformance, the reference path's decorator).
 */
export function isOffsetDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const fields = readFields(value);
  return fields !== undefined && fields.offset !== undefined && fieldsProblem(fields) === undefined;
}

export interface DateTimeOptions {
  /** Reformat lossless variants (space separator, lower-case z, missing seconds, `+0100`). */
  readonly reformat: boolean;
  /** Attach this IANA zone's offset to a date-time given without one. */
  readonly timeZone?: string;
}

/**
 * The repairs: surrounding white space trimmed (`trimmed-whitespace`); a lossless variant reformatted to RFC 3339
 * (`datetime-format`); a date-time without an offset given the context's time zone (`datetime-context-time-zone`).
 * Everything out of range is refused with its reason; a relative phrase is refused with a hint.
 */
export function toDateTime(value: unknown, options: DateTimeOptions): RuleOutcome {
  if (typeof value !== 'string') return REFUSED;
  if (isCanonicalDateTime(value)) return KEEP(value);
  const text = options.reformat ? value.trim() : value;
  const fields = readFields(text);
  if (fields === undefined) {
    if (DATE_FORM.test(text))
      return refuse('it is a date without a time of day; send a date-time such as 2026-01-31T09:00:00+01:00');
    if (looksRelative(text)) return refuse('it is a relative phrase, not a date-time', true);
    return REFUSED;
  }
  const problem = fieldsProblem(fields);
  if (problem !== undefined) return refuse(problem);
  const { year, month, day, hour, minute, second, fraction, offset } = fields;
  if (offset === undefined) {
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
  const canonicalOffset =
    offset === 'Z' || offset === 'z' ? 'Z' : `${fields.offsetSign}${fields.offsetHours}:${fields.offsetMinutes}`;
  return CHANGED(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${canonicalOffset}`, 'datetime-format');
}

/** What the model is told, and an example that satisfies the rule. */
export const DATE_TIME_DESCRIPTION = 'an ISO-8601 date-time with a UTC offset';
export const DATE_TIME_EXAMPLE = '2026-01-31T09:00:00+01:00';

/** JSON Schema export and provider lowering: a string with `format: date-time` (every provider takes the format). */
export const DATE_TIME_JSON_SCHEMA = { type: 'string', format: 'date-time' } as const;

/** An offset as text, from signed minutes (`-24:00` .. `+99:99` are all produced, `+HH:MM` fields may exceed 59). */
function offsetText(sign: '+' | '-', hours: number, minutes: number): string {
  return `${sign}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/**
 * The kind's edge cases, labelled as `strict` sees them (valid: kept as sent): offsets from -24:00 to +99:99, second
 * 60, 29-31 February, fractions of 1 to 10 digits, the lexical variants only `safe` repairs, and forms that are not
 * date-times.
 */
export function dateTimeEdgeCases(): LabelledValue[] {
  const cases: LabelledValue[] = [];
  for (const sign of ['+', '-'] as const)
    for (const hours of [0, 1, 12, 14, 23, 24, 59, 99])
      for (const minutes of [0, 30, 59, 60, 99]) {
        const offset = offsetText(sign, hours, minutes);
        const inRange = hours <= 23 && minutes <= 59;
        cases.push({ value: `2026-01-01T09:00:00${offset}`, valid: inRange, note: `offset ${offset}` });
      }
  for (const [year, leap] of [
    [2024, true],
    [2026, false],
    [2000, true],
    [2100, false],
  ] as const)
    for (const day of [28, 29, 30, 31])
      cases.push({
        value: `${year}-02-${day}T12:00:00Z`,
        valid: day === 28 || (day === 29 && leap),
        note: `February ${day}, ${leap ? 'leap' : 'common'} year`,
      });
  cases.push(
    valid('2026-01-01T23:59:59Z', 'second 59'),
    invalid('2026-12-31T23:59:60Z', 'second 60 (a leap second)'),
    invalid('2026-01-01T09:00:61Z', 'second 61'),
    invalid('2026-01-01T24:00:00Z', 'hour 24'),
    invalid('2026-01-01T09:60:00Z', 'minute 60'),
    valid('2026-01-01T00:00:00Z', 'midnight'),
    valid('2026-01-01T09:00:00.5Z', 'a one-digit fraction'),
    valid('2026-01-01T09:00:00.123456789+05:30', 'a nine-digit fraction'),
    invalid('2026-01-01T09:00:00.1234567891Z', 'a ten-digit fraction'),
    invalid('2026-01-01T09:00:00.Z', 'an empty fraction'),
    invalid('2026-01-01t09:00:00z', 'lower-case t and z (safe reformats)'),
    invalid('2026-01-01 09:00:00Z', 'a space separator (safe reformats)'),
    invalid('2026-01-01T09:00Z', 'no seconds (safe reformats)'),
    invalid('2026-01-01T09:00:00+0100', 'an offset without a colon (safe reformats)'),
    invalid('2026-01-01T09:00:00+01', 'an offset of hours only (safe reformats)'),
    invalid('2026-01-01T09:00:00', 'no offset'),
    invalid('2026-01-01', 'a date alone'),
    invalid(' 2026-01-01T09:00:00Z', 'leading white space (safe trims)'),
    invalid('2026-01-01T09:00:00Z\u200B', 'a trailing zero-width space'),
    invalid('2026-01-01T09:00:00\uFF3A', 'a fullwidth Z'),
    invalid('2026-01-01T09:00:00-00:00\n', 'a trailing newline'),
    valid('2026-01-01T09:00:00-00:00', 'offset -00:00'),
    invalid('2026-1-01T09:00:00Z', 'a one-digit month'),
    invalid('tomorrow at 9', 'a relative phrase'),
    invalid(1767258000000, 'epoch milliseconds'),
  );
  return cases;
}
