/**
 * The reference's canonical tool (provider-formats.md §0.1), its canonical call arguments and result, and the
 * definition core builds from it through JSON Schema import.
 */
import { definitionFromJsonSchema, type ToolDefinition } from '@toolwright/core';

export const CANONICAL_NAME = 'get_calendar_events';
export const CANONICAL_DESCRIPTION =
  "List events from the user's calendar, optionally restricted to specific resolved date-times.";

export const CANONICAL_SCHEMA = {
  type: 'object',
  properties: {
    resolved_datetimes: {
      type: 'array',
      description: "ISO 8601 date-times (RFC 3339) already resolved from the user's request.",
      items: { type: 'string', format: 'date-time' },
    },
    calendar: { type: 'string', description: 'Which calendar to read.', enum: ['work', 'personal'] },
    max_results: {
      type: 'integer',
      description: 'Maximum number of events to return (1-50). Defaults to 10.',
      minimum: 1,
      maximum: 50,
      default: 10,
    },
    include_declined: { type: 'boolean', description: 'Whether to include events the user declined.' },
  },
  required: ['calendar'],
  additionalProperties: false,
} as const;

export const CANONICAL_ARGUMENTS = {
  resolved_datetimes: ['2026-11-23T09:00:00-05:00'],
  calendar: 'work',
  max_results: 5,
};

export const CANONICAL_RESULT = {
  events: [{ id: 'evt_1', title: 'Standup', start: '2026-11-23T09:00:00-05:00', end: '2026-11-23T09:15:00-05:00' }],
};

export function canonicalDefinition(): ToolDefinition {
  return definitionFromJsonSchema({
    name: CANONICAL_NAME,
    description: CANONICAL_DESCRIPTION,
    parameters: CANONICAL_SCHEMA,
  });
}
