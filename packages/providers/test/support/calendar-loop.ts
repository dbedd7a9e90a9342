/**
 * The tool-loop tests' ground: the seed's `get_calendar_events` (resolved_datetimes: array<datetime>) beside the
 * built-in `resolve_relative_date`, a fixed reference instant and zone, and the exact texts the model must receive.
 */
import {
  Command,
  ToolParam,
  ToolRegistry,
  registerRelativeDateTool,
  type ChatMessage,
  type ExecutionContext,
} from '@toolwright/core';

export class GetCalendarEventsParams {
  @ToolParam({ type: 'array<datetime>', description: 'Resolved ISO-8601 date-times with offset' })
  resolved_datetimes!: string[];
}

@Command({
  name: 'get_calendar_events',
  description: "List the user's calendar events at the given date-times.",
  params: GetCalendarEventsParams,
})
export class GetCalendarEventsCommand {
  execute(params: GetCalendarEventsParams): unknown {
    return {
      events: params.resolved_datetimes.map((start, index) => ({ id: `evt_${index + 1}`, title: 'Standup', start })),
    };
  }
}

/** A fresh registry: `get_calendar_events` and `resolve_relative_date`. */
export function calendarRegistry(): ToolRegistry {
  const registry = ToolRegistry.from([GetCalendarEventsCommand]);
  registerRelativeDateTool(registry);
  return registry;
}

export const CONTEXT: ExecutionContext = { now: new Date('2026-11-21T10:00:00Z'), timeZone: 'Europe/Berlin' };
export const SYSTEM = 'You are a scheduling assistant.';
export const QUESTION = 'What is on my calendar tomorrow?';
export const CONVERSATION: readonly ChatMessage[] = [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: QUESTION },
];

/** The executor's message for `resolved_datetimes: "tomorrow"` (the normalizer's refusal, pointing to resolve_relative_date). */
export const INVALID_ARGUMENTS_MESSAGE =
  'The arguments for "get_calendar_events" are invalid:\n' +
  '- "resolved_datetimes[0]" must be an ISO-8601 date-time with a UTC offset, but received "tomorrow": it is a relative phrase, not a date-time. ' +
  'Relative dates such as "tomorrow" are not accepted here: call resolve_relative_date with the phrase first, then use the date it returns. ' +
  'Example: "2026-01-31T09:00:00+01:00".\n' +
  'Fix these arguments and call "get_calendar_events" again.';
export const FIRST_RETRY = `${INVALID_ARGUMENTS_MESSAGE}\n(Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)`;
export const SECOND_RETRY = `${INVALID_ARGUMENTS_MESSAGE}\n(Attempt 2 failed; 1 retry left. Send the call again with corrected arguments.)`;
export const FINAL_ERROR = `${INVALID_ARGUMENTS_MESSAGE}\n(This call failed 3 times; no retries are left. Do not call this tool again with these arguments; answer the user with what you have.)`;
export const UNKNOWN_TOOL_RETRY =
  'There is no tool named "get_calendar_event". Did you mean "get_calendar_events"? Call one of the available tools by its exact name.\n' +
  '(Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)';

/** What `resolve_relative_date` returns for "tomorrow" at CONTEXT. */
export const RESOLUTION = {
  phrase: 'tomorrow',
  matched: 'tomorrow',
  kind: 'date',
  date: '2026-11-22',
  timeZone: 'Europe/Berlin',
  reference: '2026-11-21T11:00:00+01:00',
};
/** What `get_calendar_events` returns for the start of that day. */
export const EVENTS = { events: [{ id: 'evt_1', title: 'Standup', start: '2026-11-22T00:00:00+01:00' }] };
