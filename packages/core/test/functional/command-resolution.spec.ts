import 'reflect-metadata';
import * as ts from 'typescript';
import { container, inject, injectable, singleton } from 'tsyringe';
import {
  Command,
  DefinitionError,
  EXECUTION_CONTEXT,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  TOOL_INVOCATION,
  tsyringeCommandResolver,
  type CommandResolver,
  type ExecutionContext,
  type ToolInvocationContext,
} from '@toolwright/core';

class NoParams {}

/** Counts what the resolver asks of a (real) tsyringe container. */
function observedContainer() {
  const scope = container.createChildContainer();
  const calls = { createChildContainer: 0, resolve: 0, isRegistered: 0 };
  for (const method of Object.keys(calls) as Array<keyof typeof calls>) {
    const original = (scope[method] as (...args: unknown[]) => unknown).bind(scope);
    (scope as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls[method]++;
      return original(...args);
    };
  }
  return { scope, calls };
}

function executorFor(commands: Function[], resolveCommand: CommandResolver) {
  return new PersonaToolExecutor(ToolRegistry.from(commands as never[], { logger: silentLogger }), {
    logger: silentLogger,
    resolveCommand,
  });
}

describe('tsyringeCommandResolver: one factory per command class', () => {
  it('constructs a command without constructor parameters with new: a fresh instance per call, no container call', async () => {
    const instances = new Set<object>();
    @Command({ name: 'plain', description: 'No dependencies', params: NoParams })
    class Plain {
      execute() {
        instances.add(this);
        return 'ok';
      }
    }
    const { scope, calls } = observedContainer();
    const executor = executorFor([Plain], tsyringeCommandResolver(scope));
    for (let index = 0; index < 5; index++)
      expect(await executor.execute({ id: `${index}`, name: 'plain', arguments: '{}' })).toMatchObject({
        ok: true,
        value: 'ok',
      });
    expect(instances.size).toBe(5);
    // Asked once, when the factory was built (is the class registered?), then never again; never a child container.
    expect(calls).toEqual({ createChildContainer: 0, resolve: 0, isRegistered: 1 });
  });

  it('resolves a command with dependencies from the container itself: the singleton dependency is shared, no child container', async () => {
    @singleton()
    class Store {
      readonly items: string[] = [];
    }
    @Command({ name: 'remember', description: 'Stores a word', params: NoParams })
    class Remember {
      constructor(private readonly store: Store) {}
      execute() {
        this.store.items.push('word');
        return this.store.items.length;
      }
    }
    const { scope, calls } = observedContainer();
    const executor = executorFor([Remember], tsyringeCommandResolver(scope));
    await executor.execute({ id: '1', name: 'remember', arguments: '{}' });
    const second = await executor.execute({ id: '2', name: 'remember', arguments: '{}' });
    expect(second).toMatchObject({ ok: true, value: 2 });
    expect(container.resolve(Store).items).toEqual(['word', 'word']);
    expect(calls.createChildContainer).toBe(0);
    expect(calls.resolve).toBe(4); // per call: the command, and tsyringe's own recursion for its Store
  });

  it('keeps a command registered in the container as the container says (a @singleton command is one instance)', async () => {
    const instances = new Set<object>();
    @singleton()
    @Command({ name: 'single', description: 'One instance', params: NoParams })
    class Single {
      execute() {
        instances.add(this);
        return instances.size;
      }
    }
    const executor = executorFor([Single], tsyringeCommandResolver());
    await executor.execute({ id: '1', name: 'single', arguments: '{}' });
    await executor.execute({ id: '2', name: 'single', arguments: '{}' });
    expect(instances.size).toBe(1);
  });

  it('makes a child container per call only for a command that injects the call (also through a service it constructs)', async () => {
    @injectable()
    class SessionGreeter {
      constructor(@inject(EXECUTION_CONTEXT) private readonly context: ExecutionContext) {}
      greet() {
        return `hello ${this.context.sessionId}`;
      }
    }
    @Command({ name: 'greet', description: 'Greets the session', params: NoParams })
    class Greet {
      constructor(
        private readonly greeter: SessionGreeter,
        @inject(TOOL_INVOCATION) private readonly invocation: ToolInvocationContext,
      ) {}
      async execute() {
        await new Promise((resolve) => setTimeout(resolve, 2));
        return `${this.greeter.greet()} (${this.invocation.callId})`;
      }
    }
    const { scope, calls } = observedContainer();
    const executor = executorFor([Greet], tsyringeCommandResolver(scope));
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        executor.execute({ id: `call-${index}`, name: 'greet', arguments: '{}' }, { sessionId: `session-${index}` }),
      ),
    );
    expect(results.map((result) => result.ok && result.value)).toEqual(
      Array.from({ length: 30 }, (_, index) => `hello session-${index} (call-${index})`),
    );
    expect(calls.createChildContainer).toBe(30);
  });
});

