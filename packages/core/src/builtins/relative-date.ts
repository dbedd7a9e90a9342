import type { Chrono, ParsedComponents, ParsedResult } from 'chrono-node';
import {
  addDays,
  addMonths,
  canonicalTimeZone,
  civilDateOf,
  formatCivilDate,
  formatInstant,
  instantOfWallTime,
  offsetMinutesAt,
  startOfDay,
  wallTimeAsUtc,
  wallTimeAt,
  type CivilDate,
  type WallTime,
} from '../time/calendar';
import {
  emptyPhraseMessage,
  invalidReferenceMessage,
  phraseTooLongMessage,
  rangeEndsBeforeStartMessage,
  severalDatesMessage,
  timeOfDayForPeriodMessage,
  unknownTimeZoneMessage,
  unrecognizedPhraseMessage,
  vagueAmountMessage,
} from './messages';
import { RelativeDateError } from './relative-date-error';
import {
  createForwardRefiner,
  createPhraseParsers,
  PERIOD_RANGE_TAG,
  REPLACED_CHRONO_PARSERS,
  REPLACED_CHRONO_REFINERS,
  type PhraseReference,
  type WeekStart,
} from './relative-date-phrases';
import { dateAfter, instantAfter, readPhraseDuration } from './relative-durations';

/**
 * Resolves English date phrases ("tomorrow at 9am", "next week", "the meeting on March 3rd 2027") to absolute dates,
 * date-times and ranges, relative to a reference instant in an IANA time zone. chrono-node reads the phrase; the
 * phrases it gets wrong or does not know are in the table in `relative-date-phrases.ts`, with the rules for the
 * ambiguous ones. Results:
 *
 * - a phrase without a time of day ("tomorrow", "next Monday", "in 3 days", "end of month") is a `date`;
 * - a phrase with one ("tomorrow at 9am", "in 2 hours", "now") is a `datetime`, ISO-8601 with the zone's offset at that
 *   instant, so a DST change between the reference and the result is accounted for;
 * - a period ("next week", "this weekend", "March", "from March 3 to March 5") is a `range`. `start` is inclusive and
 *   `end` exclusive: "next week" ends at 00:00 on the Monday after it. `firstDate` and `lastDate` are the period's
 *   first and last calendar days, both inclusive.
 *
 * DST rules: hours, minutes and seconds ("in 2 hours") are elapsed time from the reference instant; days, weeks,
 * months and years ("in 3 days", "in 1 day and 2 hours") move the calendar date first, keeping the time of day (see
 * `instantAfter`). A wall time that occurs twice resolves to the earlier instant, one that does not exist moves
 * forward by the gap (see `instantOfWallTime`).
 *
 * Pure: the same phrase, reference and zone always give the same result, whatever the host's time zone.
 */
