/**
 * The seed's commands as decorated classes: `decision/propose` (options: array of {label, description,
 * proposedBy?}, at least 2) and `get_calendar_events` (resolved_datetimes: array<datetime>). Each has a trusted
 * context field, which must never reach a provider.
 */
import {
  ArrayOf,
  Command,
  FromContext,
  ToolParam,
  ToolRegistry,
  type CommandHandler,
  type ToolInvocationContext,
} from '@toolwright/core';

export class ProposalOption {
  @ToolParam({ description: 'Short name of the option' })
  label!: string;

  @ToolParam({ description: 'What choosing this option means' })
  description!: string;

  @ToolParam({ description: 'Who proposed the option', required: false })
  proposedBy?: string;
}

export class ProposeDecisionParams {
  @ToolParam({ description: 'The question to decide' })
  question!: string;

  @ArrayOf(() => ProposalOption, { description: 'The options to choose from', minItems: 2 })
  options!: ProposalOption[];

  @FromContext('session_id')
  sessionId?: string;
}

@Command({
  name: 'decision/propose',
  description: 'Propose a decision with at least two options.',
  params: ProposeDecisionParams,
})
export class ProposeDecisionCommand implements CommandHandler<ProposeDecisionParams, unknown> {
  execute(params: ProposeDecisionParams, invocation: ToolInvocationContext): unknown {
    return {
      question: params.question,
      options: params.options.map((option) => ({ label: option.label, proposedBy: option.proposedBy ?? null })),
      sessionId: params.sessionId ?? invocation.context.sessionId ?? null,
    };
  }
}

export class GetCalendarEventsParams {
  @ToolParam({ type: 'array<datetime>', description: 'Resolved ISO-8601 date-times with offset' })
  resolved_datetimes!: string[];

  @ToolParam({ type: 'int', description: 'Most events to return', min: 1, max: 50, required: false })
  max_results?: number;

  @ToolParam({ description: 'Include declined events', required: false })
  include_declined?: boolean;

  @FromContext('job_id')
  jobId?: string;
}

@Command({
  name: 'get_calendar_events',
  description: 'List calendar events at the given date-times.',
  params: GetCalendarEventsParams,
})
export class GetCalendarEventsCommand implements CommandHandler<GetCalendarEventsParams, unknown> {
  execute(params: GetCalendarEventsParams): unknown {
    const events = params.resolved_datetimes.map((start, index) => ({
      id: `evt_${index + 1}`,
      title: 'Standup',
      start,
    }));
    return {
      events: events.slice(0, params.max_results ?? events.length),
      includeDeclined: params.include_declined ?? false,
    };
  }
}

export function seedRegistry(): ToolRegistry {
  return ToolRegistry.from([ProposeDecisionCommand, GetCalendarEventsCommand]);
}
