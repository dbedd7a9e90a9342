import {
  ArrayOf,
  Command,
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  type CommandHandler,
  type Logger,
} from '@toolwright/core';

export class ScheduleMeetingParams {
  @ToolParam({ description: 'Meeting title', minLength: 1 })
  title!: string;

  @ArrayOf('string', { description: 'Attendee e-mail addresses', minItems: 1 })
  attendees!: string[];

  @ToolParam({ type: 'int', description: 'Length in minutes', min: 5, max: 480 })
  durationMinutes!: number;

  /** Trusted: filled from the execution context, never from the model. */
  @FromContext('session_id', { required: true })
  sessionId!: string;
}

@Command({
  name: 'schedule_meeting',
  description: 'Schedule a meeting for this session.',
  params: ScheduleMeetingParams,
})
export class ScheduleMeetingCommand implements CommandHandler<ScheduleMeetingParams> {
  execute(params: ScheduleMeetingParams) {
    return {
      scheduled: params.title,
      attendees: params.attendees,
      durationMinutes: params.durationMinutes,
      sessionId: params.sessionId,
    };
  }
}

/**
 * What the stubbed model sends: valid JSON whose values each framework's own validation refuses. A JSON string
 * where an array belongs, a snake_case key, a number as a string, and a session id the model has no right to set.
 */
export const MODEL_ARGUMENTS = JSON.stringify({
  title: 'Standup',
  attendees: '["ana@example.com","bo@example.com"]',
  duration_minutes: '30',
  session_id: 'forged-by-the-model',
});

/** Warnings (the dropped session id is a security event) go to stderr; the example's story goes to stdout. */
const stderrLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message, details) => process.stderr.write(`[toolwright] ${message} ${JSON.stringify(details ?? {})}\n`),
  error: (message, details) => process.stderr.write(`[toolwright] ${message} ${JSON.stringify(details ?? {})}\n`),
};

export function createExecutor(): PersonaToolExecutor {
  return new PersonaToolExecutor(ToolRegistry.from([ScheduleMeetingCommand]), { logger: stderrLogger });
}