export function resolveRelativeDate(phrase: string, options: RelativeDateOptions): RelativeDateResolution {
  const timeZone = resolveTimeZone(options.timeZone);
  const nowMs = resolveReference(options.now);
  const text = checkPhrase(phrase);

  // chrono's own parsers ("tomorrow", "March 3") read the reference's wall clock at this fixed offset: the zone's
  // offset at the reference instant. Results with a time of day are converted with the zone's rules afterwards.
  const referenceOffset = offsetMinutesAt(nowMs, timeZone);
  const now = wallTimeAt(nowMs, timeZone);
  const reference: PhraseReference = { today: civilDateOf(now), now, weekStartsOn: options.weekStartsOn ?? 'monday' };
  const engine = baseChrono();
  const chrono = new engine.Chrono({
    parsers: [...createPhraseParsers(reference), ...engine.casual.parsers],
    refiners: [...engine.casual.refiners, createForwardRefiner(reference)],
  });
  const results = chrono.parse(text, { instant: new Date(nowMs), timezone: referenceOffset });

  const [result, ...others] = results;
  if (result === undefined) throw phraseError('UNRECOGNIZED_PHRASE', unrecognizedPhraseMessage(phrase), phrase);
  if (others.length > 0)
    throw phraseError(
      'AMBIGUOUS_PHRASE',
      severalDatesMessage(
        phrase,
        results.map((each) => each.text),
      ),
      phrase,
    );
  if (VAGUE_AMOUNT.test(result.text))
    throw phraseError('AMBIGUOUS_PHRASE', vagueAmountMessage(phrase, result.text), phrase);

  const resolver: ComponentResolver = { timeZone, nowMs };
  const base = { phrase, matched: result.text };
  const tail = { timeZone, reference: formatInstant(nowMs, timeZone) };

  const range = rangeOf(result, resolver, phrase);
  if (range) {
    const [startMs, endMs] = range;
    return {
      ...base,
      kind: 'range',
      start: formatInstant(startMs, timeZone),
      end: formatInstant(endMs, timeZone),
      firstDate: formatCivilDate(wallTimeAt(startMs, timeZone)),
      lastDate: formatCivilDate(wallTimeAt(endMs - 1, timeZone)),
      ...tail,
    };
  }

  const point = relativePointOf(result, resolver) ?? pointOf(result.start, resolver);
  const granularity = options.granularity ?? 'auto';
  if (point.instantMs !== undefined && granularity !== 'date') {
    return {
      ...base,
      kind: 'datetime',
      datetime: formatInstant(point.instantMs, timeZone),
      date: formatCivilDate(point.date),
      ...tail,
    };
  }
  if (granularity === 'datetime') {
    const startOfThatDay = instantOfWallTime(startOfDay(point.date), timeZone);
    return {
      ...base,
      kind: 'datetime',
      datetime: formatInstant(startOfThatDay, timeZone),
      date: formatCivilDate(point.date),
      ...tail,
    };
  }
  return { ...base, kind: 'date', date: formatCivilDate(point.date), ...tail };
}

export interface RelativeDateOptions {
  /** The reference instant phrases are relative to ("tomorrow" is the day after this instant's date in `timeZone`). */
  readonly now: Date;
  /** IANA time zone name, e.g. `Europe/Berlin`. */
  readonly timeZone: string;
  /**
   * `auto` (default): a date when the phrase has no time of day, a date-time when it has one. `date`: always a date
   * (the date-time's calendar day in the zone). `datetime`: always a date-time (a date becomes 00:00 that day, or the
   * first instant of the day when midnight falls in a DST gap). Ranges stay ranges under every granularity.
   */
  readonly granularity?: 'auto' | 'date' | 'datetime';
  /** The first day of the week for "this week", "next week", "next Monday", "end of week" (default `monday`, ISO 8601). */
  readonly weekStartsOn?: WeekStart;
}

interface RelativeDateResolutionBase {
  /** The phrase as given. */
  readonly phrase: string;
  /** The part of the phrase that was understood (the rest was ignored). */
  readonly matched: string;
  /** The canonical IANA name of the zone the phrase was resolved in. */
  readonly timeZone: string;
  /** The reference instant in that zone, ISO-8601 with offset. */
  readonly reference: string;
}

/** A day: "tomorrow", "next Monday", "end of month". */
export interface RelativeDateDate extends RelativeDateResolutionBase {
  readonly kind: 'date';
  /** `YYYY-MM-DD`. */
  readonly date: string;
}

/** An instant: "tomorrow at 9am", "in 2 hours". */
export interface RelativeDateDateTime extends RelativeDateResolutionBase {
  readonly kind: 'datetime';
  /** ISO-8601 with the zone's offset at that instant: `2026-03-29T09:00:00+02:00`. */
  readonly datetime: string;
  /** The instant's calendar day in the zone, `YYYY-MM-DD`. */
  readonly date: string;
}

/** A period: "next week", "this weekend", "March". */
export interface RelativeDateRange extends RelativeDateResolutionBase {
  readonly kind: 'range';
  /** Inclusive start, ISO-8601 with offset. */
  readonly start: string;
  /** Exclusive end, ISO-8601 with offset: the first instant after the period. */
  readonly end: string;
  /** The period's first calendar day, `YYYY-MM-DD`. */
  readonly firstDate: string;
  /** The period's last calendar day (inclusive), `YYYY-MM-DD`. */
  readonly lastDate: string;
}

