/**
 * Every sentence the built-in tools write for the model. Each says what was not understood and shows phrases that
 * are, so the model can call again with one of them.
 */
const MAX_QUOTED_LENGTH = 80;

/** Phrases `resolve_relative_date` accepts, shown in its errors and its tool description. */
export const RELATIVE_DATE_EXAMPLES: readonly string[] = Object.freeze([
  'today',
  'tomorrow at 9am',
  'next Monday',
  'in 3 days',
  'in 2 hours',
  'next week',
  'end of month',
  'March 3rd 2027',
]);

/** A received text quoted for a message, clipped so a long input cannot flood it. */
export function quote(text: string): string {
  const clipped = text.length > MAX_QUOTED_LENGTH ? `${text.slice(0, MAX_QUOTED_LENGTH - 3)}...` : text;
  return JSON.stringify(clipped);
}

function examples(): string {
  return `Accepted phrases look like: ${RELATIVE_DATE_EXAMPLES.map((example) => `"${example}"`).join(', ')}.`;
}

export function emptyPhraseMessage(): string {
  return `The phrase is empty: send one date or time phrase. ${examples()}`;
}

export function phraseTooLongMessage(length: number, maximum: number): string {
  return `The phrase is ${length} characters long; the limit is ${maximum}. Send only the date or time phrase. ${examples()}`;
}

export function unrecognizedPhraseMessage(phrase: string): string {
  return `No date or time was understood in ${quote(phrase)}. Send an English date phrase. ${examples()}`;
}

export function severalDatesMessage(phrase: string, matches: readonly string[]): string {
  return (
    `${quote(phrase)} names ${matches.length} dates (${matches.map(quote).join(', ')}); ` +
    `resolve one phrase per call, e.g. ${quote(matches[0] ?? 'tomorrow')}.`
  );
}

export function vagueAmountMessage(phrase: string, matched: string): string {
  return `${quote(matched)} in ${quote(phrase)} is a vague amount; say an exact one, e.g. "in 3 days" or "in 2 weeks".`;
}

export function timeOfDayForPeriodMessage(phrase: string, matched: string): string {
  return `${quote(matched)} in ${quote(phrase)} gives a time of day for a whole period; name the day, e.g. "next Monday at 9am".`;
}

export function rangeEndsBeforeStartMessage(phrase: string, start: string, end: string): string {
  return `${quote(phrase)} is a range that ends (${end}) before it starts (${start}); give the start first, e.g. "from March 3 to March 5".`;
}

export function unknownTimeZoneMessage(timeZone: string): string {
  return `Unknown time zone ${quote(timeZone)}: use an IANA time zone name such as "Europe/Berlin", "America/New_York" or "UTC".`;
}

export function invalidReferenceMessage(received: string): string {
  return `The reference instant ${quote(received)} is not a valid date: use an ISO-8601 date-time with an offset, e.g. "2026-03-28T12:00:00Z".`;
}

export function relativeDateSettingsMessage(): string {
  return (
    'resolve_relative_date could not use the default time zone or reference time configured on the server. ' +
    'Call it again with "time_zone" (an IANA name such as "Europe/Berlin") and, if needed, "reference".'
  );
}
