import { isCanonicalDate } from '@toolwright/core/rules/date';
import { isCanonicalDateTime } from '@toolwright/core/rules/date-time';
import { daysInMonth, isCalendarDate } from '@toolwright/core/time/calendar';
import { seededRandom, type SeededRandom } from '../support/seeded-random';
import { singleEdits } from '../support/single-edits';

/**
 * Issue 12: the generated accept function's date and date-time checks, each against the check it replaced.
 * `isCanonicalDateTime` (also `toDateTime`'s first test) is one regular expression that checks every range; the
 * reference is what it replaced, a shape-only expression followed by reading every field's digits
 * (`fieldsIsCanonicalDateTime`). `isCanonicalDate` is a char-code scanner; the reference is what it replaced,
 * `DATE.exec` and `isCalendarDate` of the three numbers (`expressionIsCanonicalDate`). Inputs: edge cases (leap years,
 * the last day of each month, 24:00, 60 seconds, lower-case t and z, offsets without a colon or beyond 23:59, fractions
 * of 0 to 10 digits, non-ASCII digits, white space, line breaks), every one-character edit of valid values (each
 * position, replaced, inserted or deleted, by digits, letters, punctuation, non-ASCII characters and lone surrogates),
 * every calendar, clock, offset, fraction and length boundary, and fixed-seed generators of near-misses.
 */

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
}

