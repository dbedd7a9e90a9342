import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry, TransformationStats, type Logger } from '@toolwright/core';

/**
 * A handler that settles after its call ended (timed out or cancelled): the call has one outcome, logged once; the late
 * value or error is discarded without a second log record or a second stats count.
 */
describe('a handler that settles after its timeout or cancellation', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  function setup(late: 'value' | 'error') {
    const records: string[] = [];
    const logger: Logger = {
      debug: (message) => records.push(`debug ${message}`),
      info: (message) => records.push(`info ${message}`),
      warn: (message) => records.push(`warn ${message}`),
      error: (message) => records.push(`error ${message}`),
      isLevelEnabled: () => true,
    };
    const registry = new ToolRegistry({ logger });
    registry.registerJsonSchemaTool(
      { name: 'slow', parameters: { type: 'object', properties: { count: { type: 'integer' } } } },
      () =>
        new Promise((resolve, reject) =>
          setTimeout(() => (late === 'value' ? resolve('late') : reject(new Error('late'))), 50),
        ),
      { timeoutMs: 10, slowCallMs: 100_000 },
    );
    const stats = new TransformationStats();
    const executor = new PersonaToolExecutor(registry, { logger, stats, telemetry: false });
    return { records, stats, executor };
  }

  it.each(['value', 'error'] as const)('a timeout, then a late %s: one TIMEOUT outcome, logged once', async (late) => {
    const { records, stats, executor } = setup(late);
    // A string sent for an integer: one transformation, counted once per call.
    const pending = executor.execute({ id: 't', name: 'slow', arguments: '{"count": "3"}' });
    await jest.advanceTimersByTimeAsync(200);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatch(/^(warn|error) tool call slow .*TIMEOUT$/);
    expect(result.transformations.map((transformation) => transformation.rule)).toEqual(['string-to-integer']);
    expect(stats.count('slow', 'string-to-integer')).toBe(1);
  });

  it.each(['value', 'error'] as const)('a cancellation, then a late %s: one CANCELLED outcome', async (late) => {
    const { records, executor } = setup(late);
    const controller = new AbortController();
    const pending = executor.execute({ id: 'c', name: 'slow', arguments: '{}' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await jest.advanceTimersByTimeAsync(200);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatch(/^(warn|error) tool call slow .*CANCELLED$/);
  });
});
