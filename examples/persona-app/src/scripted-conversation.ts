import { ScriptedChatModel, type ChatMessage } from '@toolwright/core';

const lastToolContent = (messages: readonly ChatMessage[]): string => {
  const tool = [...messages].reverse().find((message) => message.role === 'tool');
  return tool && tool.role === 'tool' ? tool.content : '';
};

/**
 * The built-in scripted model for the demo (no network, no keys): it sends a relative date, reads the retry message,
 * calls resolve_relative_date, and uses the date it gets back, as a model that does not know today's date would.
 */
export function createScriptedPlanner(): ScriptedChatModel {
  return new ScriptedChatModel(
    [
      {
        text: 'Let me check your calendar.',
        toolCalls: [{ id: 'call_a', name: 'get_calendar_events', arguments: '{"resolved_datetimes": "tomorrow"}' }],
      },
      { toolCalls: [{ id: 'call_b', name: 'resolve_relative_date', arguments: '{"phrase": "tomorrow"}' }] },
      (messages) => {
        const resolved = JSON.parse(lastToolContent(messages)) as { date: string };
        return {
          toolCalls: [
            {
              id: 'call_c',
              name: 'get_calendar_events',
              arguments: `{"resolved_datetimes": ["${resolved.date}T09:00:00+01:00", "${resolved.date}T14:00:00"], "max_results": "5"}`,
            },
            {
              id: 'call_d',
              name: 'decision/propose',
              arguments: `{'question': 'Which slot for the review?', 'options': [{'label': '9:00', 'description': 'Before standup'}, {'label': '14:00', 'description': 'After lunch'}]}`,
            },
          ],
        };
      },
      { text: 'Tomorrow you have two events; I proposed a decision on the review slot.', toolCalls: [] },
    ],
    'scripted-planner',
  );
}
