/**
 * Calendar arithmetic on plain dates and wall-clock times, and their conversion to and from instants in an IANA time
 * zone with Intl (Node ships full ICU). Nothing here reads the host's time zone: civil dates are computed in UTC
 * fields, zones go through `Intl.DateTimeFormat`.
 */

/** A calendar date with no time zone (`month` 1-12). */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** A wall-clock date and time with no time zone. */
export interface WallTime extends CivilDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

/** Day of the week as `Date#getDay` numbers it: 0 = Sunday ... 6 = Saturday. */
export type WeekdayNumber = 0 | 1 | 2 | 3 | 4 | 5 | 6;

const MILLISECONDS_PER_MINUTE = 60_000;
const MILLISECONDS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch of a wall time read as if it were UTC (years 0-99 are not shifted to 19xx). */
export function wallTimeAsUtc(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}

/** The wall time whose UTC reading is `epochMs` (the inverse of `wallTimeAsUtc`). */
export function wallTimeFromUtc(epochMs: number): WallTime {
  const date = new Date(epochMs);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
}

export function startOfDay(date: CivilDate): WallTime {
  return { year: date.year, month: date.month, day: date.day, hour: 0, minute: 0, second: 0, millisecond: 0 };
}

export function civilDateOf(wall: CivilDate): CivilDate {
  return { year: wall.year, month: wall.month, day: wall.day };
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return civilDateOf(wallTimeFromUtc(wallTimeAsUtc(startOfDay(date)) + days * MILLISECONDS_PER_DAY));
}

/** Adds calendar months; the day is clamped to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** Days in a month (`month` 1-12) of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Whether year-month-day names a day that exists (`2026-02-30` does not). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function weekdayOf(date: CivilDate): WeekdayNumber {
  return new Date(wallTimeAsUtc(startOfDay(date))).getUTCDay() as WeekdayNumber;
}

/** Negative when `a` is before `b`, zero on the same day, positive after. */
export function compareCivilDates(a: CivilDate, b: CivilDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** `YYYY-MM-DD`. */
export function formatCivilDate(date: CivilDate): string {
  return `${formatYear(date.year)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The zone's canonical name as Intl reports it (`europe/berlin` -> `Europe/Berlin`), or `undefined` when the runtime
 * does not know the zone.
 */
export function canonicalTimeZone(timeZone: string): string | undefined {
  if (timeZone.trim() === '') return undefined;
  try {
    return formatterFor(timeZone).resolvedOptions().timeZone;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The wall time in `timeZone` at an instant. */
export function wallTimeAt(epochMs: number, timeZone: string): WallTime {
  const fields: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) fields[part.type] = part.value;
  const yearOfEra = Number(fields['year']);
  return {
    year: fields['era'] === 'BC' ? 1 - yearOfEra : yearOfEra,
    month: Number(fields['month']),
    day: Number(fields['day']),
    hour: Number(fields['hour']),
    minute: Number(fields['minute']),
    second: Number(fields['second']),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
}

/** The zone's UTC offset at an instant, in minutes (`+120` for CEST, `-300` for EST). */
export function offsetMinutesAt(epochMs: number, timeZone: string): number {
  return Math.round((wallTimeAsUtc(wallTimeAt(epochMs, timeZone)) - epochMs) / MILLISECONDS_PER_MINUTE);
}

/**
 * The instant a wall time denotes in a zone. DST rules (Temporal's `compatible` disambiguation):
 * - a wall time that occurs twice (the autumn fall-back hour) resolves to the earlier of the two instants,
 *   e.g. 01:30 on 2026-11-01 in America/New_York is 01:30-04:00 (EDT), not 01:30-05:00;
 * - a wall time that does not exist (the spring-forward gap) moves forward by the gap's length,
 *   e.g. 02:30 on 2026-03-29 in Europe/Berlin is 03:30+02:00.
 * Assumes at most one offset change within a day of the wall time, which holds for every IANA zone.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): number {
  const wallMs = wallTimeAsUtc(wall);
  const offsetBefore = offsetMinutesAt(wallMs - MILLISECONDS_PER_DAY, timeZone);
  const offsetAfter = offsetMinutesAt(wallMs + MILLISECONDS_PER_DAY, timeZone);
  const candidates = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => wallMs - offset * MILLISECONDS_PER_MINUTE)
    .filter((instant) => wallTimeAsUtc(wallTimeAt(instant, timeZone)) === wallMs)
    .sort((a, b) => a - b);
  return candidates[0] ?? wallMs - offsetBefore * MILLISECONDS_PER_MINUTE;
}

/** ISO-8601 with the zone's offset at that instant: `2026-03-29T09:00:00+02:00` (milliseconds only when not zero). */
export function formatInstant(epochMs: number, timeZone: string): string {
  const wall = wallTimeAt(epochMs, timeZone);
  const time = `${pad(wall.hour, 2)}:${pad(wall.minute, 2)}:${pad(wall.second, 2)}`;
  const fraction = wall.millisecond === 0 ? '' : `.${pad(wall.millisecond, 3)}`;
  return `${formatCivilDate(wall)}T${time}${fraction}${formatOffset(offsetMinutesAt(epochMs, timeZone))}`;
}

/** `+02:00`, `-05:00`, `+05:45`; UTC is `+00:00`. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${pad(Math.floor(absolute / 60), 2)}:${pad(absolute % 60, 2)}`;
}

function formatYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
}

function pad(value: number, length: number): string {
  return String(value).padStart(length, '0');
}
