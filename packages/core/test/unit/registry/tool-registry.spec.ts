import 'reflect-metadata';
import {
  Command,
  DefinitionError,
  ToolParam,
  ToolRegistry,
  UnknownToolError,
  buildCommandDefinition,
  defaultLogger,
  silentLogger,
  type Logger,
  type ToolDefinition,
  type ToolRegistryChange,
} from '@toolwright/core';

class RecordingLogger implements Logger {
  readonly entries: Array<{ level: string; message: string; details?: Record<string, unknown> }> = [];
  debug(message: string, details?: Record<string, unknown>) {
    this.entries.push({ level: 'debug', message, details });
  }
  info(message: string, details?: Record<string, unknown>) {
    this.entries.push({ level: 'info', message, details });
  }
  warn(message: string, details?: Record<string, unknown>) {
    this.entries.push({ level: 'warn', message, details });
  }
  error(message: string, details?: Record<string, unknown>) {
    this.entries.push({ level: 'error', message, details });
  }
}

class QuestionParams {
  @ToolParam() question!: string;
}

@Command({ name: 'decision/propose', description: 'Propose', params: QuestionParams })
class ProposeCommand {
  execute() {
    return 'first';
  }
}

@Command({ name: 'decision/propose', description: 'Propose again', params: QuestionParams })
class ProposeAgainCommand {
  execute() {
    return 'second';
  }
}

@Command({ name: 'math.factorial', description: 'Factorial', params: QuestionParams })
class FactorialCommand {
  execute() {
    return 1;
  }
}

