import 'reflect-metadata';
import { instantAfter, readPhraseDuration } from '../../../src/builtins/relative-durations';

const HOUR = 3_600_000;

describe('readPhraseDuration', () => {
  it.each([
    ['in 2 hours', { months: 0, days: 0, milliseconds: 2 * HOUR }],
    ['3 days ago', { months: 0, days: -3, milliseconds: 0 }],
    ['in 1 day and 2 hours', { months: 0, days: 1, milliseconds: 2 * HOUR }],
    ['in about 1 day, 2 hours', { months: 0, days: 1, milliseconds: 2 * HOUR }],
    ['in 2 weeks 3 days', { months: 0, days: 17, milliseconds: 0 }],
    ['next hour', { months: 0, days: 0, milliseconds: HOUR }],
    ['next quarter', { months: 3, days: 0, milliseconds: 0 }],
    ['last 2 years', { months: -24, days: 0, milliseconds: 0 }],
    ['+2d', { months: 0, days: 2, milliseconds: 0 }],
    ['2h30m', { months: 0, days: 0, milliseconds: 2.5 * HOUR }],
    ['in half an hour', { months: 0, days: 0, milliseconds: HOUR / 2 }],
    ['in 1.5 hours', { months: 0, days: 0, milliseconds: 1.5 * HOUR }],
    ['a couple of hours ago', { months: 0, days: 0, milliseconds: -2 * HOUR }],
    ['an hour from now', { months: 0, days: 0, milliseconds: HOUR }],
  ])('%s', (text, expected) => {
    expect(readPhraseDuration(text)).toEqual(expected);
  });

  it.each([
    ['a fraction of a calendar unit', 'in 1.5 days'],
    ['a phrase that is more than a duration', 'the day after tomorrow'],
    ['a unit without an amount or direction', 'in hour'],
    ['a word that only contains a number word', 'in handful days'],
  ])('does not read %s', (_case, text) => {
    expect(readPhraseDuration(text)).toBeUndefined();
  });
});

describe('instantAfter', () => {
  const fromBerlinSaturdayNoon = Date.parse('2026-03-28T11:00:00Z');

  it('adds clock units as elapsed time', () => {
    expect(
      new Date(
        instantAfter(fromBerlinSaturdayNoon, { months: 0, days: 0, milliseconds: 24 * HOUR }, 'Europe/Berlin'),
      ).toISOString(),
    ).toBe('2026-03-29T11:00:00.000Z');
  });

  it('moves the calendar for days, keeping the wall time across a DST change (23 real hours here)', () => {
    expect(
      new Date(
        instantAfter(fromBerlinSaturdayNoon, { months: 0, days: 1, milliseconds: 0 }, 'Europe/Berlin'),
      ).toISOString(),
    ).toBe('2026-03-29T10:00:00.000Z');
  });
});