describe('the resolveCommand hook', () => {
  it('receives the command class and the invocation (with the trusted context); an async hook works', async () => {
    @Command({ name: 'who', description: 'Who calls', params: NoParams })
    class Who {
      constructor(readonly session: string) {}
      execute(_params: NoParams, invocation: ToolInvocationContext) {
        return `${this.session}/${invocation.context.sessionId}`;
      }
    }
    const seen: Array<[Function, string]> = [];
    const executor = executorFor([Who], async (commandClass, invocation) => {
      seen.push([commandClass, invocation.callId]);
      return new Who(`resolved-for-${invocation.context.sessionId}`);
    });
    const result = await executor.execute({ id: 'c1', name: 'who', arguments: '{}' }, { sessionId: 's1' });
    expect(result).toMatchObject({ ok: true, value: 'resolved-for-s1/s1' });
    expect(seen).toEqual([[Who, 'c1']]);
  });

  it('turns a resolver failure into HANDLER_ERROR without sending the cause to the model', async () => {
    @Command({ name: 'broken', description: 'Cannot be built', params: NoParams })
    class Broken {
      execute() {
        return 'never';
      }
    }
    const executor = executorFor([Broken], () => {
      throw new Error('secret wiring detail');
    });
    const result = await executor.execute({ id: 'c1', name: 'broken', arguments: '{}' });
    expect(result).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR' } });
    expect(JSON.stringify(result)).not.toContain('secret wiring detail');
  });
});

describe('registration: a command class that cannot be constructed reliably', () => {
  class Service {}

  it('refuses constructor parameters without design:paramtypes (as tsx or esbuild compile it), naming the class and the fix', () => {
    // Decorators applied by hand emit no design metadata: what esbuild produces for a decorated class.
    class CompiledByEsbuild {
      constructor(readonly service: Service) {}
      execute() {
        return this.service;
      }
    }
    Command({ name: 'esbuild_command', description: 'x', params: NoParams })(CompiledByEsbuild);
    const registry = new ToolRegistry({ logger: silentLogger });
    expect(() => registry.register(CompiledByEsbuild)).toThrow(DefinitionError);
    expect(() => registry.register(CompiledByEsbuild)).toThrow(
      /class CompiledByEsbuild: has 1 constructor parameter but no design:paramtypes.*Fix: .*emitDecoratorMetadata/,
    );
    expect(registry.size).toBe(0);
  });

  it('accepts the same class when every parameter names its token, or when another container covers it', () => {
    class WithTokens {
      constructor(
        readonly service: Service,
        readonly context: ExecutionContext,
      ) {}
      execute() {
        return 'ok';
      }
    }
    inject(Service)(WithTokens, undefined, 0);
    Command({ name: 'with_tokens', description: 'x', params: NoParams })(WithTokens);
    const registry = new ToolRegistry({ logger: silentLogger });
    expect(() => registry.register(WithTokens)).toThrow(/parameter 1 has no explicit token/);
    inject(EXECUTION_CONTEXT)(WithTokens, undefined, 1);
    expect(registry.register(WithTokens).name).toBe('with_tokens');
    const covered = new ToolRegistry({
      logger: silentLogger,
      commandClassCheck: { explicitlyInjected: () => new Set([0, 1]) },
    });
    class CoveredElsewhere {
      constructor(
        readonly service: Service,
        readonly other: Service,
      ) {}
      execute() {
        return 'ok';
      }
    }
    Command({ name: 'covered', description: 'x', params: NoParams })(CoveredElsewhere);
    expect(covered.register(CoveredElsewhere).name).toBe('covered');
  });

  /** Compiles `source` as TypeScript does without experimentalDecorators (TC39 decorators) and runs it. */
  function runAsStandardDecorators(source: string): Record<string, unknown> {
    const output = ts.transpileModule(source, {
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        experimentalDecorators: false,
      },
    });
    const moduleExports: Record<string, unknown> = {};
    new Function('require', 'exports', output.outputText)(require, moduleExports);
    return moduleExports;
  }

  it('refuses a command class decorated under TC39 decorators at registration, naming the class and the fix', () => {
    const compiled = runAsStandardDecorators(`
      import { Command } from '@toolwright/core';
      class Empty {}
      @Command({ name: 'standard', description: 'x', params: Empty })
      export class StandardCommand { execute() { return 1; } }
    `);
    const registry = new ToolRegistry({ logger: silentLogger });
    expect(() => registry.register(compiled['StandardCommand'] as never)).toThrow(DefinitionError);
    expect(() => registry.register(compiled['StandardCommand'] as never)).toThrow(
      /class StandardCommand: was decorated with standard \(TC39\) decorators.*Fix: set "experimentalDecorators": true/,
    );
  });

  it('refuses a parameter decorator applied as a TC39 decorator with a DefinitionError naming the property, not a TypeError', () => {
    let thrown: unknown;
    try {
      runAsStandardDecorators(`
        import { ToolParam } from '@toolwright/core';
        export class Params { @ToolParam({ type: 'string' }) email!: string; }
      `);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect((thrown as Error).message).toMatch(
      /@ToolParam on property "email" was applied as a standard \(TC39\) decorator.*Fix: set "experimentalDecorators": true/,
    );
  });
});

void ToolParam;
