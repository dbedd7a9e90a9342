import { Injectable } from '@nestjs/common';
import { Command, DateOnly } from '@toolwright/core';
import { CalendarService } from '../services';

export class CalendarEventsParams {
  @DateOnly({ description: 'First day (YYYY-MM-DD)' }) from!: string;
  @DateOnly({ description: 'Day after the last one (YYYY-MM-DD)' }) to!: string;
}

@Injectable()
@Command({
  name: 'get_calendar_events',
  description: 'Lists the calendar events between two dates.',
  params: CalendarEventsParams,
})
export class CalendarEventsCommand {
  constructor(private readonly calendar: CalendarService) {}

  execute(params: CalendarEventsParams) {
    return { events: this.calendar.between(params.from, params.to) };
  }
}
