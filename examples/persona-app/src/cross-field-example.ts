import {
  PersonaToolExecutor,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolRegistry,
  type ToolLoopResult,
  type ToolLoopStep,
} from '@toolwright/core';
import { BookMeetingCommand } from './commands/book-meeting.command';

/**
 * The cross-field example for the demo: the scripted model books a meeting whose end is before its start and that
 * names both a room and a video link; the executor answers with both rules in one INVALID_ARGUMENTS message (counted
 * as an attempt by the tool loop); the model fixes the call and it runs.
 */
export function createMeetingPlanner(): ScriptedChatModel {
  return new ScriptedChatModel(
    [
      {
        text: 'Booking the review.',
        toolCalls: [
          {
            id: 'call_m1',
            name: 'book_meeting',
            arguments:
              '{"start": "2026-11-23T15:00:00+01:00", "end": "2026-11-23T14:00:00+01:00", "room": "atlas", "video_link": "https://meet.example.com/review"}',
          },
        ],
      },
      {
        toolCalls: [
          {
            id: 'call_m2',
            name: 'book_meeting',
            arguments: '{"start": "2026-11-23T14:00:00+01:00", "end": "2026-11-23T15:00:00+01:00", "room": "Atlas"}',
          },
        ],
      },
      { text: 'The review is booked in Atlas from 14:00 to 15:00.', toolCalls: [] },
    ],
    'scripted-meeting-planner',
  );
}

export async function runCrossFieldExample(
  options: { readonly onStep?: (step: ToolLoopStep) => void } = {},
): Promise<ToolLoopResult> {
  const executor = new PersonaToolExecutor(ToolRegistry.from([BookMeetingCommand], { logger: silentLogger }), {
    logger: silentLogger,
  });
  return runToolLoop({
    model: createMeetingPlanner(),
    executor,
    messages: [{ role: 'user', content: 'Book the review tomorrow 14:00 to 15:00 in Atlas.' }],
    logger: silentLogger,
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
}
