import type { ExecutionContext, ToolCall } from '@toolwright/core';

export interface ReplayCall {
  /** What the model did, in words. */
  readonly title: string;
  readonly call: ToolCall;
  readonly context?: ExecutionContext;
}

const session: ExecutionContext = {
  sessionId: 'session-42',
  jobId: 'job-7',
  timeZone: 'Europe/Berlin',
  persona: { name: 'editor persona', permissions: ['publish'] },
  dataPackets: [
    { content: { title: 'Quarterly results', body: 'Revenue grew by twelve percent in the third quarter.' } },
  ],
};

/** Realistic tool calls as models send them, malformed in the ways the normalizer exists for. */
export const replayCalls: readonly ReplayCall[] = [
  {
    title: 'Options double-encoded as a JSON string, camelCase key sent in snake_case',
    call: {
      id: 'call_1',
      name: 'decision/propose',
      arguments: JSON.stringify({
        question: 'Which plan do we ship?',
        options: JSON.stringify([
          { label: 'Cheap', description: 'Low-cost plan', proposed_by: 'Ana' },
          { label: 'Fast', description: 'Ship this week' },
        ]),
      }),
    },
  },
  {
    title: 'Python literals in a fenced block, a number as a string, a boolean as "yes"',
    call: {
      id: 'call_2',
      name: 'get_calendar_events',
      arguments:
        "```json\n{'resolved_datetimes': ['2026-11-23T09:00:00+01:00'], 'max_results': '5', 'include_declined': 'yes',}\n```",
    },
  },
  {
    title: 'A single date-time where an array is expected, without an offset (the session has a time zone)',
    call: {
      id: 'call_3',
      name: 'functions.get_calendar_events',
      arguments: '{"resolved_datetimes": "2026-11-23 14:30"}',
    },
  },
  {
    title: 'A relative date: refused, pointing the model to resolve_relative_date',
    call: { id: 'call_4', name: 'get_calendar_events', arguments: '{"resolved_datetimes": "tomorrow"}' },
  },
  {
    title: 'The model tries to set the session id; title and content left to the pipeline data',
    call: {
      id: 'call_5',
      name: 'publish_article',
      arguments: { channel: 'Newsletter', session_id: 'attacker-session', publish_now: 'true' },
    },
  },
  {
    title: 'Only one option, an integer with a fraction, and an unknown key',
    call: {
      id: 'call_6',
      name: 'decision/propose',
      arguments: '{"question": "Ship?", "options": [{"label": "Yes", "description": "Ship it"}], "priority": 2}',
    },
  },
  {
    title: 'Arguments cut off mid-object',
    call: {
      id: 'call_7',
      name: 'get_calendar_events',
      arguments: '{"resolved_datetimes": ["2026-11-23T09:00:00+01:00", "2026-11-2',
    },
  },
  {
    title: 'The same key twice with different values (JSON.parse would silently keep the last): refused',
    call: {
      id: 'call_10',
      name: 'get_calendar_events',
      arguments: '{"resolved_datetimes": ["2026-11-23T09:00:00+01:00"], "max_results": 5, "max_results": 50}',
    },
  },
  {
    title: 'A Python triple-quoted title with quotes inside (a repair library empties it): read as written',
    call: {
      id: 'call_11',
      name: 'publish_article',
      arguments: '{"channel": "blog", "title": """Q3: a "record" quarter"""}',
    },
  },
  {
    title: 'The whole call wrapped inside the arguments, OpenAI style: unwrapped because it names this tool',
    call: {
      id: 'call_12',
      name: 'get_calendar_events',
      arguments: JSON.stringify({
        id: 'call_12',
        type: 'function',
        function: { name: 'get_calendar_events', arguments: '{"resolved_datetimes": ["2026-11-23T09:00:00+01:00"]}' },
      }),
    },
  },
  {
    title: 'A tool name that does not exist',
    call: { id: 'call_8', name: 'get_calender_event', arguments: '{}' },
  },
  {
    title: 'A persona without the publish permission',
    call: { id: 'call_9', name: 'publish_article', arguments: '{"channel": "blog"}' },
    context: { ...session, persona: { name: 'research persona', permissions: [] } },
  },
].map((entry) => ({ context: session, ...entry }));
