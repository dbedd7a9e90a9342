import { isCanonicalDateTime } from '@toolwright/core/pipeline/value-rules';
import { daysInMonth } from '@toolwright/core/time/calendar';
import { seededRandom, type SeededRandom } from '../support/seeded-random';

/**
 * Issue 12: `isCanonicalDateTime` (the generated accept function's date-time check, and `toDateTime`'s first test)
 * checks every range in one regular expression and reads the month's length only for days 29 to 31, instead of a
 * shape-only expression followed by reading every field's digits. This is the check it replaced, kept as the
 * reference; both must answer the same for every string: edge cases (leap years, the last day of each month, 24:00,
 * 60 seconds, lower-case t and z, offsets without a colon or beyond 23:59, fractions of 0 to 10 digits, non-ASCII
 * digits, white space, line breaks) and a fixed-seed generator of near-misses.
 */

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
}

function referenceIsCanonicalDateTime(text: string): boolean {
  if (!RFC3339.test(text)) return false;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (twoDigits(text, 11) > 23 || twoDigits(text, 14) > 59 || twoDigits(text, 17) > 59) return false;
  const end = text.length;
  return text.charCodeAt(end - 1) === 90 /* Z */ || (twoDigits(text, end - 5) <= 23 && twoDigits(text, end - 2) <= 59);
}

const SEED = 0x2026_1126;
const GENERATED = 200_000;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const YEARS = [0, 1, 4, 100, 400, 1900, 1970, 2000, 2023, 2024, 2026, 2100, 2400, 9999];
const ODD_CHARACTERS = [
  '٣',
  '３',
  ' ',
  '\n',
  'T',
  't',
  'Z',
  'z',
  ':',
  '-',
  '+',
  '.',
  '/',
  'x',
  '0',
  '9',
  '\u0000',
  'é',
];

function dateTime(random: SeededRandom): string {
  const year = random.chance(0.5) ? random.pick(YEARS) : random.below(10_000);
  const month = random.chance(0.9) ? 1 + random.below(12) : random.pick([0, 13, 99]);
  const last = month >= 1 && month <= 12 ? daysInMonth(year, month) : 31;
  const day = random.chance(0.4) ? last + random.below(3) - 1 : random.below(33);
  const hour = random.chance(0.9) ? random.below(24) : random.pick([24, 25, 99]);
  const minute = random.chance(0.9) ? random.below(60) : random.pick([60, 61, 99]);
  const second = random.chance(0.9) ? random.below(60) : random.pick([60, 61, 99]);
  const fraction = random.chance(0.4) ? `.${'1234567890'.slice(0, random.below(11))}` : '';
  const offsetHours = random.chance(0.9) ? random.below(24) : random.pick([24, 25, 99]);
  const offsetMinutes = random.chance(0.9) ? random.pick([0, 30, 45, 59]) : random.pick([60, 99]);
  const sign = random.pick(['+', '-']);
  const offset = random.pick([
    'Z',
    'Z',
    'z',
    '',
    `${sign}${pad(offsetHours)}:${pad(offsetMinutes)}`,
    `${sign}${pad(offsetHours)}:${pad(offsetMinutes)}`,
    `${sign}${pad(offsetHours)}${pad(offsetMinutes)}`,
    `${sign}${pad(offsetHours)}`,
  ]);
  const separator = random.chance(0.9) ? 'T' : random.pick(['t', ' ', '_']);
  const seconds = random.chance(0.95) ? `:${pad(second)}` : '';
  let text = `${pad(year, 4)}-${pad(month)}-${pad(day)}${separator}${pad(hour)}:${pad(minute)}${seconds}${fraction}${offset}`;
  // A near-miss: one character replaced, inserted or removed.
  if (random.chance(0.3)) {
    const at = random.below(text.length + 1);
    const roll = random.below(3);
    if (roll === 0) text = text.slice(0, at) + random.pick(ODD_CHARACTERS) + text.slice(at + 1);
    else if (roll === 1) text = text.slice(0, at) + random.pick(ODD_CHARACTERS) + text.slice(at);
    else text = text.slice(0, at) + text.slice(at + 1);
  }
  return text;
}

const EDGE_CASES = [
  '2026-01-31T09:00:00+01:00',
  '2026-01-31T09:00:00Z',
  '2026-01-31T09:00:00.123456789Z',
  '2026-01-31T09:00:00.1234567890Z',
  '2026-01-31T09:00:00.Z',
  '2026-01-31t09:00:00Z',
  '2026-01-31T09:00:00z',
  '2026-01-31 09:00:00Z',
  '2026-01-31T09:00Z',
  '2026-01-31T24:00:00Z',
  '2026-01-31T23:59:60Z',
  '2026-01-31T23:60:00Z',
  '2026-01-31T09:00:00+24:00',
  '2026-01-31T09:00:00+23:60',
  '2026-01-31T09:00:00+23:59',
  '2026-01-31T09:00:00-00:00',
  '2026-01-31T09:00:00+0100',
  '2026-01-31T09:00:00+01',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '0000-02-29T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-12-31T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-00-01T00:00:00Z',
  '2026-01-00T00:00:00Z',
  '2026-01-32T00:00:00Z',
  '2026-01-31T09:00:00Z\n',
  ' 2026-01-31T09:00:00Z',
  '+2026-01-31T09:00:00Z',
  '٢٠٢٦-01-31T09:00:00Z',
  '２０２６-01-31T09:00:00Z',
  '2026-01-31T09:00:00+01:00:00',
  '2026-01-31T09:00:00+01:0',
  '2026-01-31T09:00:00.5+01:00',
  '2026/01/31T09:00:00Z',
  '2026-01-31T09-00-00Z',
  '',
  'Z',
  '2026-01-31',
  '2026-01-31T09:00:00',
  '2026-01-31T09:00:00+',
  '2026-01-31T09:00:00.',
];

describe('isCanonicalDateTime against the regular-expression check it replaced (issue 12)', () => {
  it.each(EDGE_CASES)('agrees on %j', (text) => {
    expect(isCanonicalDateTime(text)).toBe(referenceIsCanonicalDateTime(text));
  });

  it(`agrees on ${GENERATED.toLocaleString('en-US')} generated date-times and near-misses (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let index = 0; index < GENERATED; index++) {
      const text = dateTime(random);
      const expected = referenceIsCanonicalDateTime(text);
      if (expected) accepted++;
      if (isCanonicalDateTime(text) !== expected && disagreements.length < 10) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
    // Both answers are common, so agreeing is not trivial.
    expect(accepted).toBeGreaterThan(GENERATED / 10);
    expect(GENERATED - accepted).toBeGreaterThan(GENERATED / 10);
  });
});
