import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

function registry(additionalProperties?: boolean): ToolRegistry {
  const tools = new ToolRegistry({ logger: silentLogger });
  tools.registerJsonSchemaTool(
    {
      name: 'store',
      description: 'Store a note',
      parameters: {
        type: 'object',
        properties: { note: { type: 'string' }, data: {} },
        ...(additionalProperties === undefined ? {} : { additionalProperties }),
      },
    },
    async (params) => Object.keys(params).length,
  );
  return tools;
}

describe('arguments passed as an object get the text size budget', () => {
  it('refuses a 100 MB string, 1e6 keys and 10,000 x 10,000 arrays as too large, before any copy', async () => {
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    const hugeString = { note: 'x'.repeat(100 * 1024 * 1024) };
    const manyKeys: Record<string, number> = {};
    for (let index = 0; index < 1_000_000; index++) manyKeys[`k${index}`] = index;
    const row = new Array<number>(10_000).fill(1);
    const grid = { data: Array.from({ length: 10_000 }, () => row) };
    for (const args of [hugeString, { data: manyKeys }, grid]) {
      const result = await executor.execute({ id: 'c1', name: 'store', arguments: args });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('INVALID_ARGUMENTS');
      expect(result.error.issues).toEqual([expect.objectContaining({ path: '', rule: 'max-size' })]);
      expect(result.error.message).toContain('The arguments are larger than 1048576 bytes');
    }
  }, 120_000);

  it('accepts an object within the budget unchanged, and measures it as its JSON text would be', async () => {
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    const ok = await executor.execute({ id: 'c1', name: 'store', arguments: { note: 'x'.repeat(1024 * 1024 - 100) } });
    expect(ok.ok).toBe(true);
    const over = await executor.execute({ id: 'c2', name: 'store', arguments: { note: 'x'.repeat(1024 * 1024) } });
    expect(over.ok).toBe(false);
    const sameAsText = await executor.execute({
      id: 'c3',
      name: 'store',
      arguments: JSON.stringify({ note: 'x'.repeat(1024 * 1024) }),
    });
    expect(sameAsText.ok).toBe(false);
  });

  it('refuses depth and array items beyond the limits for objects too', async () => {
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger });
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const tooDeep = await executor.execute({ id: 'c1', name: 'store', arguments: { data: deep } });
    expect(tooDeep).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', issues: [expect.objectContaining({ rule: 'max-depth' })] },
    });
    const wide = await executor.execute({ id: 'c2', name: 'store', arguments: { data: new Array(10_001).fill(0) } });
    expect(wide).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', issues: [expect.objectContaining({ rule: 'max-items' })] },
    });
  });
});

describe('unknown keys are summarized past a cap', () => {
  const manyUnknown = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, index) => [`u${index}`, index]));

  it('120,000 unknown keys: 20 dropped-unknown-key records and one summary, one log line', async () => {
    const logger = new RecordingLogger();
    // 120,000 keys take 1.7 MB of JSON: over the default budget, so this executor allows 4 MiB.
    const executor = new PersonaToolExecutor(registry(), { logger, limits: { maxArgumentsBytes: 4 * 1024 * 1024 } });
    const result = await executor.execute({
      id: 'c1',
      name: 'store',
      arguments: { note: 'n', ...manyUnknown(120_000) },
    });
    expect(result.ok).toBe(true);
    const dropped = result.transformations.filter((transformation) => transformation.rule === 'dropped-unknown-key');
    expect(dropped).toHaveLength(20);
    expect(result.transformations.filter((transformation) => transformation.rule === 'dropped-unknown-keys')).toEqual([
      { path: '', rule: 'dropped-unknown-keys', from: '119980 more unknown keys', to: undefined },
    ]);
    expect(result.transformations.length).toBeLessThan(30);
    expect(logger.entries).toHaveLength(1);
  }, 60_000);

  it('under strict, 20 issues and one summary issue', async () => {
    const executor = new PersonaToolExecutor(registry(), { logger: silentLogger, policy: 'strict' });
    const result = await executor.execute({ id: 'c1', name: 'store', arguments: { note: 'n', ...manyUnknown(5_000) } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.issues).toHaveLength(21);
    expect(result.error.issues.at(-1)).toMatchObject({
      path: '',
      rule: 'unknown-key',
      message: '4980 more keys of the arguments are not parameters of this tool; use only "note", "data".',
    });
  });
});
