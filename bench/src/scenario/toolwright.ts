import { IsEmail } from 'class-validator';
import { ArrayOf, Command, ToolParam } from '@toolwright/core';
import {
  DURATION_MAX,
  DURATION_MIN,
  PRIORITIES,
  TITLE_MAX,
  TITLE_MIN,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TOOL_NAME_ASYNC,
  scheduleMeeting,
  type Priority,
} from './shape';

/** The 6-field DTO as a toolwright command, written the way the docs show it. */
export class Attendee {
  @IsEmail()
  @ToolParam({ description: "The attendee's email address" })
  email!: string;

  @ToolParam({ description: 'Whether attendance is optional', required: false })
  optional?: boolean;
}

export class ScheduleMeetingParams {
  @ToolParam({ description: 'How urgent the meeting is', enum: PRIORITIES })
  priority!: Priority;

  @ArrayOf('datetime', { description: 'Proposed start times, most preferred first' })
  slots!: string[];

  @ToolParam({ type: 'int', min: DURATION_MIN, max: DURATION_MAX, description: 'Length in minutes' })
  durationMinutes!: number;

  @ToolParam({ description: 'Whether to email the invitations now' })
  sendInvites!: boolean;

  @ToolParam({ minLength: TITLE_MIN, maxLength: TITLE_MAX, description: 'The meeting title' })
  title!: string;

  @ArrayOf(() => Attendee, { description: 'Who to invite' })
  attendees!: Attendee[];
}

@Command({ name: TOOL_NAME, description: TOOL_DESCRIPTION, params: ScheduleMeetingParams })
export class ScheduleMeetingCommand {
  execute(params: ScheduleMeetingParams) {
    return scheduleMeeting(params);
  }
}

/** The same command with an `async` handler (what a handler doing I/O looks like). */
@Command({ name: TOOL_NAME_ASYNC, description: TOOL_DESCRIPTION, params: ScheduleMeetingParams })
export class ScheduleMeetingAsyncCommand {
  async execute(params: ScheduleMeetingParams) {
    return scheduleMeeting(params);
  }
}
