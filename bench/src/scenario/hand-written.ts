import {
  NOT_JSON,
  NOT_JSON_OUTCOME,
  parseArguments,
  unknownToolOutcome,
  DURATION_MAX,
  DURATION_MIN,
  PRIORITIES,
  TITLE_MAX,
  TITLE_MIN,
  TOOL_NAME,
  TOOL_NAME_ASYNC,
  scheduleMeeting,
  type BenchCall,
  type Outcome,
  type ScheduleMeetingShape,
} from './shape';
import { isEmail, isOffsetDateTime } from './formats';

/**
 * The hand-written baseline: what a careful engineer writes for this one tool without a framework. A normalizer
 * (key spellings, a number sent as a string, an array sent as JSON text, a boolean sent as "true"), a check that
 * collects every problem with a model-facing sentence, a name -> handler map and the handler.
 */

export interface HandIssue {
  readonly path: string;
  readonly message: string;
}

export interface HandFix {
  readonly path: string;
  readonly rule: string;
  readonly from: unknown;
  readonly to: unknown;
}

const PRIORITY_SET: ReadonlySet<string> = new Set(PRIORITIES);
const FIELDS = ['priority', 'slots', 'durationMinutes', 'sendInvites', 'title', 'attendees'] as const;
type Field = (typeof FIELDS)[number];
const FIELD_SET: ReadonlySet<string> = new Set(FIELDS);
/** Lower-cased, separator-free spelling -> field (`duration_minutes`, `Duration-Minutes` -> `durationMinutes`). */
const CANONICAL: ReadonlyMap<string, Field> = new Map(FIELDS.map((field) => [field.toLowerCase(), field]));

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a primitive here (JSON.parse output): no object reaches this line
  if (value === null || typeof value !== 'object') return String(value);
  return 'an object';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fixes what models commonly get wrong for this tool; drops unknown keys; records every fix. */
export function normalizeScheduleMeeting(raw: unknown, fixes: HandFix[]): Record<string, unknown> | undefined {
  if (!isPlainObject(raw)) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    let field = key as Field;
    if (!FIELD_SET.has(key)) {
      const canonical = CANONICAL.get(key.replace(/[-_\s]/g, '').toLowerCase());
      if (canonical === undefined) {
        fixes.push({ path: key, rule: 'dropped-unknown-key', from: raw[key], to: undefined });
        continue;
      }
      fixes.push({ path: key, rule: 'key-spelling', from: key, to: canonical });
      field = canonical;
    }
    let value = raw[key];
    switch (field) {
      case 'durationMinutes':
        if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
          fixes.push({ path: field, rule: 'string-to-int', from: value, to: Number(value) });
          value = Number(value);
        }
        break;
      case 'sendInvites':
        if (value === 'true' || value === 'false') {
          fixes.push({ path: field, rule: 'string-to-bool', from: value, to: value === 'true' });
          value = value === 'true';
        }
        break;
      case 'slots':
      case 'attendees':
        if (typeof value === 'string' && value.trimStart().startsWith('[')) {
          try {
            const parsed: unknown = JSON.parse(value);
            if (Array.isArray(parsed)) {
              fixes.push({ path: field, rule: 'json-string-to-array', from: value, to: parsed });
              value = parsed;
            }
          } catch {
            // left as is: the check reports it
          }
        }
        break;
      default:
        break;
    }
    out[field] = value;
  }
  return out;
}

