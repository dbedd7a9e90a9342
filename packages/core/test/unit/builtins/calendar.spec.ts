import 'reflect-metadata';
import {
  addMonths,
  canonicalTimeZone,
  formatCivilDate,
  formatInstant,
  formatOffset,
  instantOfWallTime,
  offsetMinutesAt,
  wallTimeAsUtc,
  wallTimeAt,
  weekdayOf,
  type WallTime,
} from '../../../src/time/calendar';

const wall = (iso: string): WallTime => {
  const [date = '', time = '00:00:00'] = iso.split('T');
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number);
  return { year, month, day, hour, minute, second, millisecond: 0 };
};

describe('calendar', () => {
  describe('instantOfWallTime', () => {
    it.each([
      ['an ordinary winter time', '2026-01-15T09:00:00', 'Europe/Berlin', '2026-01-15T08:00:00.000Z'],
      ['an ordinary summer time', '2026-07-15T09:00:00', 'Europe/Berlin', '2026-07-15T07:00:00.000Z'],
      ['the last minute before the spring gap', '2026-03-29T01:59:00', 'Europe/Berlin', '2026-03-29T00:59:00.000Z'],
      [
        'a time in the spring gap (moves forward by the gap)',
        '2026-03-29T02:30:00',
        'Europe/Berlin',
        '2026-03-29T01:30:00.000Z',
      ],
      ['the first time after the spring gap', '2026-03-29T03:00:00', 'Europe/Berlin', '2026-03-29T01:00:00.000Z'],
      [
        'a time that occurs twice (the earlier one)',
        '2026-11-01T01:30:00',
        'America/New_York',
        '2026-11-01T05:30:00.000Z',
      ],
      ['the first time after the repeated hour', '2026-11-01T02:00:00', 'America/New_York', '2026-11-01T07:00:00.000Z'],
      [
        'a time in a 30-minute gap (02:15 becomes 02:45+11:00)',
        '2026-10-04T02:15:00',
        'Australia/Lord_Howe',
        '2026-10-03T15:45:00.000Z',
      ],
      ['a half-hour-offset zone', '2026-03-28T09:00:00', 'Asia/Kolkata', '2026-03-28T03:30:00.000Z'],
    ])('%s', (_case, wallTime, timeZone, expected) => {
      expect(new Date(instantOfWallTime(wall(wallTime), timeZone)).toISOString()).toBe(expected);
    });
  });

  it('formats an instant with the offset in force at that instant', () => {
    expect(formatInstant(Date.parse('2026-03-29T00:59:59Z'), 'Europe/Berlin')).toBe('2026-03-29T01:59:59+01:00');
    expect(formatInstant(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
    expect(formatInstant(Date.parse('2026-03-28T12:00:00.250Z'), 'America/St_Johns')).toBe(
      '2026-03-28T09:30:00.250-02:30',
    );
    expect(formatInstant(Date.parse('2026-03-28T12:00:00Z'), 'UTC')).toBe('2026-03-28T12:00:00+00:00');
  });

  it('reads offsets in minutes', () => {
    expect(offsetMinutesAt(Date.parse('2026-03-28T12:00:00Z'), 'Asia/Kathmandu')).toBe(345);
    expect(offsetMinutesAt(Date.parse('2026-11-01T06:00:00Z'), 'America/New_York')).toBe(-300);
    expect(formatOffset(-150)).toBe('-02:30');
    expect(formatOffset(0)).toBe('+00:00');
  });

  it('reads wall times at midnight as hour 0, not 24', () => {
    expect(wallTimeAt(Date.parse('2026-03-27T23:00:00Z'), 'Europe/Berlin')).toEqual(wall('2026-03-28T00:00:00'));
  });

  it('keeps two-digit years as they are', () => {
    expect(new Date(wallTimeAsUtc(wall('0050-06-01T00:00:00'))).getUTCFullYear()).toBe(50);
    expect(formatCivilDate({ year: 50, month: 6, day: 1 })).toBe('0050-06-01');
  });

  it('adds months, clamping the day to the shorter month', () => {
    expect(addMonths({ year: 2026, month: 1, day: 31 }, 1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(addMonths({ year: 2028, month: 1, day: 31 }, 1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(addMonths({ year: 2026, month: 3, day: 15 }, -3)).toEqual({ year: 2025, month: 12, day: 15 });
  });

  it('numbers weekdays like Date#getDay', () => {
    expect(weekdayOf({ year: 2026, month: 3, day: 28 })).toBe(6);
    expect(weekdayOf({ year: 2026, month: 3, day: 29 })).toBe(0);
  });

  it('canonicalizes known zones and rejects unknown ones', () => {
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('Not/AZone')).toBeUndefined();
    expect(canonicalTimeZone(' ')).toBeUndefined();
  });
});
