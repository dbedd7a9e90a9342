import { ToolwrightError } from '../errors/toolwright-error';

/**
 * Why `resolveRelativeDate` refused:
 * - `UNRECOGNIZED_PHRASE`: no date or time was found in the phrase (or it was empty or too long);
 * - `AMBIGUOUS_PHRASE`: the phrase names several dates, a vague amount ("in a few days"), a time of day for a whole
 *   period ("next week at 9am") or a range that ends before it starts;
 * - `UNKNOWN_TIME_ZONE`: the time zone is not an IANA zone the runtime knows;
 * - `INVALID_REFERENCE`: the reference instant is not a valid date.
 */
export type RelativeDateErrorCode =
  'UNRECOGNIZED_PHRASE' | 'AMBIGUOUS_PHRASE' | 'UNKNOWN_TIME_ZONE' | 'INVALID_REFERENCE';

/**
 * A phrase, time zone or reference instant `resolveRelativeDate` cannot turn into a date. The message is written for
 * the model: what was not understood and examples of phrases that are.
 */
export class RelativeDateError extends ToolwrightError {
  readonly code: RelativeDateErrorCode;
  /** The argument at fault: the phrase, the time zone or the reference instant. */
  readonly argument: 'phrase' | 'timeZone' | 'now';
  /** What was received for that argument, as text. */
  readonly received: string;

  constructor(
    code: RelativeDateErrorCode,
    message: string,
    details: { readonly argument: 'phrase' | 'timeZone' | 'now'; readonly received: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.argument = details.argument;
    this.received = details.received;
  }
}
