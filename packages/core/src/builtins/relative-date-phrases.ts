import type { Parser, ParsingComponents, ParsingContext, ParsingResult, Refiner } from 'chrono-node';
import {
  addDays,
  addMonths,
  compareCivilDates,
  daysInMonth,
  wallTimeAsUtc,
  weekdayOf,
  type CivilDate,
  type WallTime,
  type WeekdayNumber,
} from '../time/calendar';

/**
 * The phrases toolwright resolves itself instead of leaving them to chrono-node, because chrono either does not handle
 * them, returns a single day where a period is meant, or computes them in the host's time zone. Every rule is relative
 * to the reference's date in the requested zone (`today`), never to the host clock.
 *
 * | phrase                                        | result                                                            |
 * |-----------------------------------------------|-------------------------------------------------------------------|
 * | `this week` / `next week` / `last week`       | range: the current / following / previous week                    |
 * | `this month` / `next month` / `last month`    | range: first day of the month to first day of the next (exclusive)|
 * | `this year` / `next year` / `last year`       | range: January 1st to January 1st of the next year (exclusive)    |
 * | `this weekend` / `next weekend` / `last weekend` | range: Saturday and Sunday (see below)                         |
 * | `next 7 days` / `past 2 weeks` / `past week`  | range: from today for N units / the N units before today          |
 * | `end of month`, `last day of next month`      | date: the period's last day                                       |
 * | `start of next week`, `first day of the year` | date: the period's first day                                      |
 * | `end of March`, `beginning of March 2027`     | date: that month's last / first day                               |
 * | `Monday`, `this Monday`, `next Monday`, ...    | date: see the weekday rules below                                 |
 *
 * Rules for the ambiguous cases (each has a test):
 * - weeks start on Monday (ISO 8601) unless `weekStartsOn: 'sunday'`; a week range runs from its first day to the same
 *   weekday seven days later (exclusive);
 * - a bare weekday, `this <weekday>` and `coming <weekday>` are the next such day, today included: "Monday" said on a
 *   Monday is today;
 * - `next <weekday>` and `<weekday> next week` are that day in the following week: "next Monday" said on a Monday is
 *   in 7 days, said on a Sunday (ISO weeks) it is tomorrow, said on a Wednesday it is in 5 days;
 * - `last <weekday>` is the most recent such day before today (1 to 7 days back); `<weekday> last week` is that day in
 *   the previous week; `<weekday> this week` is that day in the current week, even if it has passed;
 * - `this weekend` is the current weekend on Saturday and Sunday, otherwise the coming one; `next weekend` is the one
 *   after it and `last weekend` the one before it, whatever the week start;
 * - `next N days` starts today and lasts N days; `past N days` / `last N days` are the N days before today;
 *   `the past week` (month, year) is the week before today, while `last week` is the previous calendar week;
 * - a month without a year (`end of March`, `in March`, `March 3`) is its current or next occurrence: the current
 *   month (or today) is included, an earlier one means next year;
 * - a time without a date (`at 9am`, `noon`) is today if that time is still ahead, otherwise tomorrow.
 */

/** The day weeks start on. */
export type WeekStart = 'monday' | 'sunday';

/** What the phrase rules need to know about the reference, all in the requested time zone. */
export interface PhraseReference {
  /** The reference's date in the zone. */
  readonly today: CivilDate;
  /** The reference's wall time in the zone. */
  readonly now: WallTime;
  readonly weekStartsOn: WeekStart;
}

/** Tag on results whose `end` is the exclusive end of a period (the first day after it), not its last day. */
export const PERIOD_RANGE_TAG = 'toolwright/period-range';

/**
 * chrono-node's parsers and refiners that the rules above replace, by class name. chrono's `ENRelativeDateFormatParser`
 * stays for "next hour", "next day" and "next quarter"; on "next week" it matches the same text as the period rule, and
 * chrono's overlap removal keeps the first of two equally long results, which is ours because our parsers run first.
 */
