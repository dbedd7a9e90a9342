import { timeOfDayProblem } from './date-time';
import { invalid, valid, type LabelledValue } from './outcome';

/**
 * The time kind (JSON Schema `format: time`, RFC 3339 `full-time`: `HH:MM:SS`, an optional fraction, then `Z` or an
 * offset): a string parameter with this format. Its ranges are the date-time rule's (`timeOfDayProblem`): hours to 23,
 * minutes and seconds to 59 (second 60 refused, as for a date-time), an offset to +-23:59.
 */
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** The canonical test (no repair: a time is a string, kept as sent or refused). */
export function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  return (
    timeOfDayProblem(
      Number(match[1]),
      Number(match[2]),
      Number(match[3]),
      Number(match[5] ?? 0),
      Number(match[6] ?? 0),
    ) === undefined
  );
}

export const TIME_DESCRIPTION = 'a time of day as HH:MM:SS with a UTC offset';
export const TIME_EXAMPLE = '09:00:00+01:00';

/** The kind's edge cases. */
export function timeEdgeCases(): LabelledValue[] {
  return [
    valid('09:00:00Z', 'UTC'),
    valid('23:59:59+23:59', 'the last second, the largest offset'),
    valid('00:00:00.123456789-23:59', 'a nine-digit fraction'),
    invalid('23:59:60Z', 'second 60'),
    invalid('24:00:00Z', 'hour 24'),
    invalid('09:00:00+24:00', 'offset +24:00'),
    invalid('09:00:00+99:99', 'offset +99:99'),
    invalid('09:00:00', 'no offset'),
    invalid('09:00Z', 'no seconds'),
    invalid('9:00:00Z', 'a one-digit hour'),
    invalid('09:00:00z', 'a lower-case z'),
    invalid('09:00:00Z\u200B', 'a trailing zero-width space'),
  ];
}