function fieldsIsCanonicalDateTime(text: string): boolean {
  if (!RFC3339.test(text)) return false;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (twoDigits(text, 11) > 23 || twoDigits(text, 14) > 59 || twoDigits(text, 17) > 59) return false;
  const end = text.length;
  return text.charCodeAt(end - 1) === 90 /* Z */ || (twoDigits(text, end - 5) <= 23 && twoDigits(text, end - 2) <= 59);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The implementation the scanner replaced, as it was (commit 2d6569e). */
function expressionIsCanonicalDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** `undefined` when both agree, else what each said. */
function disagreement(text: string): string | undefined {
  const checked = isCanonicalDateTime(text);
  const fields = fieldsIsCanonicalDateTime(text);
  return checked === fields ? undefined : `${JSON.stringify(text)}: isCanonicalDateTime ${checked}, fields ${fields}`;
}

/** `undefined` when both agree, else what each said. */
function dateDisagreement(text: string): string | undefined {
  const scanner = isCanonicalDate(text);
  const expression = expressionIsCanonicalDate(text);
  return scanner === expression ? undefined : `${JSON.stringify(text)}: scanner ${scanner}, expression ${expression}`;
}

/** Each text through a check and its disagreement: the first ten disagreements, the texts, and the check's yeses. */
function agreement(
  texts: Iterable<string>,
  check: (text: string) => boolean,
  disagrees: (text: string) => string | undefined,
): { found: string[]; count: number; accepted: number } {
  const found: string[] = [];
  let count = 0;
  let accepted = 0;
  for (const text of texts) {
    count++;
    if (check(text)) accepted++;
    const difference = disagrees(text);
    if (difference !== undefined && found.length < 10) found.push(difference);
  }
  return { found, count, accepted };
}

/** `count` texts made by `make` from one seeded stream. */
function* generated(seed: number, count: number, make: (random: SeededRandom) => string): Generator<string> {
  const random = seededRandom(seed);
  for (let index = 0; index < count; index++) yield make(random);
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
  const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}${separator}${pad(hour)}:${pad(minute)}${seconds}${fraction}${offset}`;
  return nearMiss(random, text, random.chance(0.7) ? 0 : 1 + random.below(3));
}

/** `text` with `edits` characters replaced, inserted or removed at random (a near-miss; none: the text). */
function nearMiss(random: SeededRandom, text: string, edits: number): string {
  let result = text;
  for (let edit = 0; edit < edits; edit++) {
    const at = random.below(result.length + 1);
    const roll = random.below(3);
    const character = random.chance(0.5) ? random.pick(ODD_CHARACTERS) : random.pick(EDIT_CHARACTERS);
    if (roll === 0) result = result.slice(0, at) + character + result.slice(at + 1);
    else if (roll === 1) result = result.slice(0, at) + character + result.slice(at);
    else result = result.slice(0, at) + result.slice(at + 1);
  }
  return result;
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

/** Valid date-times of every form (no fraction, fractions of 1 to 9 digits, Z, both signs) at the range limits. */
const VALID_BASES = [
  '2026-01-01T08:00:00+01:00',
  '2026-12-31T23:59:59Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999-23:59',
  '2024-02-29T12:30:45.5+00:00',
  '2000-02-29T00:00:00.123Z',
  '2026-04-30T10:00:00.123456-05:30',
  '2026-01-31T09:00:00.12345678+14:00',
  '1970-01-01T00:00:00.1234567Z',
  '2026-11-26T15:20:00.12-00:00',
];

/** Characters each edit tries: digits, the separators and their look-alikes, letters, white space, beyond ASCII. */
const EDIT_CHARACTERS = [
  ...'0123456789',
  ...'-:T.Z+tz ,/_x',
  '\t',
  '\n',
  '\u0000',
  '\u007f',
  'é',
  '٣', // ARABIC-INDIC DIGIT THREE
  '３', // FULLWIDTH DIGIT THREE
  '\u2212', // MINUS SIGN
  '\u2028',
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
  '\ud83d\ude00',
  '\uffff',
];

const ZONES = ['Z', 'z', '+01:00', '-23:59', '+0100', '+01', ''];

/** Every month/day boundary in leap and common years and centuries, every clock limit, offsets, fractions, lengths. */
function* boundaries(): Generator<string> {
  for (const year of [0, 1, 4, 100, 400, 1600, 1900, 2000, 2023, 2024, 2100, 2400, 9996, 9999]) {
    for (let month = 0; month <= 13; month++) {
      for (const day of [0, 1, 27, 28, 29, 30, 31, 32, 39, 40]) {
        for (const zone of ['Z', '+05:30']) yield `${pad(year, 4)}-${pad(month)}-${pad(day)}T12:00:00${zone}`;
      }
    }
  }
  for (const hour of [0, 9, 10, 19, 20, 23, 24, 29, 30, 99]) {
    for (const minute of [0, 59, 60, 99]) {
      for (const second of [0, 59, 60, 99]) yield `2026-06-15T${pad(hour)}:${pad(minute)}:${pad(second)}Z`;
    }
  }
  for (const sign of ['+', '-', '\u2212', ' ']) {
    for (let hour = 0; hour <= 30; hour++) {
      for (const minute of [0, 9, 10, 30, 45, 59, 60, 99]) {
        yield `2026-06-15T12:00:00${sign}${pad(hour)}:${pad(minute)}`;
        yield `2026-06-15T12:00:00.5${sign}${pad(hour)}${pad(minute)}`;
      }
    }
  }
  for (let digits = 0; digits <= 11; digits++) {
    for (const zone of ZONES) yield `2026-06-15T12:00:00${digits === 0 ? '' : '.'}${'7'.repeat(digits)}${zone}`;
    yield `2026-06-15T12:00:00.${'7'.repeat(digits)}Z`;
  }
  for (const separator of ['T', 't', ' ', '_', '']) {
    for (const zone of ZONES) yield `2026-06-15${separator}12:00:00${zone}`;
  }
  // Every length from empty to one past the longest form, cut from both ends of the longest and the shortest.
  for (const full of ['2026-06-15T12:00:00.123456789+01:00', '2026-06-15T12:00:00Z']) {
    for (let length = 0; length <= full.length; length++) {
      yield full.slice(0, length);
      yield full.slice(full.length - length);
    }
    yield `${full}0`;
    yield `${full}Z`;
    yield ` ${full}`;
  }
}

describe('isCanonicalDateTime against the check it replaced (issue 12)', () => {
  it.each(EDGE_CASES)('agrees on %j', (text) => {
    expect(disagreement(text)).toBeUndefined();
  });

  it('agrees on every one-character edit of valid date-times and on every boundary', () => {
    const { found, count, accepted } = agreement(
      [...singleEdits(VALID_BASES, EDIT_CHARACTERS), ...boundaries()],
      isCanonicalDateTime,
      disagreement,
    );
    expect(found).toEqual([]);
    expect(count).toBeGreaterThan(25_000);
    // Both answers are common, so agreeing is not trivial.
    expect(accepted).toBeGreaterThan(count / 20);
    expect(count - accepted).toBeGreaterThan(count / 2);
  });

  it(`agrees on ${GENERATED.toLocaleString('en-US')} generated date-times and near-misses (seed ${SEED})`, () => {
    const { found, accepted } = agreement(generated(SEED, GENERATED, dateTime), isCanonicalDateTime, disagreement);
    expect(found).toEqual([]);
    expect(accepted).toBeGreaterThan(GENERATED / 10);
    expect(GENERATED - accepted).toBeGreaterThan(GENERATED / 10);
  }, 60_000);
});

const VALID_DATES = ['2026-01-31', '2024-02-29', '2000-02-29', '0000-01-01', '9999-12-31', '1900-02-28', '2026-04-30'];

/** Every month and day boundary in leap and common years and centuries, and every length cut from a valid date. */
function* dateBoundaries(): Generator<string> {
  for (const year of [0, 1, 4, 100, 400, 1600, 1900, 2000, 2023, 2024, 2100, 2400, 9996, 9999]) {
    for (let month = 0; month <= 13; month++) {
      for (const day of [0, 1, 9, 10, 19, 20, 27, 28, 29, 30, 31, 32, 39, 40, 99]) {
        yield `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
      }
    }
  }
  for (const full of ['2026-01-31', '2024-02-29T00:00:00Z']) {
    for (let length = 0; length <= full.length; length++) {
      yield full.slice(0, length);
      yield full.slice(full.length - length);
    }
  }
  yield* ['2026-01-31\n', ' 2026-01-31', '2026-01-31 ', '+2026-01-31', '-2026-01-31', '20260-01-31', '2026-001-31'];
}

