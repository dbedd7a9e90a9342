import 'reflect-metadata';
import { DefinitionError, PersonaToolExecutor, silentLogger, ToolRegistry, type ToolCall } from '@toolwright/core';
import { MAX_TOOL_NAME_LENGTH } from '@toolwright/core/internal';
import { RecordingLogger } from '../support/recording-logger';

function throwingRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  const thrown: Record<string, () => unknown> = {
    'null-prototype': () => Object.create(null),
    'throwing-to-string': () => ({
      toString() {
        throw new Error('toString exploded');
      },
    }),
    'throwing-message': () => {
      const error = new Error('secret');
      Object.defineProperty(error, 'message', {
        get() {
          throw new Error('message exploded');
        },
      });
      return error;
    },
    'revoked-proxy': () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    'throwing-symbol-to-primitive': () => ({
      [Symbol.toPrimitive]() {
        throw new Error('no primitive');
      },
    }),
  };
  for (const [name, make] of Object.entries(thrown)) {
    registry.registerJsonSchemaTool(
      { name, description: name, parameters: { type: 'object', properties: {} } },
      async () => {
        throw make();
      },
    );
  }
  registry.registerJsonSchemaTool(
    { name: 'ok', description: 'ok', parameters: { type: 'object', properties: {} } },
    async () => 'fine',
  );
  return registry;
}

const HOSTILE_THROWS = [
  'null-prototype',
  'throwing-to-string',
  'throwing-message',
  'revoked-proxy',
  'throwing-symbol-to-primitive',
];

describe('execute() is total', () => {
  it.each(HOSTILE_THROWS)(
    'a handler that throws %s gives a HANDLER_ERROR result, logged, never a rejection',
    async (name) => {
      const logger = new RecordingLogger();
      const executor = new PersonaToolExecutor(throwingRegistry(), { logger });
      const result = await executor.execute({ id: 'c1', name, arguments: '{}' });
      expect(result).toMatchObject({ ok: false, callId: 'c1', tool: name, error: { code: 'HANDLER_ERROR' } });
      expect(logger.messages('error')).toEqual([`tool call ${name} failed: HANDLER_ERROR`]);
      expect(typeof logger.entries[0]!.details!['cause']).toBe('string');
    },
  );

  it('a logger that throws does not make execute() reject', async () => {
    const throwing = {
      debug() {
        throw new Error('x');
      },
      info() {
        throw new Error('x');
      },
      warn() {
        throw new Error('x');
      },
      error() {
        throw new Error('x');
      },
    };
    const executor = new PersonaToolExecutor(throwingRegistry(), { logger: throwing });
    await expect(executor.execute({ id: 'c1', name: 'null-prototype', arguments: '{}' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'HANDLER_ERROR' },
    });
    await expect(executor.execute({ id: 'c2', name: 'ok', arguments: '{}' })).resolves.toMatchObject({
      ok: true,
      value: 'fine',
    });
  });

  it('executeAll settles each call on its own: one hostile throw loses no other result', async () => {
    const executor = new PersonaToolExecutor(throwingRegistry(), { logger: silentLogger });
    const calls: ToolCall[] = [
      { id: 'a', name: 'ok', arguments: '{}' },
      ...HOSTILE_THROWS.map((name, index) => ({ id: `h${index}`, name, arguments: '{}' })),
      { id: 'z', name: 'ok', arguments: '{}' },
    ];
    const results = await executor.executeAll(calls, {}, { concurrency: 3 });
    expect(results.map((result) => [result.callId, result.ok])).toEqual([
      ['a', true],
      ...HOSTILE_THROWS.map((_, index) => [`h${index}`, false]),
      ['z', true],
    ]);
  });

  it.each([NaN, 0, -1, 1.5, Infinity, '4', null])(
    'executeAll refuses concurrency %p with a clear error',
    async (concurrency) => {
      const executor = new PersonaToolExecutor(throwingRegistry(), { logger: silentLogger });
      const run = executor.executeAll(
        [{ id: 'a', name: 'ok', arguments: '{}' }],
        {},
        { concurrency: concurrency as number },
      );
      await expect(run).rejects.toThrow(DefinitionError);
      await expect(
        executor.executeAll([{ id: 'a', name: 'ok', arguments: '{}' }], {}, { concurrency: concurrency as number }),
      ).rejects.toThrow(
        /PersonaToolExecutor\.executeAll\.concurrency: The option concurrency is .*; it must be a whole number of at least 1\. Fix:/,
      );
    },
  );

  it('executeAll refuses calls that are not an array', async () => {
    const executor = new PersonaToolExecutor(throwingRegistry(), { logger: silentLogger });
    await expect(executor.executeAll('calls' as unknown as ToolCall[])).rejects.toThrow(
      /executeAll takes an array of tool calls/,
    );
  });

  it.each([
    [{ timeoutMs: NaN }, /timeoutMs/],
    [{ timeoutMs: -5 }, /timeoutMs/],
    [{ slowCallMs: Infinity }, /slowCallMs/],
    [{ limits: { maxDepth: NaN } }, /limits\.maxDepth/],
    [{ limits: { maxArgumentsBytes: 0 } }, /limits\.maxArgumentsBytes/],
    [{ policy: 'loose' }, /policy/],
    [{ validation: 'fast' }, /validation/],
  ])('the executor refuses the option %p at construction', (options, pattern) => {
    expect(() => new PersonaToolExecutor(throwingRegistry(), { logger: silentLogger, ...(options as object) })).toThrow(
      pattern,
    );
  });
});

describe('model-chosen tool names', () => {
  it('a 39 KB name neither overflows the stack nor costs a resolution: UNKNOWN_TOOL with a clipped name', async () => {
    const registry = throwingRegistry();
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    for (const name of ['functions.'.repeat(3_900), 'x'.repeat(29 * 1024), 'functions.'.repeat(26) + 'ok']) {
      const result = await executor.execute({ id: 'c1', name, arguments: '{}' });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('UNKNOWN_TOOL');
      expect(result.error.message.length).toBeLessThan(200);
    }
    expect(MAX_TOOL_NAME_LENGTH).toBe(256);
    // Below the cap the rules still apply.
    expect(await executor.execute({ id: 'c2', name: 'functions.ok', arguments: '{}' })).toMatchObject({
      ok: true,
      tool: 'ok',
    });
  });

  it('is escaped and clipped in log lines: no forged lines, no 1 MiB lines', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(throwingRegistry(), { logger });
    await executor.execute({ id: 'c1', name: 'nope\n[toolwright] tool call admin ok\u2028', arguments: '{}' });
    await executor.execute({ id: 'c2', name: `${'y'.repeat(1024 * 1024)}\n`, arguments: '{}' });
    const [forged, huge] = logger.messages('warn');
    expect(forged).toBe('tool call nope\\n[toolwright] tool call admin ok\\u2028 refused: UNKNOWN_TOOL');
    expect(huge).toBe(`tool call ${'y'.repeat(128)}... (1048577 characters) refused: UNKNOWN_TOOL`);
    for (const entry of logger.entries) {
      expect(entry.message).not.toMatch(/[\n\r\u2028]/);
      expect(String(entry.details?.['tool']).length).toBeLessThan(200);
    }
  });
});
