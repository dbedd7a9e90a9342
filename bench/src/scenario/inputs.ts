import { TOOL_NAME, type AttendeeShape, type BenchCall, type ScheduleMeetingShape } from './shape';

/** The inputs every implementation gets: the same JSON text, built once. */

const pad = (value: number) => String(value).padStart(2, '0');

export function slot(index: number): string {
  return `2026-${pad(1 + (index % 12))}-${pad(1 + (index % 28))}T${pad(8 + (index % 10))}:${pad((index * 15) % 60)}:00+01:00`;
}

export function attendee(index: number): AttendeeShape {
  const email = `user${index}@example.com`;
  return index % 3 === 0 ? { email, optional: true } : index % 3 === 1 ? { email } : { email, optional: false };
}

export function meeting(slots: number, attendees: number): ScheduleMeetingShape {
  return {
    priority: 'normal',
    slots: Array.from({ length: slots }, (_, index) => slot(index)),
    durationMinutes: 45,
    sendInvites: true,
    title: 'Quarterly planning',
    attendees: Array.from({ length: attendees }, (_, index) => attendee(index)),
  };
}

export function call(args: string, name = TOOL_NAME): BenchCall {
  return { id: 'call_1', name, arguments: args };
}

/** A typical valid call: 3 slots, 3 attendees. */
export const VALID = call(JSON.stringify(meeting(3, 3)));

/** Three problems: an enum value, an out-of-range integer, an invalid nested email. */
export const INVALID = call(
  JSON.stringify({
    ...meeting(3, 3),
    priority: 'urgent',
    durationMinutes: 600,
    attendees: [attendee(0), { email: 'bob-at-example' }, attendee(2)],
  }),
);
export const INVALID_PATHS = ['priority', 'durationMinutes', 'attendees[1].email'];

/** Valid after three fixes: a snake_case key, a number sent as a string, an array sent as JSON text. */
export const MALFORMED = (() => {
  const { durationMinutes: _duration, slots, ...rest } = meeting(3, 3);
  return call(JSON.stringify({ ...rest, duration_minutes: '45', slots: JSON.stringify(slots) }));
})();

export const ARRAY_SIZES = [10, 100, 1_000, 10_000] as const;
/** The size the per-item targets are read at (large enough to amortize the call, small enough that GC pauses do not decide it). */
export const ARRAY_ITEM_TARGET_SIZE = 1_000;

/** Both arrays empty: what the per-item costs are measured against. */
export const ARRAY_BASE = call(JSON.stringify(meeting(0, 0)));
export const scalarArrayCall = (items: number) => call(JSON.stringify(meeting(items, 0)));
export const nestedArrayCall = (items: number) => call(JSON.stringify(meeting(0, items)));

/**
 * Unreadable text: just under 1 MiB (the default size limit) of unclosed quotes, stray brackets and backslashes after
 * an opening `{"title": "` (seeded, the same text every run). Every path refuses it; toolwright's reader refuses it in
 * one linear pass (the reading search reads only texts of a tool call's usual size).
 */
export const UNREADABLE = (() => {
  const pieces = ['"', '"a', '{', '[', '}', ']', '\\', '\\"', ':', ',', ' ', 'x', '1', '\\n'];
  let state = 46;
  const parts = ['{"title": "'];
  let size = parts[0]!.length;
  while (size < 1024 * 1024 - 16) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const piece = pieces[(state >>> 16) % pieces.length]!;
    parts.push(piece);
    size += piece.length;
  }
  return call(parts.join(''));
})();

/** The typical valid call with one comma left out: toolwright reads it by the reading search (one reading). */
export const DAMAGED = (() => {
  const text = JSON.stringify(meeting(3, 3));
  const comma = text.indexOf(',"title"');
  return call(text.slice(0, comma) + text.slice(comma + 1));
})();