export const REPLACED_CHRONO_PARSERS: readonly string[] = Object.freeze([
  'ENWeekdayParser',
  'ENEndOfCurrentMonthParser',
]);
export const REPLACED_CHRONO_REFINERS: readonly string[] = Object.freeze(['ENEndOfPeriodRefiner']);

const WEEKDAYS: Readonly<Record<string, WeekdayNumber>> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tues: 2,
  tue: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thurs: 4,
  thur: 4,
  thu: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};

const MONTHS: Readonly<Record<string, number>> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

const COUNT_WORDS: Readonly<Record<string, number>> = {
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
};

const alternation = (words: Readonly<Record<string, unknown>>): string =>
  Object.keys(words)
    .sort((a, b) => b.length - a.length)
    .join('|');

const BEFORE = '(?<![\\p{L}\\p{N}])';
const AFTER = '(?![\\p{L}\\p{N}])';
const WEEKDAY = `(${alternation(WEEKDAYS)})\\.?`;
const MONTH = `(${alternation(MONTHS)})\\.?`;
const THIS = 'this|current';
const NEXT = 'next|coming';
const LAST = 'last|previous';

/** `end of next month`, `the start of the week`, `last day of March 2027`. */
const BOUNDARY_PATTERN = new RegExp(
  `${BEFORE}(?:the\\s+)?(end|last\\s+day|start|beginning|first\\s+day)\\s+of\\s+` +
    `(?:(?:the\\s+)?(?:(${THIS}|${NEXT}|${LAST})\\s+)?(week|month|year)|(?:the\\s+month\\s+of\\s+)?${MONTH}(?:,?\\s+(\\d{4}))?)${AFTER}`,
  'iu',
);
/** `next week`, `this weekend`, `last month`, `the current year`. */
const PERIOD_PATTERN = new RegExp(`${BEFORE}(${THIS}|${NEXT}|${LAST})\\s+(week|weekend|month|year)${AFTER}`, 'iu');
/** `next 7 days`, `the past two weeks`, `last 3 months`, `the past week`. */
const COUNT_PATTERN = new RegExp(
  `${BEFORE}(?:the\\s+)?(?:(next|coming|following|past|last|previous)\\s+(\\d{1,3}|${alternation(COUNT_WORDS)})|(past))\\s+(days?|weeks?|months?|years?)${AFTER}`,
  'iu',
);
/** `Monday`, `on next Friday`, `Tuesday next week`, `last Sun.`. */
const WEEKDAY_PATTERN = new RegExp(
  `${BEFORE}(?:on\\s+)?(?:(this|coming|next|last|previous|past)\\s+)?${WEEKDAY}(?:\\s+(?:of\\s+)?(this|next|last|previous)\\s+week)?${AFTER}`,
  'iu',
);

/** -1, 0 or +1 for a modifier word (`last`, `this`, `next` and their synonyms). */
function periodOffset(modifier: string | undefined): number {
  const word = (modifier ?? 'this').toLowerCase();
  if (/^(?:next|coming|following)$/.test(word)) return 1;
  if (/^(?:last|previous|past)$/.test(word)) return -1;
  return 0;
}

export function startOfWeek(date: CivilDate, weekStartsOn: WeekStart): CivilDate {
  const firstWeekday = weekStartsOn === 'monday' ? 1 : 0;
  return addDays(date, -((weekdayOf(date) - firstWeekday + 7) % 7));
}

/** First day and exclusive end of the week, month or year `offset` periods away from the one containing `today`. */
function periodBounds(
  unit: 'week' | 'month' | 'year',
  offset: number,
  reference: PhraseReference,
): [CivilDate, CivilDate] {
  const { today } = reference;
  if (unit === 'week') {
    const first = addDays(startOfWeek(today, reference.weekStartsOn), offset * 7);
    return [first, addDays(first, 7)];
  }
  if (unit === 'month') {
    const first = addMonths({ year: today.year, month: today.month, day: 1 }, offset);
    return [first, addMonths(first, 1)];
  }
  const first = { year: today.year + offset, month: 1, day: 1 };
  return [first, { year: first.year + 1, month: 1, day: 1 }];
}

