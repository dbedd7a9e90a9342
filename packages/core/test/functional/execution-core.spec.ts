import 'reflect-metadata';
import {
  Command,
  PersonaToolExecutor,
  TimeoutError,
  ToolRegistry,
  silentLogger,
  type ToolHandler,
  type ToolInvocationContext,
} from '@toolwright/core';

/**
 * Issue 12's execution core: a handler that returns a value runs with no timer; calls with the same timeout share one
 * timer; the AbortController exists only for a handler that reads `invocation.signal`, and a signal read after a
 * timeout is already aborted with the TIMEOUT error.
 */
function registryWith(handler: ToolHandler, timeoutMs?: number): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    { name: 'work', parameters: { type: 'object', properties: { n: { type: 'integer' } } } },
    handler,
    timeoutMs ? { timeoutMs } : {},
  );
  return registry;
}

describe('the synchronous execution core', () => {
  afterEach(() => jest.useRealTimers());

  it('a handler that returns a value arms no timer', async () => {
    jest.useFakeTimers();
    const executor = new PersonaToolExecutor(
      registryWith((params: { n: number }) => params.n * 2, 1_234),
      { logger: silentLogger },
    );
    const pending = executor.execute({ id: 's', name: 'work', arguments: '{"n": 21}' });
    expect(jest.getTimerCount()).toBe(0);
    expect(await pending).toMatchObject({ ok: true, value: 42 });
  });

  it('calls with the same timeout share one timer, and each still times out on its own', async () => {
    jest.useFakeTimers();
    const finishers: Array<(value: number) => void> = [];
    const executor = new PersonaToolExecutor(
      registryWith(() => new Promise<number>((resolve) => finishers.push(resolve)), 2_345),
      { logger: silentLogger },
    );
    const first = executor.execute({ id: 'a', name: 'work', arguments: '{"n": 1}' });
    await jest.advanceTimersByTimeAsync(1_000);
    const second = executor.execute({ id: 'b', name: 'work', arguments: '{"n": 2}' });
    const third = executor.execute({ id: 'c', name: 'work', arguments: '{"n": 3}' });
    await Promise.resolve();
    expect(finishers).toHaveLength(3);
    expect(jest.getTimerCount()).toBe(1);
    finishers[2]!(3);
    expect(await third).toMatchObject({ ok: true, value: 3 });
    await jest.advanceTimersByTimeAsync(1_345);
    expect(await first).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    let secondSettled = false;
    void second.then(() => {
      secondSettled = true;
    });
    await jest.advanceTimersByTimeAsync(999);
    expect(secondSettled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await second).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    finishers[0]!(1);
    finishers[1]!(2);
  });

  it('the signal is created on first read; read after a timeout it is already aborted with the TIMEOUT error', async () => {
    jest.useFakeTimers();
    let invocation: ToolInvocationContext | undefined;
    const executor = new PersonaToolExecutor(
      registryWith((_params, context) => {
        invocation = context;
        return new Promise(() => {});
      }, 3_456),
      { logger: silentLogger },
    );
    const pending = executor.execute({ id: 't', name: 'work', arguments: '{}' });
    await jest.advanceTimersByTimeAsync(3_456);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    const signal = invocation!.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ code: 'TIMEOUT' });
    expect(invocation!.signal).toBe(signal);
  });
});

describe('a call keeps the compiled tool it started with', () => {
  it('a tool replaced while a call validates (as an MCP refresh does) is not half-seen: the call runs the old handler', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    registry.registerJsonSchemaTool({ name: 'work', parameters: schema }, (params: { n: number }) => `old ${params.n}`);
    // The reference path awaits class-validator, so the replacement lands between validation and the handler.
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
    const pending = executor.execute({ id: 'r', name: 'work', arguments: '{"n": 1}' });
    registry.registerJsonSchemaTool({ name: 'work', parameters: schema }, (params: { n: number }) => `new ${params.n}`);
    expect(await pending).toMatchObject({ ok: true, value: 'old 1' });
    expect(await executor.execute({ id: 's', name: 'work', arguments: '{"n": 2}' })).toMatchObject({
      ok: true,
      value: 'new 2',
    });
  });
});

