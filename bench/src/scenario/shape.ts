/**
 * The 6-field DTO, in words, shared by every implementation in this folder: a meeting to schedule.
 *
 * | field | kind |
 * |---|---|
 * | priority | enum: low, normal, high |
 * | slots | array of ISO-8601 date-times with a UTC offset |
 * | durationMinutes | integer, 5 to 480 |
 * | sendInvites | boolean |
 * | title | string, 1 to 120 characters |
 * | attendees | array of `{ email, optional? }` objects (email format; optional is an optional boolean) |
 */
export const TOOL_NAME = 'schedule_meeting';
/** The same tool with an `async` handler (a class command whose `execute` is async; a JSON-Schema tool with an async handler). */
export const TOOL_NAME_ASYNC = 'schedule_meeting_async';
/** The same parameters registered as a JSON-Schema tool (from `registry.toJsonSchema(TOOL_NAME)`), sync and async handler. */
export const JSON_TOOL_NAME = 'schedule_meeting_json';
export const JSON_TOOL_NAME_ASYNC = 'schedule_meeting_json_async';
export const TOOL_DESCRIPTION = 'Schedule a meeting in one of the proposed slots and invite the attendees';

export const PRIORITIES = ['low', 'normal', 'high'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DURATION_MIN = 5;
export const DURATION_MAX = 480;
export const TITLE_MIN = 1;
export const TITLE_MAX = 120;

export interface AttendeeShape {
  email: string;
  optional?: boolean;
}

export interface ScheduleMeetingShape {
  priority: Priority;
  slots: string[];
  durationMinutes: number;
  sendInvites: boolean;
  title: string;
  attendees: AttendeeShape[];
}

/** What every implementation's handler does with valid parameters: the same tiny amount of work. */
export function scheduleMeeting(params: ScheduleMeetingShape): { slots: number; invited: number } {
  return { slots: params.slots.length, invited: params.attendees.length };
}

/** A tool call as providers deliver it: the arguments are JSON text. */
export interface BenchCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What every end-to-end pipeline returns: the handler's value, or the model-facing message. */
export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** The refusal for a name no tool has (every pipeline's first step). */
export const unknownToolOutcome = (name: string): Outcome => ({
  ok: false,
  message: `There is no tool named "${name}".`,
});

/** What `parseArguments` returns for text that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');
export const NOT_JSON_OUTCOME: Outcome = {
  ok: false,
  message: 'The arguments are not valid JSON; send one JSON object.',
};

/** JSON.parse of the arguments text, or `NOT_JSON` (no allocation beyond JSON.parse's on the way through). */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
