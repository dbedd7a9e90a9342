/**
 * The two string formats of the DTO, written once and used by the hand-written checks and, in the one-tool cases, as
 * ajv's formats (so ajv checks exactly what the hand-written check does; the real-apps cases give ajv ajv-formats').
 * Written for speed, as a careful hand-written validator would be: one non-capturing regular expression, then the
 * digits read by char code.
 */

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

const two = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** RFC 3339 date-time with a required UTC offset (seconds optional), on a day and at a time that exist. */
export function isOffsetDateTime(text: string): boolean {
  if (!DATE_TIME.test(text)) return false;
  const month = two(text, 5);
  const day = two(text, 8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(two(text, 0) * 100 + two(text, 2), month)) return false;
  if (two(text, 11) > 23 || two(text, 14) > 59) return false;
  if (text.charCodeAt(16) === 58 /* ':' */ && two(text, 17) > 59) return false;
  const end = text.length;
  if (text.charCodeAt(end - 1) !== 90 /* 'Z' */ && (two(text, end - 5) > 23 || two(text, end - 2) > 59)) return false;
  return true;
}

/** A pragmatic email check: local part, @, a dotted domain of letters, digits and hyphens. */
const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}
