import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getMetadataStorage } from 'class-validator';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  for (let round = 0; round < 3; round++) collect();
  return process.memoryUsage().heapUsed;
}

/** A remote tool whose schema changes on every refresh (new property names, a nested closed object, patterns). */
function changingSchema(version: number): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      [`query_${version}`]: { type: 'string', minLength: 1, pattern: `^[a-z]{1,${(version % 50) + 5}}$` },
      [`limit_${version}`]: { type: 'integer', minimum: 0, maximum: version + 10 },
      filter: {
        type: 'object',
        properties: { [`field_${version}`]: { type: 'string', enum: ['a', 'b', `c${version}`] } },
        additionalProperties: false,
      },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    },
    required: [`query_${version}`],
    additionalProperties: false,
  };
}

function validationEntries(): number {
  return (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> }).validationMetadatas.size;
}

describe('remote tool-list churn does not grow the heap', () => {
  it('re-registering a changing JSON-Schema tool 20,000 times releases the class-validator metadata of the replaced ones', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
    const register = (version: number) =>
      registry.registerJsonSchemaTool(
        { name: 'remote.search', description: `v${version}`, parameters: changingSchema(version) },
        async () => 'ok',
        { untrusted: true },
      );
    // Warm up (module caches, JIT), then measure.
    for (let version = 0; version < 500; version++) register(version);
    const entriesBefore = validationEntries();
    const before = heapAfterGc();
    for (let version = 500; version < 20_500; version++) {
      register(version);
      if (version % 5_000 === 0) {
        const result = await executor.execute({
          id: 'c',
          name: 'remote.search',
          arguments: { [`query_${version}`]: 'abc' },
        });
        expect(result.ok).toBe(true);
      }
    }
    const grown = heapAfterGc() - before;
    expect(validationEntries()).toBeLessThanOrEqual(entriesBefore + 2);
    // On main: +128 MB for 20,000 registrations. Allowed: 16 MB of noise.
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    // Unregistering releases the last one too.
    registry.unregister('remote.search');
    expect(validationEntries()).toBeLessThan(entriesBefore);
  }, 300_000);

  it('a schema shared by two registered tools keeps its DTO until both are gone', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    const parameters = changingSchema(1);
    const first = registry.registerJsonSchemaTool({ name: 'one', description: 'one', parameters }, async () => 'ok');
    registry.registerDefinition({ ...first, name: 'two' }, { kind: 'function', handler: async () => 'ok' });
    registry.unregister('one');
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
    const refused = await executor.execute({ id: 'c', name: 'two', arguments: { query_1: 'ABC' } });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', issues: [expect.objectContaining({ path: 'query_1', rule: 'pattern' })] },
    });
    expect(await executor.execute({ id: 'c', name: 'two', arguments: { query_1: 'ab' } })).toMatchObject({ ok: true });
  });
});