/** Every problem, each with a sentence for the model; `undefined` when the parameters are valid. */
export function checkScheduleMeeting(value: Record<string, unknown>): HandIssue[] | undefined {
  let issues: HandIssue[] | undefined;
  const fail = (path: string, expected: string, received: unknown) => {
    (issues ??= []).push({ path, message: `"${path}" must be ${expected}, but received ${describe(received)}.` });
  };
  const priority = value['priority'];
  if (typeof priority !== 'string' || !PRIORITY_SET.has(priority))
    fail('priority', 'one of "low", "normal", "high"', priority);

  const slots = value['slots'];
  if (!Array.isArray(slots)) fail('slots', 'an array of ISO-8601 date-times with a UTC offset', slots);
  else {
    for (let index = 0; index < slots.length; index++) {
      const slot: unknown = slots[index];
      if (typeof slot !== 'string' || !isOffsetDateTime(slot))
        fail(`slots[${index}]`, 'an ISO-8601 date-time with a UTC offset, e.g. "2026-11-21T09:00:00+01:00"', slot);
    }
  }

  const duration = value['durationMinutes'];
  if (
    typeof duration !== 'number' ||
    !Number.isInteger(duration) ||
    duration < DURATION_MIN ||
    duration > DURATION_MAX
  ) {
    fail('durationMinutes', `an integer from ${DURATION_MIN} to ${DURATION_MAX}`, duration);
  }

  const sendInvites = value['sendInvites'];
  if (typeof sendInvites !== 'boolean') fail('sendInvites', 'true or false', sendInvites);

  const title = value['title'];
  if (typeof title !== 'string' || title.length < TITLE_MIN || title.length > TITLE_MAX)
    fail('title', `a string of ${TITLE_MIN} to ${TITLE_MAX} characters`, title);

  const attendees = value['attendees'];
  if (!Array.isArray(attendees)) fail('attendees', 'an array of {email, optional} objects', attendees);
  else {
    for (let index = 0; index < attendees.length; index++) {
      const attendee: unknown = attendees[index];
      const path = `attendees[${index}]`;
      if (!isPlainObject(attendee)) {
        fail(path, 'an object with email and optionally optional', attendee);
        continue;
      }
      const email = attendee['email'];
      if (typeof email !== 'string' || !isEmail(email)) fail(`${path}.email`, 'an email address', email);
      const optional = attendee['optional'];
      if (optional !== undefined && optional !== null && typeof optional !== 'boolean')
        fail(`${path}.optional`, 'true or false', optional);
    }
  }
  return issues;
}

export function renderHandMessage(tool: string, issues: readonly HandIssue[]): string {
  const lines = issues.slice(0, 10).map((issue) => `- ${issue.message}`);
  if (issues.length > 10) lines.push(`- ... and ${issues.length - 10} more problems.`);
  return `The arguments for "${tool}" are invalid:\n${lines.join('\n')}\nFix these arguments and call "${tool}" again.`;
}

interface HandTool {
  readonly normalize: (raw: unknown, fixes: HandFix[]) => Record<string, unknown> | undefined;
  readonly check: (value: Record<string, unknown>) => HandIssue[] | undefined;
  readonly handler: (params: never) => unknown;
}

export const scheduleMeetingHandTool: HandTool = {
  normalize: normalizeScheduleMeeting,
  check: checkScheduleMeeting,
  handler: (params: ScheduleMeetingShape) => scheduleMeeting(params),
};

/** The hand-written pipeline: JSON text -> lookup -> normalize -> check (+ message) -> handler. */
export function handWrittenPipeline(tools: ReadonlyMap<string, HandTool>) {
  return async (call: BenchCall): Promise<Outcome & { fixes?: HandFix[] }> => {
    const tool = tools.get(call.name);
    if (tool === undefined) return unknownToolOutcome(call.name);
    const raw = parseArguments(call.arguments);
    if (raw === NOT_JSON) return NOT_JSON_OUTCOME;
    const fixes: HandFix[] = [];
    const params = tool.normalize(raw, fixes);
    if (params === undefined)
      return { ok: false, message: 'The arguments must be one JSON object of parameter names and values.' };
    const issues = tool.check(params);
    if (issues !== undefined) return { ok: false, message: renderHandMessage(call.name, issues) };
    const value: unknown = await (tool.handler as (params: Record<string, unknown>) => unknown)(params);
    return { ok: true, value, fixes };
  };
}

/** The same tool with an `async` handler. */
export const scheduleMeetingHandToolAsync: HandTool = {
  ...scheduleMeetingHandTool,
  handler: async (params: ScheduleMeetingShape) => scheduleMeeting(params),
};

export function handToolMap(extra: Iterable<[string, HandTool]> = []): Map<string, HandTool> {
  return new Map<string, HandTool>([
    ...extra,
    [TOOL_NAME, scheduleMeetingHandTool],
    [TOOL_NAME_ASYNC, scheduleMeetingHandToolAsync],
  ]);
}

export type { HandTool };

/** Hand-written entries for `count` other tools, for the registry-size cases (the name -> handler map is what grows). */
export function generateHandTools(count: number): [string, HandTool][] {
  return Array.from({ length: count }, (_, index): [string, HandTool] => [
    `tool_${index}`,
    { normalize: (raw) => raw as Record<string, unknown>, check: () => undefined, handler: () => index },
  ]);
}