/** Saturday and the following Monday (exclusive) of the weekend `offset` weekends away from "this weekend". */
function weekendBounds(offset: number, today: CivilDate): [CivilDate, CivilDate] {
  const weekday = weekdayOf(today);
  const daysToSaturday = weekday === 6 ? 0 : weekday === 0 ? -1 : 6 - weekday;
  const saturday = addDays(today, daysToSaturday + offset * 7);
  return [saturday, addDays(saturday, 2)];
}

/** The weekday's date under the rules in the header comment. */
export function dateOfWeekday(
  weekday: WeekdayNumber,
  modifier: string | undefined,
  weekModifier: string | undefined,
  reference: PhraseReference,
): CivilDate {
  const { today } = reference;
  if (weekModifier !== undefined || modifier?.toLowerCase() === 'next') {
    const weekStart = addDays(startOfWeek(today, reference.weekStartsOn), periodOffset(weekModifier ?? modifier) * 7);
    return addDays(weekStart, (weekday - weekdayOf(weekStart) + 7) % 7);
  }
  const forward = (weekday - weekdayOf(today) + 7) % 7;
  if (modifier !== undefined && periodOffset(modifier) === -1) return addDays(today, forward - 7);
  return addDays(today, forward);
}

function dateComponents(context: ParsingContext, date: CivilDate): ParsingComponents {
  return context.createParsingComponents({ year: date.year, month: date.month, day: date.day });
}

function periodResult(
  context: ParsingContext,
  match: RegExpMatchArray,
  [first, endExclusive]: [CivilDate, CivilDate],
): ParsingResult {
  return context
    .createParsingResult(
      match.index ?? 0,
      match[0],
      dateComponents(context, first),
      dateComponents(context, endExclusive),
    )
    .addTag(PERIOD_RANGE_TAG);
}

function countOf(text: string): number {
  return COUNT_WORDS[text.toLowerCase()] ?? Number(text);
}

/** The month's year: the current year if the month is this one or still ahead, otherwise next year. */
function yearOfNextMonthOccurrence(month: number, today: CivilDate): number {
  return month >= today.month ? today.year : today.year + 1;
}