describe('ToolRegistry', () => {
  it('from(): registers an explicit list, keeps names exactly, looks up by exact name', () => {
    const registry = ToolRegistry.from([ProposeCommand, FactorialCommand], { logger: silentLogger });
    expect(registry.size).toBe(2);
    expect(registry.has('decision/propose')).toBe(true);
    expect(registry.has('math.factorial')).toBe(true);
    expect(registry.has('decision_propose')).toBe(false);
    expect(registry.has('Decision/Propose')).toBe(false);
    expect(registry.get('decision/propose')).toBe(buildCommandDefinition(ProposeCommand));
    expect(registry.getEntry('math.factorial')).toStrictEqual({
      definition: buildCommandDefinition(FactorialCommand),
      implementation: { kind: 'class', command: FactorialCommand },
    });
    expect(registry.get('unknown')).toBeUndefined();
    expect(registry.getEntry('unknown')).toBeUndefined();
    expect(registry.list().map((definition) => definition.name)).toStrictEqual(['decision/propose', 'math.factorial']);
    expect(registry.entries().map((entry) => entry.implementation)).toStrictEqual([
      { kind: 'class', command: ProposeCommand },
      { kind: 'class', command: FactorialCommand },
    ]);
  });

  it('register() returns the built definition; the default logger is defaultLogger (stderr)', () => {
    const warn = jest.spyOn(defaultLogger, 'warn').mockImplementation(() => undefined);
    try {
      const registry = new ToolRegistry();
      expect(registry.register(ProposeCommand)).toBe(buildCommandDefinition(ProposeCommand));
      registry.register(ProposeAgainCommand);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('a duplicate name logs a warning and replaces the earlier tool, keeping its place (default onDuplicate: replace)', () => {
    const logger = new RecordingLogger();
    const registry = ToolRegistry.from([ProposeCommand, FactorialCommand], { logger });
    const versionBefore = registry.version;
    registry.register(ProposeAgainCommand);
    expect(logger.entries).toStrictEqual([
      {
        level: 'warn',
        message:
          'Tool "decision/propose" is registered twice: class ProposeAgainCommand replaces class ProposeCommand. ' +
          "Give one of them another name, or create the registry with { onDuplicate: 'error' } to make this an error.",
        details: { tool: 'decision/propose', previous: 'class', replacement: 'class' },
      },
    ]);
    expect(registry.get('decision/propose')?.description).toBe('Propose again');
    expect(registry.getEntry('decision/propose')?.implementation).toStrictEqual({
      kind: 'class',
      command: ProposeAgainCommand,
    });
    expect(registry.list().map((definition) => definition.name)).toStrictEqual(['decision/propose', 'math.factorial']);
    expect(registry.size).toBe(2);
    expect(registry.version).toBe(versionBefore + 1);
  });

  it('registering the same class twice is not a duplicate', () => {
    const logger = new RecordingLogger();
    const registry = ToolRegistry.from([ProposeCommand, ProposeCommand], { logger });
    expect(logger.entries).toStrictEqual([]);
    expect(registry.size).toBe(1);
  });

  it("onDuplicate: 'error' throws a DefinitionError naming both and keeps the first", () => {
    const registry = new ToolRegistry({ onDuplicate: 'error', logger: silentLogger });
    registry.register(ProposeCommand);
    expect(() => registry.register(ProposeAgainCommand)).toThrow(DefinitionError);
    expect(() => registry.register(ProposeAgainCommand)).toThrow(
      'class ProposeAgainCommand: a tool named "decision/propose" is already registered (class ProposeCommand). Fix: give one of the tools another name, or unregister the earlier one first.',
    );
    expect(registry.getEntry('decision/propose')?.implementation).toStrictEqual({
      kind: 'class',
      command: ProposeCommand,
    });
    expect(() => ToolRegistry.from([ProposeCommand, ProposeAgainCommand], { onDuplicate: 'error' })).toThrow(
      DefinitionError,
    );
  });

  it('version increments on every change; onChange reports each change until unsubscribed', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const changes: ToolRegistryChange[] = [];
    const stop = registry.onChange((change) => changes.push(change));
    expect(registry.version).toBe(0);
    registry.register(ProposeCommand);
    registry.register(ProposeAgainCommand);
    expect(registry.unregister('decision/propose')).toBe(true);
    expect(registry.unregister('decision/propose')).toBe(false);
    expect(registry.version).toBe(3);
    expect(changes).toStrictEqual([
      { type: 'registered', name: 'decision/propose', definition: buildCommandDefinition(ProposeCommand), version: 1 },
      {
        type: 'replaced',
        name: 'decision/propose',
        definition: buildCommandDefinition(ProposeAgainCommand),
        version: 2,
      },
      {
        type: 'unregistered',
        name: 'decision/propose',
        definition: buildCommandDefinition(ProposeAgainCommand),
        version: 3,
      },
    ]);
    stop();
    registry.register(FactorialCommand);
    expect(changes).toHaveLength(3);
    expect(registry.version).toBe(4);
    expect(registry.has('decision/propose')).toBe(false);
    expect(registry.size).toBe(1);
  });

  it('a listener that throws is logged; the change stands and other listeners still run', () => {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    const seen: string[] = [];
    registry.onChange(() => {
      throw new Error('listener broke');
    });
    registry.onChange((change) => seen.push(change.name));
    registry.register(FactorialCommand);
    expect(registry.has('math.factorial')).toBe(true);
    expect(seen).toStrictEqual(['math.factorial']);
    expect(logger.entries).toStrictEqual([
      {
        level: 'error',
        message: 'A registry change listener threw while tool "math.factorial" changed; the change itself was applied.',
        details: { tool: 'math.factorial', error: 'listener broke' },
      },
    ]);
  });

  it('registerDefinition: a function implementation, checked', () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const definition: ToolDefinition = {
      name: 'time.now',
      description: 'The time',
      parameters: { kind: 'object', properties: [], additionalProperties: false },
      options: {},
      source: { kind: 'compact', declaration: { command_name: 'time.now', parameters: [] } },
    };
    const handler = () => 'now';
    expect(registry.registerDefinition(definition, { kind: 'function', handler })).toBe(definition);
    expect(registry.getEntry('time.now')).toStrictEqual({ definition, implementation: { kind: 'function', handler } });
    expect(() => registry.registerDefinition(definition, { kind: 'function', handler: 'nope' as never })).toThrow(
      'tool "time.now": has an invalid implementation: the handler is not a function.',
    );
    expect(() =>
      registry.registerDefinition(definition, { kind: 'class', command: class NoExecute {} as never }),
    ).toThrow('tool "time.now": has an invalid implementation: the command class has no execute method.');
    expect(() => registry.registerDefinition({ ...definition, name: '' }, { kind: 'function', handler })).toThrow(
      'Cannot register the tool definition: its name is not a non-empty string.',
    );
  });

  it('register() refuses what is no command with the DefinitionError of the build', () => {
    class NotACommand {}
    expect(() => new ToolRegistry({ logger: silentLogger }).register(NotACommand)).toThrow(
      "NotACommand: is not decorated with @Command. Fix: add @Command({ name: 'tool_name', description: '...', params: XParams }) to the class.",
    );
  });

  it('toJsonSchema(name) for an unknown tool throws UnknownToolError without listing the registered tools', () => {
    const registry = ToolRegistry.from([ProposeCommand], { logger: silentLogger });
    let thrown: unknown;
    try {
      registry.toJsonSchema('secret/tool');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnknownToolError);
    expect((thrown as Error).message).toBe('Unknown tool "secret/tool": no tool with this name is registered.');
    expect((thrown as Error).message).not.toContain('decision/propose');
  });

  it('1,000 tools: every one found by exact name', () => {
    const commands = Array.from({ length: 1_000 }, (_, index) => {
      class IndexedCommand {
        execute() {
          return index;
        }
      }
      Command({ name: `tool/${index}`, description: `Tool ${index}`, params: QuestionParams })(IndexedCommand);
      return IndexedCommand;
    });
    const registry = ToolRegistry.from(commands, { logger: silentLogger });
    expect(registry.size).toBe(1_000);
    for (let index = 0; index < 1_000; index++) {
      expect(registry.getEntry(`tool/${index}`)?.implementation).toStrictEqual({
        kind: 'class',
        command: commands[index],
      });
    }
    expect(registry.list()[999]?.name).toBe('tool/999');
  });
});
