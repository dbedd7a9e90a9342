import 'reflect-metadata';
import { ToolwrightError } from '../../../src/errors/toolwright-error';
import {
  MAX_RELATIVE_DATE_PHRASE_LENGTH,
  RelativeDateError,
  resolveRelativeDate,
  type RelativeDateOptions,
  type RelativeDateResolution,
} from '../../../src/builtins';

/** The result without the fields every case repeats (phrase, time zone, reference). */
function resolve(
  phrase: string,
  options: RelativeDateOptions,
): Omit<RelativeDateResolution, 'phrase' | 'timeZone' | 'reference' | 'matched'> {
  const {
    phrase: _phrase,
    timeZone: _timeZone,
    reference: _reference,
    matched: _matched,
    ...rest
  } = resolveRelativeDate(phrase, options);
  return rest;
}

function caught(action: () => unknown): RelativeDateError {
  try {
    action();
  } catch (error) {
    if (error instanceof RelativeDateError) return error;
    throw error;
  }
  throw new Error('expected a RelativeDateError, but nothing was thrown');
}

const date = (value: string) => ({ kind: 'date', date: value });
const datetime = (value: string) => ({ kind: 'datetime', datetime: value, date: value.slice(0, 10) });
const range = (start: string, end: string, firstDate: string, lastDate: string) => ({
  kind: 'range',
  start,
  end,
  firstDate,
  lastDate,
});

