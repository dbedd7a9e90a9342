import { Command, FromContext, ToolParam, type CommandHandler } from '@toolwright/core';

export class GetCalendarEventsParams {
  @ToolParam({
    type: 'array<datetime>',
    description: 'Absolute ISO-8601 date-times (with offset) to look up',
    minItems: 1,
  })
  resolved_datetimes!: string[];

  @ToolParam({ type: 'int', description: 'Most events to return', min: 1, max: 50, required: false })
  max_results?: number;

  @ToolParam({ description: 'Include declined events', required: false })
  include_declined?: boolean;

  @FromContext('job_id')
  jobId?: string;
}

export interface CalendarEvent {
  readonly title: string;
  readonly start: string;
}

/** Seed command: the calendar lookup whose `resolved_datetimes` is `array<datetime>`. */
@Command({
  name: 'get_calendar_events',
  description: 'List calendar events at the given date-times.',
  params: GetCalendarEventsParams,
  tags: ['calendar'],
})
export class GetCalendarEventsCommand implements CommandHandler<GetCalendarEventsParams, CalendarEvent[]> {
  execute(params: GetCalendarEventsParams): CalendarEvent[] {
    const events = params.resolved_datetimes.map((start, index) => ({ title: `Event ${index + 1}`, start }));
    return events.slice(0, params.max_results ?? events.length);
  }
}