export type RelativeDateResolution = RelativeDateDate | RelativeDateDateTime | RelativeDateRange;

/** The longest phrase accepted; the tool resolves one phrase, not a document. */
export const MAX_RELATIVE_DATE_PHRASE_LENGTH = 200;

/** Amounts chrono turns into a number the speaker never said ("a few days" = 3). */
const VAGUE_AMOUNT = /(?<![\p{L}\p{N}])(?:few|several|some)(?![\p{L}\p{N}])/iu;

/** chrono-node's parser class and the casual English parser the phrase table builds on. */
interface ChronoEngine {
  readonly Chrono: typeof Chrono;
  readonly casual: Chrono;
}

let loadedChrono: ChronoEngine | undefined;

/**
 * chrono-node's `Chrono` class and its casual English parser without the parsers and refiners the phrase table
 * replaces. chrono-node is loaded here, on the first phrase resolved, not when @toolwright/core is imported: it is
 * about a third of core's import time, and most applications resolve no relative date before their first tool call
 * (or never).
 */
function baseChrono(): ChronoEngine {
  if (loadedChrono !== undefined) return loadedChrono;
  const chronoNode = require('chrono-node') as typeof import('chrono-node');
  const casual = chronoNode.casual.clone();
  casual.parsers = casual.parsers.filter((parser) => !REPLACED_CHRONO_PARSERS.includes(parser.constructor.name));
  casual.refiners = casual.refiners.filter((refiner) => !REPLACED_CHRONO_REFINERS.includes(refiner.constructor.name));
  loadedChrono = { Chrono: chronoNode.Chrono, casual };
  return loadedChrono;
}

interface ComponentResolver {
  readonly timeZone: string;
  /** The reference instant. */
  readonly nowMs: number;
}

interface ResolvedPoint {
  readonly date: CivilDate;
  /** Set when the phrase gave a time of day (or a duration in hours, minutes, seconds). */
  readonly instantMs?: number;
}

function resolveTimeZone(timeZone: string): string {
  const canonical = typeof timeZone === 'string' ? canonicalTimeZone(timeZone) : undefined;
  if (canonical === undefined) {
    throw new RelativeDateError('UNKNOWN_TIME_ZONE', unknownTimeZoneMessage(String(timeZone)), {
      argument: 'timeZone',
      received: String(timeZone),
    });
  }
  return canonical;
}

function resolveReference(now: Date): number {
  const epochMs = now instanceof Date ? now.getTime() : Number.NaN;
  if (Number.isNaN(epochMs)) {
    throw new RelativeDateError('INVALID_REFERENCE', invalidReferenceMessage(String(now)), {
      argument: 'now',
      received: String(now),
    });
  }
  return epochMs;
}

function checkPhrase(phrase: string): string {
  const text = typeof phrase === 'string' ? phrase.trim() : '';
  if (text === '') throw phraseError('UNRECOGNIZED_PHRASE', emptyPhraseMessage(), String(phrase));
  if (text.length > MAX_RELATIVE_DATE_PHRASE_LENGTH) {
    throw phraseError('UNRECOGNIZED_PHRASE', phraseTooLongMessage(text.length, MAX_RELATIVE_DATE_PHRASE_LENGTH), text);
  }
  return text;
}

function phraseError(
  code: 'UNRECOGNIZED_PHRASE' | 'AMBIGUOUS_PHRASE',
  message: string,
  phrase: string,
): RelativeDateError {
  return new RelativeDateError(code, message, { argument: 'phrase', received: phrase });
}

function wallTimeOf(components: ParsedComponents): WallTime {
  return {
    year: components.get('year') ?? 0,
    month: components.get('month') ?? 1,
    day: components.get('day') ?? 1,
    hour: components.get('hour') ?? 0,
    minute: components.get('minute') ?? 0,
    second: components.get('second') ?? 0,
    millisecond: components.get('millisecond') ?? 0,
  };
}

