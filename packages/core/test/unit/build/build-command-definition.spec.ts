import 'reflect-metadata';
import { ArrayOf, Command, ToolParam, buildCommandDefinition, type ToolInvocationContext } from '@toolwright/core';

describe('buildCommandDefinition: the exact ToolDefinition of a @Command class', () => {
  class ProposalOption {
    @ToolParam() label!: string;
    @ToolParam() description!: string;
    @ToolParam({ required: false }) proposedBy?: string;
  }
  class ProposeParams {
    @ToolParam({ description: 'The question' }) question!: string;
    @ArrayOf(() => ProposalOption, { minItems: 2 }) options!: ProposalOption[];
  }

  it('name kept exactly, description, parameters, every tool option, source', () => {
    const tags = ['decisions'];
    @Command({
      name: 'decision/propose',
      description: 'Propose a decision with options',
      params: ProposeParams,
      title: 'Propose',
      aliases: ['propose_decision'],
      timeoutMs: 5_000,
      slowCallMs: 500,
      tags,
      permissions: ['decisions:write'],
      coercion: 'lenient',
      retries: 1,
      annotations: { readOnlyHint: false, idempotentHint: true },
    })
    class ProposeCommand {
      execute(params: ProposeParams, _invocation: ToolInvocationContext) {
        return params.options.length;
      }
    }
    const definition = buildCommandDefinition(ProposeCommand);
    const option = (name: string, required = true) => ({ name, schema: { kind: 'string' }, required, aliases: [] });
    expect(definition).toStrictEqual({
      name: 'decision/propose',
      description: 'Propose a decision with options',
      parameters: {
        kind: 'object',
        name: 'ProposeParams',
        properties: [
          { name: 'question', schema: { kind: 'string', description: 'The question' }, required: true, aliases: [] },
          {
            name: 'options',
            schema: {
              kind: 'array',
              items: {
                kind: 'object',
                name: 'ProposalOption',
                properties: [option('label'), option('description'), option('proposedBy', false)],
                additionalProperties: false,
                dto: ProposalOption,
              },
              minItems: 2,
            },
            required: true,
            aliases: [],
          },
        ],
        additionalProperties: false,
        dto: ProposeParams,
      },
      options: {
        title: 'Propose',
        aliases: ['propose_decision'],
        timeoutMs: 5_000,
        slowCallMs: 500,
        tags: ['decisions'],
        permissions: ['decisions:write'],
        coercion: 'lenient',
        retries: 1,
        annotations: { readOnlyHint: false, idempotentHint: true },
      },
      source: { kind: 'class', command: ProposeCommand, params: ProposeParams },
    });
    expect(buildCommandDefinition(ProposeCommand)).toBe(definition);
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.options.tags)).toBe(true);
    expect(Object.isFrozen(tags)).toBe(false);
    expect(Object.isFrozen(definition.source)).toBe(true);
    expect(Object.isFrozen(ProposeCommand)).toBe(false);
  });

  it('options holds only the tool options that were given', () => {
    @Command({ name: 'math.factorial', description: 'Factorial', params: ProposeParams })
    class FactorialCommand {
      execute() {
        return 1;
      }
    }
    expect(buildCommandDefinition(FactorialCommand).options).toStrictEqual({});
  });

  it('reads the DTO from execute parameter types when execute carries a decorator', () => {
    const Traced: MethodDecorator = () => undefined;
    @Command({ name: 'decision/propose', description: 'Propose' })
    class InferredCommand {
      @Traced
      execute(params: ProposeParams, _invocation: ToolInvocationContext) {
        return params.question;
      }
    }
    const definition = buildCommandDefinition(InferredCommand);
    expect(definition.source).toStrictEqual({ kind: 'class', command: InferredCommand, params: ProposeParams });
    expect(definition.parameters.dto).toBe(ProposeParams);
  });

  it('a subclass command inherits the @Command of its parent and its execute', () => {
    @Command({ name: 'base', description: 'Base', params: ProposeParams })
    class BaseCommand {
      execute() {
        return 'base';
      }
    }
    class DerivedCommand extends BaseCommand {}
    expect(buildCommandDefinition(DerivedCommand)).toMatchObject({
      name: 'base',
      source: { kind: 'class', command: DerivedCommand, params: ProposeParams },
    });
  });
});
