import {
  ArrayOf,
  Command,
  FromContext,
  ToolParam,
  type CommandHandler,
  type ToolInvocationContext,
} from '@toolwright/core';

export class ProposalOption {
  @ToolParam({ description: 'Short name of the option', minLength: 1, maxLength: 80 })
  label!: string;

  @ToolParam({ description: 'What choosing this option means' })
  description!: string;

  @ToolParam({ description: 'Who proposed the option', required: false })
  proposedBy?: string;
}

export class ProposeDecisionParams {
  @ToolParam({ description: 'The question the team must decide', minLength: 3 })
  question!: string;

  @ArrayOf(() => ProposalOption, { description: 'The options to choose from', minItems: 2, maxItems: 6 })
  options!: ProposalOption[];

  @ToolParam({ type: 'datetime', description: 'When the decision closes', required: false })
  deadline?: string;

  @FromContext('session_id')
  sessionId?: string;
}

export interface Decision {
  readonly id: string;
  readonly question: string;
  readonly options: readonly string[];
  readonly deadline?: string;
  readonly sessionId?: string;
}

/** Seed command: put a decision with at least two options to the team. */
@Command({
  name: 'decision/propose',
  description: 'Propose a decision to the team with at least two options.',
  params: ProposeDecisionParams,
  tags: ['decisions'],
})
export class ProposeDecisionCommand implements CommandHandler<ProposeDecisionParams, Decision> {
  private static sequence = 0;

  execute(params: ProposeDecisionParams, invocation: ToolInvocationContext): Decision {
    ProposeDecisionCommand.sequence++;
    return {
      id: `decision-${ProposeDecisionCommand.sequence}`,
      question: params.question,
      options: params.options.map((option) => option.label),
      ...(params.deadline ? { deadline: params.deadline } : {}),
      sessionId: invocation.context.sessionId,
    };
  }
}