describe('the tool and the command class called last are looked up with one comparison', () => {
  it('1,000 random calls, alternations and replacements: every call runs the current handler of the tool it names', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const versions = new Map<string, number>();
    const register = (name: string) => {
      const version = (versions.get(name) ?? 0) + 1;
      versions.set(name, version);
      registry.registerJsonSchemaTool(
        { name, parameters: schema },
        (params: { n: number }) => `${name} v${version} ${params.n}`,
      );
    };
    const names = ['alpha', 'beta', 'gamma'];
    for (const name of names) register(name);
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    // A fixed-seed linear congruential sequence: the same operations on every run.
    let state = 20261126;
    const next = (bound: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % bound;
    };
    for (let step = 0; step < 1_000; step++) {
      const name = names[next(names.length)]!;
      if (next(5) === 0) register(name);
      const result = await executor.execute({ id: `c${step}`, name, arguments: `{"n": ${step}}` });
      expect(result).toMatchObject({ ok: true, value: `${name} v${versions.get(name)!} ${step}` });
    }
  });

  it('alternating command classes each get an instance of their own class', async () => {
    const created: string[] = [];
    class NoParams {}
    @Command({ name: 'first_command', description: 'The first command', params: NoParams })
    class FirstCommand {
      constructor() {
        created.push('first');
      }
      execute() {
        return this instanceof FirstCommand ? 'first' : 'wrong class';
      }
    }
    @Command({ name: 'second_command', description: 'The second command', params: NoParams })
    class SecondCommand {
      constructor() {
        created.push('second');
      }
      execute() {
        return this instanceof SecondCommand ? 'second' : 'wrong class';
      }
    }
    const executor = new PersonaToolExecutor(
      ToolRegistry.from([FirstCommand, SecondCommand], { logger: silentLogger }),
      {
        logger: silentLogger,
      },
    );
    const order = ['first', 'first', 'second', 'first', 'second', 'second', 'first'];
    for (const [index, which] of order.entries()) {
      const result = await executor.execute({ id: `c${index}`, name: `${which}_command`, arguments: '{}' });
      expect(result).toMatchObject({ ok: true, value: which });
    }
    expect(created).toEqual(order);
  });
});

describe('hostile values a handler returns', () => {
  const incoming = [{ path: '', rule: 'tool-name-case', from: 'Work', to: 'work' }];
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  it.each<[string, () => unknown, Record<string, unknown>]>([
    ['a revoked proxy', revoked, { ok: false, error: { code: 'HANDLER_ERROR' } }],
    [
      'an object whose `then` getter throws',
      () =>
        Object.defineProperty({}, 'then', {
          get() {
            throw new Error('then getter');
          },
        }),
      { ok: false, error: { code: 'HANDLER_ERROR' } },
    ],
    [
      'a thenable whose `then` throws',
      () => ({
        then() {
          throw new Error('then call');
        },
      }),
      { ok: false, error: { code: 'HANDLER_ERROR' } },
    ],
    [
      'a thenable whose `then` throws a tool-call error',
      () => ({
        then() {
          throw new TimeoutError('The service timed out.');
        },
      }),
      { ok: false, error: { code: 'TIMEOUT', message: 'The service timed out.' } },
    ],
    [
      'a thenable that fulfills synchronously, twice, then throws',
      () => ({
        then(fulfilled: (value: unknown) => void) {
          fulfilled('first');
          fulfilled('second');
          throw new Error('after fulfilling');
        },
      }),
      { ok: true, value: 'first' },
    ],
    [
      'a thenable that rejects with a revoked proxy',
      () => ({
        then(_fulfilled: unknown, rejected: (error: unknown) => void) {
          rejected(revoked());
        },
      }),
      { ok: false, error: { code: 'HANDLER_ERROR' } },
    ],
  ])('%s: the call resolves with the typed outcome and keeps its transformations', async (_, returned, expected) => {
    const executor = new PersonaToolExecutor(
      registryWith(() => returned(), 1_000),
      { logger: silentLogger },
    );
    const result = await executor.execute({ id: 'h', name: 'work', arguments: '{}', transformations: incoming });
    expect(result).toMatchObject({ ...expected, callId: 'h', tool: 'work', transformations: incoming });
  });
});