/** The parsers for the phrase table, bound to one reference. They run before chrono's and win ties on the same text. */
export function createPhraseParsers(reference: PhraseReference): Parser[] {
  const boundary: Parser = {
    pattern: () => BOUNDARY_PATTERN,
    extract: (context, match) => {
      const [, edge = '', modifier, unit, monthName, year] = match;
      const wantsEnd = /^(?:end|last)/i.test(edge);
      let first: CivilDate;
      let endExclusive: CivilDate;
      if (unit !== undefined) {
        [first, endExclusive] = periodBounds(
          unit.toLowerCase() as 'week' | 'month' | 'year',
          periodOffset(modifier),
          reference,
        );
      } else {
        const month = MONTHS[(monthName ?? '').toLowerCase()];
        if (month === undefined) return null;
        first = {
          year: year !== undefined ? Number(year) : yearOfNextMonthOccurrence(month, reference.today),
          month,
          day: 1,
        };
        endExclusive = addMonths(first, 1);
      }
      return dateComponents(context, wantsEnd ? addDays(endExclusive, -1) : first);
    },
  };

  const period: Parser = {
    pattern: () => PERIOD_PATTERN,
    extract: (context, match) => {
      const [, modifier, unit = ''] = match;
      const offset = periodOffset(modifier);
      const word = unit.toLowerCase();
      const bounds =
        word === 'weekend'
          ? weekendBounds(offset, reference.today)
          : periodBounds(word as 'week' | 'month' | 'year', offset, reference);
      return periodResult(context, match, bounds);
    },
  };

  const count: Parser = {
    pattern: () => COUNT_PATTERN,
    extract: (context, match) => {
      const [, countedDirection, amountText, past, unitText = ''] = match;
      const direction = countedDirection ?? past ?? '';
      const amount = amountText === undefined ? 1 : countOf(amountText);
      if (!Number.isInteger(amount) || amount < 1) return null;
      const unit = unitText.toLowerCase().replace(/s$/, '');
      const sign = periodOffset(direction);
      const shift = (date: CivilDate, times: number): CivilDate =>
        unit === 'day'
          ? addDays(date, times)
          : unit === 'week'
            ? addDays(date, times * 7)
            : addMonths(date, times * (unit === 'year' ? 12 : 1));
      const { today } = reference;
      return periodResult(context, match, sign > 0 ? [today, shift(today, amount)] : [shift(today, -amount), today]);
    },
  };

  const weekday: Parser = {
    pattern: () => WEEKDAY_PATTERN,
    extract: (context, match) => {
      const [, modifier, name = '', weekModifier] = match;
      const day = WEEKDAYS[name.toLowerCase()];
      if (day === undefined) return null;
      const date = dateOfWeekday(day, modifier, weekModifier, reference);
      // The weekday is certain and the date implied, as chrono's own weekday parser does: its refiners then still merge
      // "Friday, March 3" and move the end of "Friday to Monday" past the start.
      return context
        .createParsingComponents({ weekday: day })
        .imply('year', date.year)
        .imply('month', date.month)
        .imply('day', date.day);
    },
  };

  return [boundary, period, count, weekday];
}

/**
 * Applies the "current or next occurrence" rules to what chrono left open: a month and day without a year, a month
 * alone, and a time without a date. Runs after chrono's refiners.
 */
export function createForwardRefiner(reference: PhraseReference): Refiner {
  const { today, now } = reference;
  return {
    refine: (_context, results) => {
      for (const result of results) {
        const { start, end } = result;
        if (start.tags().has('result/relativeDate')) continue;
        if (start.isCertain('month') && !start.isCertain('year')) {
          const month = start.get('month') ?? today.month;
          const year = start.isCertain('day')
            ? compareCivilDates({ year: today.year, month, day: start.get('day') ?? 1 }, today) >= 0
              ? today.year
              : today.year + 1
            : yearOfNextMonthOccurrence(month, today);
          start.imply('year', year);
          if (end && end.isCertain('month') && !end.isCertain('year')) {
            const endMonth = end.get('month') ?? month;
            const endDay = end.get('day') ?? daysInMonth(year, endMonth);
            const beforeStart = endMonth < month || (endMonth === month && endDay < (start.get('day') ?? 1));
            end.imply('year', beforeStart ? year + 1 : year);
          }
        } else if (start.isOnlyTime() && start.isCertain('hour') && (!end || end.isOnlyTime())) {
          // A start time whose range ends on a named day ("from 9am to today") takes that day from chrono instead.
          const startsAt: WallTime = {
            ...today,
            hour: start.get('hour') ?? 0,
            minute: start.get('minute') ?? 0,
            second: start.get('second') ?? 0,
            millisecond: start.get('millisecond') ?? 0,
          };
          const shift = wallTimeAsUtc(startsAt) < wallTimeAsUtc(now) ? 1 : 0;
          const date = addDays(today, shift);
          implyDate(start, date);
          if (end && end.isOnlyTime()) {
            const endHour = (end.get('hour') ?? 0) * 60 + (end.get('minute') ?? 0);
            implyDate(end, endHour <= startsAt.hour * 60 + startsAt.minute ? addDays(date, 1) : date);
          }
        }
      }
      return results;
    },
  };
}

function implyDate(components: ParsingComponents, date: CivilDate): void {
  components.imply('year', date.year).imply('month', date.month).imply('day', date.day);
}
