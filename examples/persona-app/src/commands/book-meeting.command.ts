import { Command, DateTime, ToolParam, type CommandHandler, type CrossFieldIssue } from '@toolwright/core';

export class BookMeetingParams {
  @DateTime({ description: 'When the meeting starts (ISO-8601 with offset)' })
  start!: string;

  @DateTime({ description: 'When the meeting ends (after start)' })
  end!: string;

  @ToolParam({
    description: 'A room to book; or give video_link instead',
    enum: ['Atlas', 'Borealis', 'Cosmos'],
    required: false,
  })
  room?: 'Atlas' | 'Borealis' | 'Cosmos';

  @ToolParam({ description: 'A video meeting link; or give room instead', format: 'uri', required: false })
  video_link?: string;
}

/**
 * The cross-field rules of book_meeting (a custom validator): they read several arguments at once, so no
 * single parameter can say them. They run after every per-field check passed, on the normalized parameters.
 */
export function bookMeetingRules(params: BookMeetingParams): CrossFieldIssue[] {
  const issues: CrossFieldIssue[] = [];
  if (Date.parse(params.end) <= Date.parse(params.start)) {
    issues.push({ paths: ['end', 'start'], message: `"end" (${params.end}) must be after "start" (${params.start}).` });
  }
  if ((params.room === undefined) === (params.video_link === undefined)) {
    issues.push({ paths: ['room', 'video_link'], message: 'Send exactly one of "room" or "video_link".' });
  }
  return issues;
}

export interface Booking {
  readonly start: string;
  readonly end: string;
  readonly where: string;
}

/** A command with cross-field rules: `@Command({ validate })`. */
@Command({
  name: 'book_meeting',
  description:
    'Book a meeting in a room or on a video link. Send exactly one of room or video_link; end must be after start.',
  params: BookMeetingParams,
  tags: ['calendar'],
  validate: bookMeetingRules,
})
export class BookMeetingCommand implements CommandHandler<BookMeetingParams, Booking> {
  execute(params: BookMeetingParams): Booking {
    return { start: params.start, end: params.end, where: params.room ?? params.video_link ?? '' };
  }
}
