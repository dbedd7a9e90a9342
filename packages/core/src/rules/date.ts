import { isCalendarDate } from '../time/calendar';
import { CHANGED, KEEP, REFUSED, invalid, refuse, valid, type LabelledValue, type RuleOutcome } from './outcome';

/**
 * The date kind (`YYYY-MM-DD`, JSON Schema `format: date`): its canonical test, its repair, its words for the model,
 * its JSON Schema and its edge cases. The one definition every engine reads.
 */

export const DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A date followed by a time of day in any of the forms the date-time rule reads (to say what is wrong). */
const WITH_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/;
const RELATIVE_WORDS =
  /\b(today|tomorrow|yesterday|tonight|now|next|last|this|ago|in \d+|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|afternoon|evening|noon|midnight|hours?|minutes?|days?)\b/i;

/** A relative phrase (`tomorrow`, `next monday`): refused with a hint to resolve it first. */
export function looksRelative(text: string): boolean {
  return !/\d{4}-\d{2}-\d{2}/.test(text) && RELATIVE_WORDS.test(text);
}

const HYPHEN = 0x2d;
const ZERO = 0x30;

/**
 * The canonical test: `YYYY-MM-DD` exactly (ASCII digits, no white space), on a day that exists. The same answer as
 * {@link isDateOnly}, as character codes: no match array, no `Number` of three slices (the shared walk's hot path).
 */
export function isCanonicalDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== HYPHEN || text.charCodeAt(7) !== HYPHEN) return false;
  const year1 = text.charCodeAt(0) - ZERO;
  const year2 = text.charCodeAt(1) - ZERO;
  const year3 = text.charCodeAt(2) - ZERO;
  const year4 = text.charCodeAt(3) - ZERO;
  const month1 = text.charCodeAt(5) - ZERO;
  const month2 = text.charCodeAt(6) - ZERO;
  const day1 = text.charCodeAt(8) - ZERO;
  const day2 = text.charCodeAt(9) - ZERO;
  if (
    year1 >>> 0 > 9 ||
    year2 >>> 0 > 9 ||
    year3 >>> 0 > 9 ||
    year4 >>> 0 > 9 ||
    month1 >>> 0 > 9 ||
    month2 >>> 0 > 9 ||
    day1 >>> 0 > 9 ||
    day2 >>> 0 > 9
  )
    return false;
  return isCalendarDate(((year1 * 10 + year2) * 10 + year3) * 10 + year4, month1 * 10 + month2, day1 * 10 + day2);
}

/** A calendar date `YYYY-MM-DD` that exists (`2026-02-30` does not): what a value of the kind must be. */
export function isDateOnly(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_FORM.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** The repair: surrounding white space trimmed (`trimmed-whitespace`); nothing else. */
export function toDate(value: unknown): RuleOutcome {
  if (typeof value !== 'string') return REFUSED;
  const text = value.trim();
  const match = DATE_FORM.exec(text);
  if (match) {
    if (!isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])))
      return refuse('it is not a calendar date');
    return text === value ? KEEP(value) : CHANGED(text, 'trimmed-whitespace');
  }
  if (WITH_TIME.test(text))
    return refuse('it has a time of day; send only the date part as YYYY-MM-DD if that is what you mean');
  if (looksRelative(text)) return refuse('it is a relative phrase, not a date', true);
  return REFUSED;
}

/** What the model is told, and an example that satisfies the rule. */
export const DATE_DESCRIPTION = 'a date as YYYY-MM-DD';
export const DATE_EXAMPLE = '2026-01-31';

/** JSON Schema export and provider lowering: a string with `format: date` (every provider takes the format). */
export const DATE_JSON_SCHEMA = { type: 'string', format: 'date' } as const;

/** The kind's edge cases: 29-31 February in leap and common years, month and day bounds, forms that are not dates. */
export function dateEdgeCases(): LabelledValue[] {
  const cases: LabelledValue[] = [];
  for (const [year, leap] of [
    [2024, true],
    [2026, false],
    [2000, true],
    [1900, false],
  ] as const)
    for (const day of [28, 29, 30, 31])
      cases.push(
        day === 28 || (day === 29 && leap)
          ? valid(`${year}-02-${day}`, `February ${day}, ${leap ? 'leap' : 'common'} year`)
          : invalid(`${year}-02-${day}`, `February ${day}, ${leap ? 'leap' : 'common'} year`),
      );
  cases.push(
    valid('2026-01-31', 'January 31'),
    invalid('2026-04-31', 'April 31'),
    valid('2026-12-31', 'the last day of the year'),
    invalid('2026-13-01', 'month 13'),
    invalid('2026-00-10', 'month 00'),
    invalid('2026-01-00', 'day 00'),
    valid('0000-01-01', 'year 0000'),
    invalid('2026-1-01', 'a one-digit month'),
    invalid(' 2026-01-31', 'leading white space'),
    invalid('2026-01-31T09:00:00Z', 'a date-time'),
    invalid('\uFF12026-01-31', 'a fullwidth digit'),
    invalid('2026-01-3\u0661', 'an Arabic-Indic digit'),
    invalid('tomorrow', 'a relative phrase'),
    invalid(20260131, 'a number'),
  );
  return cases;
}
