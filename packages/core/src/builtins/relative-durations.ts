import { addDays, addMonths, civilDateOf, instantOfWallTime, wallTimeAt, type CivilDate } from '../time/calendar';

/**
 * A signed duration read from a phrase such as "in 1 day and 2 hours" or "3 weeks ago". Calendar units (years,
 * quarters, months, weeks, days) move the calendar; clock units (hours, minutes, seconds) are elapsed time.
 */
export interface PhraseDuration {
  /** Calendar months (years x 12, quarters x 3). */
  readonly months: number;
  /** Calendar days (weeks x 7). */
  readonly days: number;
  /** Elapsed milliseconds. */
  readonly milliseconds: number;
}

type Unit = { readonly months: number } | { readonly days: number } | { readonly milliseconds: number };

const UNITS: Readonly<Record<string, Unit>> = {
  y: { months: 12 },
  yr: { months: 12 },
  yrs: { months: 12 },
  year: { months: 12 },
  years: { months: 12 },
  qtr: { months: 3 },
  qtrs: { months: 3 },
  quarter: { months: 3 },
  quarters: { months: 3 },
  mo: { months: 1 },
  mos: { months: 1 },
  month: { months: 1 },
  months: { months: 1 },
  w: { days: 7 },
  wk: { days: 7 },
  wks: { days: 7 },
  week: { days: 7 },
  weeks: { days: 7 },
  d: { days: 1 },
  day: { days: 1 },
  days: { days: 1 },
  h: { milliseconds: 3_600_000 },
  hr: { milliseconds: 3_600_000 },
  hrs: { milliseconds: 3_600_000 },
  hour: { milliseconds: 3_600_000 },
  hours: { milliseconds: 3_600_000 },
  m: { milliseconds: 60_000 },
  min: { milliseconds: 60_000 },
  mins: { milliseconds: 60_000 },
  minute: { milliseconds: 60_000 },
  minutes: { milliseconds: 60_000 },
  s: { milliseconds: 1000 },
  sec: { milliseconds: 1000 },
  secs: { milliseconds: 1000 },
  second: { milliseconds: 1000 },
  seconds: { milliseconds: 1000 },
};

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  'half a': 0.5,
  'half an': 0.5,
  half: 0.5,
  'a couple of': 2,
  'couple of': 2,
  'a couple': 2,
};

const longestFirst = (words: readonly string[]): string =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/ /g, '\\s+'))
    .join('|');

const UNIT = `(?:${longestFirst(Object.keys(UNITS))})(?!\\p{L})`;
const DIGITS = '(?<![\\p{N}.])\\d+(?:\\.\\d+)?';
/** A number word must stand alone: the "an" of "and" is not a number. */
const WORDS = `(?<!\\p{L})(?:${longestFirst(Object.keys(NUMBER_WORDS))})`;
const PAIR = `(?:${DIGITS}\\s*|${WORDS}\\s+)${UNIT}`;
const PAIR_REGEX = new RegExp(`(?:(${DIGITS})\\s*|(${WORDS})\\s+)(${UNIT})`, 'giu');

/** The whole text must be a duration: `in 2 hours`, `3 days ago`, `next hour`, `+2d`, `in about 1 day and 2 hours`. */
const DURATION_PHRASE = new RegExp(
  '^(?:(?:in|within|after)\\s+)?' +
    '(?:(next|last|past|previous|\\+|-)\\s*)?' +
    '(?:(?:about|around|roughly|approximately|just)\\s+)?' +
    `(${PAIR}(?:\\s*,?\\s*(?:and\\s+)?${PAIR})*|${UNIT})` +
    '(?:\\s+(ago|earlier|before\\s+now|later|from\\s+now|after\\s+now|hence))?$',
  'iu',
);

/**
 * Reads the duration of a relative phrase chrono recognized (`result.text`), or `undefined` when the text is not a
 * plain duration from now (then chrono's own result stands). A calendar amount with a fraction ("1.5 days") is not
 * read either: it has no exact calendar meaning.
 */
export function readPhraseDuration(text: string): PhraseDuration | undefined {
  const match = DURATION_PHRASE.exec(text.trim());
  if (!match) return undefined;
  const [, direction, amounts = '', suffix] = match;
  const negative = /^(?:last|past|previous|-)$/i.test(direction ?? '') || /^(?:ago|earlier|before)/i.test(suffix ?? '');
  let months = 0;
  let days = 0;
  let milliseconds = 0;
  const pairs = [...amounts.matchAll(PAIR_REGEX)];
  const terms: Array<[number, Unit]> =
    pairs.length > 0
      ? pairs.map(([, digits, words = '', unit = '']) => [
          numberOf(digits ?? words),
          UNITS[unit.toLowerCase()] ?? { days: Number.NaN },
        ])
      : direction !== undefined
        ? [[1, UNITS[amounts.toLowerCase()] ?? { days: Number.NaN }]]
        : [];
  if (terms.length === 0) return undefined;
  for (const [amount, unit] of terms) {
    if ('milliseconds' in unit) {
      milliseconds += Math.round(amount * unit.milliseconds);
    } else {
      const calendarAmount = amount * ('months' in unit ? unit.months : unit.days);
      if (!Number.isInteger(calendarAmount)) return undefined;
      if ('months' in unit) months += calendarAmount;
      else days += calendarAmount;
    }
  }
  const signed = (value: number): number => (negative && value !== 0 ? -value : value);
  return { months: signed(months), days: signed(days), milliseconds: signed(milliseconds) };
}

function numberOf(text: string): number {
  const word = text.toLowerCase().replace(/\s+/g, ' ');
  return NUMBER_WORDS[word] ?? Number(word);
}

/** The calendar date `duration` away from the instant's date in the zone (clock units ignored). */
export function dateAfter(epochMs: number, duration: PhraseDuration, timeZone: string): CivilDate {
  return addDays(addMonths(civilDateOf(wallTimeAt(epochMs, timeZone)), duration.months), duration.days);
}

/**
 * The instant `duration` after `epochMs`: calendar units move the wall date in the zone (keeping the time of day),
 * then clock units add elapsed time. "in 2 hours" across a DST change is 2 real hours later; "in 1 day" is the same
 * wall time the next day (23 or 25 hours later across a change); Jan 31 + 1 month is the last day of February.
 */
export function instantAfter(epochMs: number, duration: PhraseDuration, timeZone: string): number {
  if (duration.months === 0 && duration.days === 0) return epochMs + duration.milliseconds;
  const wall = wallTimeAt(epochMs, timeZone);
  const date = dateAfter(epochMs, duration, timeZone);
  return instantOfWallTime({ ...wall, ...date }, timeZone) + duration.milliseconds;
}
