import { Command, DateTime, ToolParam } from '../decorators';
import { HandlerError } from '../errors/handler-error';
import { InvalidArgumentsError } from '../errors/invalid-arguments-error';
import type { ToolRegistry } from '../registry';
import type { ToolDefinition } from '../types/definition';
import type { ValidationIssue } from '../types/execution';
import type { ToolInvocationContext } from '../types/handler';
import { quote, RELATIVE_DATE_EXAMPLES, relativeDateSettingsMessage } from './messages';
import { MAX_RELATIVE_DATE_PHRASE_LENGTH, resolveRelativeDate, type RelativeDateResolution } from './relative-date';
import { RelativeDateError } from './relative-date-error';

/** The built-in tool's name, as the model calls it. */
export const RESOLVE_RELATIVE_DATE_TOOL_NAME = 'resolve_relative_date';

const GRANULARITIES = ['auto', 'date', 'datetime'] as const;

export class ResolveRelativeDateParams {
  @ToolParam({
    description: 'The date or time phrase to resolve, in English, e.g. "tomorrow at 9am", "next week", "in 3 days".',
    minLength: 1,
    maxLength: MAX_RELATIVE_DATE_PHRASE_LENGTH,
    examples: [...RELATIVE_DATE_EXAMPLES],
  })
  phrase!: string;

  @ToolParam({
    description:
      'IANA time zone to resolve the phrase in, e.g. "Europe/Berlin". Default: the user\'s time zone, else UTC.',
    required: false,
  })
  time_zone?: string;

  @DateTime({ description: 'The instant the phrase is relative to. Default: now.', required: false })
  reference?: string;

  @ToolParam({
    description: '"date" always returns a date, "datetime" always a date-time (a day starts at 00:00); default "auto".',
    type: 'string',
    enum: GRANULARITIES,
    required: false,
  })
  granularity?: (typeof GRANULARITIES)[number];
}

/**
 * `resolve_relative_date`: the model sends a phrase ("tomorrow at 9am") and gets an absolute date, date-time or range
 * to use in its next tool call. The time zone and reference instant come from the trusted execution context
 * (`timeZone`, `now`) unless the model gives them; without either, UTC and the current time. Opt in with
 * `registerRelativeDateTool(registry)`.
 */
@Command({
  name: RESOLVE_RELATIVE_DATE_TOOL_NAME,
  description:
    'Resolves a relative date phrase ("tomorrow at 9am", "next Monday", "in 3 days", "next week", "end of month") to an ' +
    'absolute date (YYYY-MM-DD), an ISO-8601 date-time with UTC offset, or a range. Call it before passing a date ' +
    'phrase to another tool, then use the returned date, datetime or start/end values. Ranges: start is inclusive, end ' +
    'exclusive; firstDate and lastDate are the first and last days.',
  params: ResolveRelativeDateParams,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
})
export class ResolveRelativeDateCommand {
  execute(params: ResolveRelativeDateParams, invocation: ToolInvocationContext): RelativeDateResolution {
    const { context } = invocation;
    const timeZone = params.time_zone ?? context.timeZone ?? 'UTC';
    const now = params.reference !== undefined ? new Date(params.reference) : (context.now ?? new Date());
    try {
      return resolveRelativeDate(params.phrase, { now, timeZone, granularity: params.granularity });
    } catch (error) {
      if (!(error instanceof RelativeDateError)) throw error;
      const parameter = parameterAtFault(error, params);
      // A bad zone or reference from the trusted context is the server's configuration, not something the model can fix.
      if (parameter === undefined) throw new HandlerError(relativeDateSettingsMessage(), { cause: error });
      throw new InvalidArgumentsError(error.message, { cause: error, issues: [issueFor(parameter, error)] });
    }
  }
}

/** Registers `resolve_relative_date` (opt-in: the tool is not registered anywhere by default). */
export function registerRelativeDateTool(registry: ToolRegistry): ToolDefinition {
  return registry.register(ResolveRelativeDateCommand);
}

type ModelParameter = 'phrase' | 'time_zone' | 'reference';

/** The model's argument that caused the error, or `undefined` when the value came from the execution context. */
function parameterAtFault(error: RelativeDateError, params: ResolveRelativeDateParams): ModelParameter | undefined {
  if (error.argument === 'phrase') return 'phrase';
  if (error.argument === 'timeZone') return params.time_zone !== undefined ? 'time_zone' : undefined;
  return params.reference !== undefined ? 'reference' : undefined;
}

const EXPECTED: Readonly<
  Record<ModelParameter, { readonly rule: string; readonly expected: string; readonly example: string }>
> = {
  phrase: { rule: 'relative-date', expected: 'an English date or time phrase', example: 'tomorrow at 9am' },
  time_zone: { rule: 'time-zone', expected: 'an IANA time zone name', example: 'Europe/Berlin' },
  reference: { rule: 'format', expected: 'an ISO-8601 date-time with a UTC offset', example: '2026-03-28T12:00:00Z' },
};

function issueFor(parameter: ModelParameter, error: RelativeDateError): ValidationIssue {
  const { rule, expected, example } = EXPECTED[parameter];
  return {
    path: parameter,
    rule,
    expected,
    received: quote(error.received),
    example: JSON.stringify(example),
    message: error.message,
  };
}
