import 'reflect-metadata';
import { Command, type ToolInvocationContext } from '@toolwright/core';
import { COMMAND_METADATA, getCommandMetadata } from '@toolwright/core/internal';

describe('command metadata: what @Command writes', () => {
  class Params {}

  it('stores { target, options } exactly as given on the class, under Symbol.for("toolwright:command")', () => {
    @Command({
      name: 'decision/propose',
      description: 'Propose a decision',
      params: Params,
      timeoutMs: 5_000,
      tags: ['decisions'],
    })
    class ProposeCommand {
      execute(_params: Params, _invocation: ToolInvocationContext) {
        return 'ok';
      }
    }
    expect(COMMAND_METADATA).toBe(Symbol.for('toolwright:command'));
    expect(getCommandMetadata(ProposeCommand)).toStrictEqual({
      target: ProposeCommand,
      options: {
        name: 'decision/propose',
        description: 'Propose a decision',
        params: Params,
        timeoutMs: 5_000,
        tags: ['decisions'],
      },
    });
    expect(Reflect.getOwnMetadata(COMMAND_METADATA, ProposeCommand)).toBe(getCommandMetadata(ProposeCommand));
    expect(Object.isFrozen(getCommandMetadata(ProposeCommand))).toBe(true);
    expect(Object.isFrozen(getCommandMetadata(ProposeCommand)?.options)).toBe(true);
  });

  it('a subclass without its own @Command sees the nearest decorated ancestor; its own @Command wins', () => {
    @Command({ name: 'base', description: 'Base' })
    class BaseCommand {
      execute() {
        return 1;
      }
    }
    class InheritingCommand extends BaseCommand {}
    @Command({ name: 'own', description: 'Own' })
    class OwnCommand extends BaseCommand {}
    expect(getCommandMetadata(InheritingCommand)).toStrictEqual({
      target: BaseCommand,
      options: { name: 'base', description: 'Base' },
    });
    expect(getCommandMetadata(OwnCommand)).toStrictEqual({
      target: OwnCommand,
      options: { name: 'own', description: 'Own' },
    });
  });

  it('is undefined for a class without @Command', () => {
    class Plain {}
    expect(getCommandMetadata(Plain)).toBeUndefined();
  });
});
