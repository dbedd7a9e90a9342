import 'reflect-metadata';
import { container as rootContainer } from 'tsyringe';
import { Command, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry } from '@toolwright/core';

/**
 * The warm-up builds its synthetic command with the default resolver over a child of tsyringe's root container (ADR
 * 0035). An application that resolves its commands otherwise may have disposed that root container: the warm-up's own
 * calls then fail, and `compileAll()` and the application's calls must not. In a file of its own: the root container of
 * this file's module registry stays disposed.
 */

class EchoParams {
  @ToolParam({ description: 'What to echo', minLength: 1 }) text!: string;
}

@Command({ name: 'echo', description: 'Echoes a text', params: EchoParams })
class EchoCommand {
  execute(params: EchoParams) {
    return params.text;
  }
}

describe('the warm-up with a disposed tsyringe root container', () => {
  it('leaves compileAll() and the application calls whole', async () => {
    await rootContainer.dispose();
    expect(() => rootContainer.createChildContainer()).toThrow();
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.register(EchoCommand);
    const executor = new PersonaToolExecutor(registry, {
      logger: silentLogger,
      resolveCommand: () => new EchoCommand(),
    });

    expect(executor.compileAll()).toBe(1);
    await expect(executor.execute({ id: 'e1', name: 'echo', arguments: '{"text": "hi"}' })).resolves.toMatchObject({
      ok: true,
      value: 'hi',
    });
  });
});