/** A date near the valid ones: any year, months and days around their limits, then 0-3 one-character edits. */
function date(random: SeededRandom): string {
  const year = random.chance(0.5) ? random.pick(YEARS) : random.below(10_000);
  const month = random.chance(0.9) ? 1 + random.below(12) : random.pick([0, 13, 19, 20, 99]);
  const last = month >= 1 && month <= 12 ? daysInMonth(year, month) : 31;
  const day = random.chance(0.4) ? last + random.below(3) - 1 : random.below(41);
  return nearMiss(random, `${pad(year, 4)}-${pad(month)}-${pad(day)}`, random.chance(0.6) ? 0 : 1 + random.below(3));
}

describe('isCanonicalDate against the check it replaced (issue 12)', () => {
  it('agrees on every one-character edit of valid dates, every boundary and the date-time cases', () => {
    const { found, count, accepted } = agreement(
      [
        ...singleEdits(VALID_DATES, EDIT_CHARACTERS),
        ...dateBoundaries(),
        ...EDGE_CASES,
        ...singleEdits(VALID_BASES, EDIT_CHARACTERS),
      ],
      isCanonicalDate,
      dateDisagreement,
    );
    expect(found).toEqual([]);
    expect(count).toBeGreaterThan(25_000);
    expect(accepted).toBeGreaterThan(1_000);
    expect(count - accepted).toBeGreaterThan(count / 2);
  });

  it(`agrees on ${GENERATED.toLocaleString('en-US')} generated dates and near-misses (seed ${SEED + 1})`, () => {
    const { found, accepted } = agreement(generated(SEED + 1, GENERATED, date), isCanonicalDate, dateDisagreement);
    expect(found).toEqual([]);
    expect(accepted).toBeGreaterThan(GENERATED / 10);
    expect(GENERATED - accepted).toBeGreaterThan(GENERATED / 10);
  }, 60_000);
});