/**
 * The date, and the instant when a time of day is certain. A certain offset comes from the phrase ("9am UTC",
 * "2026-04-01T10:00Z"): the wall time is read at that offset. Otherwise the wall time is converted with the zone's own
 * rules, so "tomorrow at 9am" gets the offset in force tomorrow at 9am.
 */
function pointOf(components: ParsedComponents, resolver: ComponentResolver): ResolvedPoint {
  const wall = wallTimeOf(components);
  if (!components.isCertain('hour')) return { date: civilDateOf(wall) };
  const offset = components.isCertain('timezoneOffset') ? components.get('timezoneOffset') : null;
  const instantMs =
    offset === null ? instantOfWallTime(wall, resolver.timeZone) : wallTimeAsUtc(wall) - offset * 60_000;
  return { date: civilDateOf(wallTimeAt(instantMs, resolver.timeZone)), instantMs };
}

/**
 * "now" and durations from now ("in 2 hours", "3 days ago", "next quarter"), computed here rather than taken from
 * chrono, which adds durations with the host's local `Date` arithmetic (wrong by an hour when the result falls in the
 * host's own DST gap, and Jan 31 + 1 month = March 3). Returns `undefined` for anything else, and for a duration the
 * reader does not understand, where chrono's result stands.
 */
function relativePointOf(result: ParsedResult, resolver: ComponentResolver): ResolvedPoint | undefined {
  const tags = result.start.tags();
  const { nowMs, timeZone } = resolver;
  if (tags.has('casualReference/now')) return { date: civilDateOf(wallTimeAt(nowMs, timeZone)), instantMs: nowMs };
  if (!tags.has('result/relativeDate')) return undefined;
  const duration = readPhraseDuration(result.text);
  if (duration === undefined) return undefined;
  if (!tags.has('result/relativeDateAndTime')) return { date: dateAfter(nowMs, duration, timeZone) };
  const instantMs = instantAfter(nowMs, duration, timeZone);
  return { date: civilDateOf(wallTimeAt(instantMs, timeZone)), instantMs };
}

function startInstant(point: ResolvedPoint, timeZone: string): number {
  return point.instantMs ?? instantOfWallTime(startOfDay(point.date), timeZone);
}

/** The range's start (inclusive) and end (exclusive) instants, or `undefined` when the result is a single point. */
function rangeOf(result: ParsedResult, resolver: ComponentResolver, phrase: string): [number, number] | undefined {
  const { start, end } = result;
  const { timeZone } = resolver;
  let startMs: number;
  let endMs: number;
  if (result.tags().has(PERIOD_RANGE_TAG) && end) {
    if (start.isCertain('hour')) {
      throw phraseError('AMBIGUOUS_PHRASE', timeOfDayForPeriodMessage(phrase, result.text), phrase);
    }
    startMs = instantOfWallTime(startOfDay(wallTimeOf(start)), timeZone);
    endMs = instantOfWallTime(startOfDay(wallTimeOf(end)), timeZone);
  } else if (end) {
    const endPoint = pointOf(end, resolver);
    startMs = startInstant(pointOf(start, resolver), timeZone);
    endMs = endPoint.instantMs ?? instantOfWallTime(startOfDay(addDays(endPoint.date, 1)), timeZone);
  } else if (start.isCertain('month') && !start.isCertain('day') && !start.tags().has('result/relativeDate')) {
    // A month alone ("in March", "March 2027") is the whole month.
    const first = { year: start.get('year') ?? 0, month: start.get('month') ?? 1, day: 1 };
    startMs = instantOfWallTime(startOfDay(first), timeZone);
    endMs = instantOfWallTime(startOfDay(addMonths(first, 1)), timeZone);
  } else {
    return undefined;
  }
  // chrono orders the two ends itself; this guards what it leaves reversed, so a range never comes out inverted.
  if (endMs <= startMs) {
    throw phraseError(
      'AMBIGUOUS_PHRASE',
      rangeEndsBeforeStartMessage(phrase, formatInstant(startMs, timeZone), formatInstant(endMs, timeZone)),
      phrase,
    );
  }
  return [startMs, endMs];
}