describe('resolveRelativeDate', () => {
  describe('Europe/Berlin, Saturday 2026-03-28 13:00 CET; clocks go forward at 02:00 the next night', () => {
    const berlin: RelativeDateOptions = { now: new Date('2026-03-28T12:00:00Z'), timeZone: 'Europe/Berlin' };

    it.each([
      ['today', date('2026-03-28')],
      ['tomorrow', date('2026-03-29')],
      ['yesterday', date('2026-03-27')],
      ['next Monday', date('2026-03-30')],
      ['in 3 days', date('2026-03-31')],
      ['next week', range('2026-03-30T00:00:00+02:00', '2026-04-06T00:00:00+02:00', '2026-03-30', '2026-04-05')],
      ['this week', range('2026-03-23T00:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-23', '2026-03-29')],
      ['last week', range('2026-03-16T00:00:00+01:00', '2026-03-23T00:00:00+01:00', '2026-03-16', '2026-03-22')],
      ['end of month', date('2026-03-31')],
      ['next month', range('2026-04-01T00:00:00+02:00', '2026-05-01T00:00:00+02:00', '2026-04-01', '2026-04-30')],
      ['this weekend', range('2026-03-28T00:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-28', '2026-03-29')],
      ['tomorrow at 9am', datetime('2026-03-29T09:00:00+02:00')],
      ['tomorrow at 1:30am', datetime('2026-03-29T01:30:00+01:00')],
      ['in 2 hours', datetime('2026-03-28T15:00:00+01:00')],
      ['in 24 hours', datetime('2026-03-29T14:00:00+02:00')],
      ['in 1 day and 2 hours', datetime('2026-03-29T15:00:00+02:00')],
      ['now', datetime('2026-03-28T13:00:00+01:00')],
      ['the meeting on March 3rd 2027', date('2027-03-03')],
      ['2026-04-01T10:00', datetime('2026-04-01T10:00:00+02:00')],
      ['2026-04-01T10:00Z', datetime('2026-04-01T12:00:00+02:00')],
      ['tomorrow at 9am UTC', datetime('2026-03-29T11:00:00+02:00')],
    ])('%s', (phrase, expected) => {
      expect(resolve(phrase, berlin)).toEqual(expected);
    });

    it('returns the phrase, the part understood, the zone and the reference instant', () => {
      expect(resolveRelativeDate('the meeting on March 3rd 2027', berlin)).toEqual({
        phrase: 'the meeting on March 3rd 2027',
        matched: 'March 3rd 2027',
        kind: 'date',
        date: '2027-03-03',
        timeZone: 'Europe/Berlin',
        reference: '2026-03-28T13:00:00+01:00',
      });
    });

    it('moves a wall time in the spring-forward gap forward by the gap', () => {
      const justBeforeTheGap: RelativeDateOptions = {
        now: new Date('2026-03-29T00:30:00Z'),
        timeZone: 'Europe/Berlin',
      };
      expect(resolve('today at 2:30am', justBeforeTheGap)).toEqual(datetime('2026-03-29T03:30:00+02:00'));
      expect(resolve('in 1 hour', justBeforeTheGap)).toEqual(datetime('2026-03-29T03:30:00+02:00'));
      expect(resolve('in 1 day', justBeforeTheGap)).toEqual(date('2026-03-30'));
    });
  });

  describe('America/New_York, Saturday 2026-10-31 12:00 EDT; clocks go back at 02:00 the next night', () => {
    const newYork: RelativeDateOptions = { now: new Date('2026-10-31T16:00:00Z'), timeZone: 'America/New_York' };

    it.each([
      ['today', date('2026-10-31')],
      ['tomorrow', date('2026-11-01')],
      ['yesterday', date('2026-10-30')],
      ['next Monday', date('2026-11-02')],
      ['in 3 days', date('2026-11-03')],
      ['next week', range('2026-11-02T00:00:00-05:00', '2026-11-09T00:00:00-05:00', '2026-11-02', '2026-11-08')],
      ['this week', range('2026-10-26T00:00:00-04:00', '2026-11-02T00:00:00-05:00', '2026-10-26', '2026-11-01')],
      ['end of month', date('2026-10-31')],
      ['next month', range('2026-11-01T00:00:00-04:00', '2026-12-01T00:00:00-05:00', '2026-11-01', '2026-11-30')],
      ['tomorrow at 9am', datetime('2026-11-01T09:00:00-05:00')],
      ['in 2 hours', datetime('2026-10-31T14:00:00-04:00')],
      ['in 24 hours', datetime('2026-11-01T11:00:00-05:00')],
      ['the meeting on March 3rd 2027', date('2027-03-03')],
    ])('%s', (phrase, expected) => {
      expect(resolve(phrase, newYork)).toEqual(expected);
    });

    it('resolves a wall time that occurs twice to the earlier instant (EDT)', () => {
      expect(resolve('tomorrow at 1:30am', newYork)).toEqual(datetime('2026-11-01T01:30:00-04:00'));
    });

    it('counts hours as elapsed time through the repeated hour', () => {
      const duringTheFirstOneThirty: RelativeDateOptions = {
        now: new Date('2026-11-01T05:30:00Z'),
        timeZone: 'America/New_York',
      };
      expect(resolveRelativeDate('now', duringTheFirstOneThirty)).toMatchObject({
        datetime: '2026-11-01T01:30:00-04:00',
        reference: '2026-11-01T01:30:00-04:00',
      });
      expect(resolve('in 1 hour', duringTheFirstOneThirty)).toEqual(datetime('2026-11-01T01:30:00-05:00'));
      expect(resolve('in 2 hours', duringTheFirstOneThirty)).toEqual(datetime('2026-11-01T02:30:00-05:00'));
      expect(resolve('1 hour ago', duringTheFirstOneThirty)).toEqual(datetime('2026-11-01T00:30:00-04:00'));
    });
  });

  describe('weekdays', () => {
    const on = (iso: string, weekStartsOn?: 'monday' | 'sunday'): RelativeDateOptions => ({
      now: new Date(iso),
      timeZone: 'Europe/Berlin',
      weekStartsOn,
    });
    const monday = on('2026-03-30T10:00:00Z');
    const wednesday = on('2026-04-01T10:00:00Z');
    const sunday = on('2026-03-29T10:00:00Z');

    it('reads a bare weekday said on that weekday as today, and "next <weekday>" as the one in the following week', () => {
      expect(resolve('Monday', monday)).toEqual(date('2026-03-30'));
      expect(resolve('this Monday', monday)).toEqual(date('2026-03-30'));
      expect(resolve('next Monday', monday)).toEqual(date('2026-04-06'));
      expect(resolve('Monday next week', monday)).toEqual(date('2026-04-06'));
      expect(resolve('last Monday', monday)).toEqual(date('2026-03-23'));
    });

    it('reads a bare weekday as the next one ahead, never a past one', () => {
      expect(resolve('Monday', wednesday)).toEqual(date('2026-04-06'));
      expect(resolve('on Friday', wednesday)).toEqual(date('2026-04-03'));
      expect(resolve('next Friday', wednesday)).toEqual(date('2026-04-10'));
      expect(resolve('last Friday', wednesday)).toEqual(date('2026-03-27'));
      expect(resolve('Monday this week', wednesday)).toEqual(date('2026-03-30'));
      expect(resolve('coming Friday', wednesday)).toEqual(date('2026-04-03'));
      expect(resolve('next Monday', wednesday)).toEqual(date('2026-04-06'));
      expect(resolve('Friday last week', wednesday)).toEqual(date('2026-03-27'));
    });

    it('puts "next Monday" said on a Sunday in the following week: tomorrow for ISO weeks, in 8 days for Sunday weeks', () => {
      expect(resolve('next Monday', sunday)).toEqual(date('2026-03-30'));
      expect(resolve('next Monday', on('2026-03-29T10:00:00Z', 'sunday'))).toEqual(date('2026-04-06'));
    });

    it('starts weeks on Sunday when asked', () => {
      expect(resolve('this week', on('2026-04-01T10:00:00Z', 'sunday'))).toEqual(
        range('2026-03-29T00:00:00+01:00', '2026-04-05T00:00:00+02:00', '2026-03-29', '2026-04-04'),
      );
      expect(resolve('end of the week', on('2026-04-01T10:00:00Z', 'sunday'))).toEqual(date('2026-04-04'));
      expect(resolve('end of the week', wednesday)).toEqual(date('2026-04-05'));
    });

    it('keeps chrono merging a weekday with a date, a time and a range', () => {
      expect(resolve('Friday, April 3', wednesday)).toEqual(date('2026-04-03'));
      expect(resolve('next Friday at 3pm', wednesday)).toEqual(datetime('2026-04-10T15:00:00+02:00'));
      expect(resolve('from Friday to Monday', wednesday)).toEqual(
        range('2026-04-03T00:00:00+02:00', '2026-04-07T00:00:00+02:00', '2026-04-03', '2026-04-06'),
      );
    });

    it('reads "this weekend" as the current one on a weekend day and the coming one otherwise', () => {
      expect(resolve('this weekend', sunday)).toEqual(
        range('2026-03-28T00:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-28', '2026-03-29'),
      );
      expect(resolve('this weekend', monday)).toEqual(
        range('2026-04-04T00:00:00+02:00', '2026-04-06T00:00:00+02:00', '2026-04-04', '2026-04-05'),
      );
      expect(resolve('next weekend', monday)).toEqual(
        range('2026-04-11T00:00:00+02:00', '2026-04-13T00:00:00+02:00', '2026-04-11', '2026-04-12'),
      );
      expect(resolve('last weekend', monday)).toEqual(
        range('2026-03-28T00:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-28', '2026-03-29'),
      );
    });
  });

  describe('periods, boundaries and the current-or-next rules', () => {
    const berlin: RelativeDateOptions = { now: new Date('2026-03-28T12:00:00Z'), timeZone: 'Europe/Berlin' };

    it.each([
      ['this year', range('2026-01-01T00:00:00+01:00', '2027-01-01T00:00:00+01:00', '2026-01-01', '2026-12-31')],
      ['next 7 days', range('2026-03-28T00:00:00+01:00', '2026-04-04T00:00:00+02:00', '2026-03-28', '2026-04-03')],
      [
        'the past two weeks',
        range('2026-03-14T00:00:00+01:00', '2026-03-28T00:00:00+01:00', '2026-03-14', '2026-03-27'),
      ],
      ['past week', range('2026-03-21T00:00:00+01:00', '2026-03-28T00:00:00+01:00', '2026-03-21', '2026-03-27')],
      ['in March', range('2026-03-01T00:00:00+01:00', '2026-04-01T00:00:00+02:00', '2026-03-01', '2026-03-31')],
      ['March 2027', range('2027-03-01T00:00:00+01:00', '2027-04-01T00:00:00+02:00', '2027-03-01', '2027-03-31')],
      [
        'from March 3 to March 5',
        range('2027-03-03T00:00:00+01:00', '2027-03-06T00:00:00+01:00', '2027-03-03', '2027-03-05'),
      ],
      [
        'from 9am to 5pm tomorrow',
        range('2026-03-29T09:00:00+02:00', '2026-03-29T17:00:00+02:00', '2026-03-29', '2026-03-29'),
      ],
      [
        'from 9am to today',
        range('2026-03-28T09:00:00+01:00', '2026-03-29T00:00:00+01:00', '2026-03-28', '2026-03-28'),
      ],
      ['from 11pm to 1am', range('2026-03-28T23:00:00+01:00', '2026-03-29T01:00:00+01:00', '2026-03-28', '2026-03-29')],
      ['end of next month', date('2026-04-30')],
      ['last day of last month', date('2026-02-28')],
      ['start of next week', date('2026-03-30')],
      ['end of the year', date('2026-12-31')],
      ['end of March', date('2026-03-31')],
      ['end of February', date('2027-02-28')],
      ['beginning of June 2027', date('2027-06-01')],
      ['March 3', date('2027-03-03')],
      ['March 28', date('2026-03-28')],
      ['at 9am', datetime('2026-03-29T09:00:00+02:00')],
      ['at 3pm', datetime('2026-03-28T15:00:00+01:00')],
      ['next hour', datetime('2026-03-28T14:00:00+01:00')],
      ['next quarter', date('2026-06-28')],
    ])('%s', (phrase, expected) => {
      expect(resolve(phrase, berlin)).toEqual(expected);
    });

    it('gives the last day of February in a leap year', () => {
      expect(resolve('end of February', { now: new Date('2027-03-01T12:00:00Z'), timeZone: 'Europe/Berlin' })).toEqual(
        date('2028-02-29'),
      );
    });

    it('adds months on the calendar, clamping to the end of a shorter month', () => {
      expect(resolve('in 1 month', { now: new Date('2026-01-31T12:00:00Z'), timeZone: 'Europe/Berlin' })).toEqual(
        date('2026-02-28'),
      );
    });
  });

  describe('granularity', () => {
    const berlin: RelativeDateOptions = { now: new Date('2026-03-28T12:00:00Z'), timeZone: 'Europe/Berlin' };

    it('turns a date into the start of that day under "datetime"', () => {
      expect(resolve('tomorrow', { ...berlin, granularity: 'datetime' })).toEqual(
        datetime('2026-03-29T00:00:00+01:00'),
      );
    });

    it('starts the day at the first instant that exists when midnight falls in a DST gap', () => {
      // Chile moves its clocks from 00:00 to 01:00 on 2026-09-06.
      const santiago: RelativeDateOptions = {
        now: new Date('2026-09-05T15:00:00Z'),
        timeZone: 'America/Santiago',
        granularity: 'datetime',
      };
      expect(resolve('tomorrow', santiago)).toEqual(datetime('2026-09-06T01:00:00-03:00'));
    });

    it('keeps only the calendar day under "date"', () => {
      expect(resolve('tomorrow at 9am', { ...berlin, granularity: 'date' })).toEqual(date('2026-03-29'));
    });

    it('leaves ranges as ranges', () => {
      expect(resolve('next week', { ...berlin, granularity: 'date' })).toMatchObject({ kind: 'range' });
      expect(resolve('next week', { ...berlin, granularity: 'datetime' })).toMatchObject({ kind: 'range' });
    });
  });

  describe('time zones', () => {
    it('reports the canonical zone name and formats UTC as +00:00', () => {
      expect(
        resolveRelativeDate('tomorrow at noon', { now: new Date('2026-03-28T12:00:00Z'), timeZone: 'utc' }),
      ).toMatchObject({
        timeZone: 'UTC',
        datetime: '2026-03-29T12:00:00+00:00',
        reference: '2026-03-28T12:00:00+00:00',
      });
      expect(
        resolveRelativeDate('today', { now: new Date('2026-03-28T12:00:00Z'), timeZone: 'europe/berlin' }).timeZone,
      ).toBe('Europe/Berlin');
    });

    it('resolves "today" to the zone\'s date, not the UTC date', () => {
      const lateEvening = new Date('2026-03-28T23:30:00Z');
      expect(resolve('today', { now: lateEvening, timeZone: 'Asia/Tokyo' })).toEqual(date('2026-03-29'));
      expect(resolve('today', { now: lateEvening, timeZone: 'America/New_York' })).toEqual(date('2026-03-28'));
      expect(resolve('tomorrow at 9am', { now: lateEvening, timeZone: 'Asia/Kathmandu' })).toEqual(
        datetime('2026-03-30T09:00:00+05:45'),
      );
    });
  });

  describe('errors', () => {
    const berlin: RelativeDateOptions = { now: new Date('2026-03-28T12:00:00Z'), timeZone: 'Europe/Berlin' };

    it('refuses a phrase with no date, saying what was not understood and showing accepted phrases', () => {
      const error = caught(() => resolveRelativeDate('whenever suits you', berlin));
      expect(error.code).toBe('UNRECOGNIZED_PHRASE');
      expect(error.argument).toBe('phrase');
      expect(error.received).toBe('whenever suits you');
      expect(error.message).toBe(
        'No date or time was understood in "whenever suits you". Send an English date phrase. Accepted phrases look like: ' +
          '"today", "tomorrow at 9am", "next Monday", "in 3 days", "in 2 hours", "next week", "end of month", "March 3rd 2027".',
      );
      expect(ToolwrightError.isInstance(error)).toBe(true);
      expect(error.name).toBe('RelativeDateError');
    });

    it('refuses an empty or overlong phrase', () => {
      expect(caught(() => resolveRelativeDate('   ', berlin)).message).toMatch(/^The phrase is empty/);
      const long = `tomorrow ${'x'.repeat(MAX_RELATIVE_DATE_PHRASE_LENGTH)}`;
      const error = caught(() => resolveRelativeDate(long, berlin));
      expect(error.code).toBe('UNRECOGNIZED_PHRASE');
      expect(error.message).toMatch(/the limit is 200/);
    });

    it.each([
      ['tomorrow or Friday', /names 2 dates \("tomorrow", "Friday"\)/],
      ['in a few days', /vague amount/],
      ['in several weeks', /vague amount/],
      ['next week at 9am', /time of day for a whole period/],
    ])('refuses the ambiguous phrase %s', (phrase, message) => {
      const error = caught(() => resolveRelativeDate(phrase, berlin));
      expect(error.code).toBe('AMBIGUOUS_PHRASE');
      expect(error.message).toMatch(message);
    });

    it('refuses an unknown time zone, naming it', () => {
      const error = caught(() => resolveRelativeDate('tomorrow', { ...berlin, timeZone: 'Mars/Olympus_Mons' }));
      expect(error.code).toBe('UNKNOWN_TIME_ZONE');
      expect(error.argument).toBe('timeZone');
      expect(error.message).toBe(
        'Unknown time zone "Mars/Olympus_Mons": use an IANA time zone name such as "Europe/Berlin", "America/New_York" or "UTC".',
      );
      expect(caught(() => resolveRelativeDate('tomorrow', { ...berlin, timeZone: '' })).code).toBe('UNKNOWN_TIME_ZONE');
    });

    it('refuses an invalid reference instant', () => {
      const error = caught(() => resolveRelativeDate('tomorrow', { ...berlin, now: new Date('not a date') }));
      expect(error.code).toBe('INVALID_REFERENCE');
      expect(error.argument).toBe('now');
    });
  });
});
