import 'reflect-metadata';

/**
 * chrono-node (about a third of @toolwright/core's import time) is loaded when the first relative date is resolved,
 * not when core is imported. The real chrono-node is loaded; the factory only counts how often it is.
 */
let mockChronoLoads = 0;
jest.mock('chrono-node', () => {
  mockChronoLoads++;
  return jest.requireActual('chrono-node');
});

describe('chrono-node is loaded on first use', () => {
  it('is not loaded by importing @toolwright/core, then loaded once by the first phrase resolved', () => {
    const core = require('../../../src') as typeof import('../../../src');
    expect(mockChronoLoads).toBe(0);

    const options = { timeZone: 'Europe/Berlin', now: new Date('2026-11-27T10:00:00Z') };
    expect(core.resolveRelativeDate('tomorrow at 9am', options)).toMatchObject({
      kind: 'datetime',
      datetime: '2026-11-28T09:00:00+01:00',
    });
    expect(mockChronoLoads).toBe(1);

    expect(core.resolveRelativeDate('next week', options)).toMatchObject({ kind: 'range', firstDate: '2026-11-30' });
    expect(mockChronoLoads).toBe(1);
  });

  it('the relative-date tool registers without loading chrono-node and resolves through the executor', async () => {
    const core = require('../../../src') as typeof import('../../../src');
    const before = mockChronoLoads;
    const registry = new core.ToolRegistry({ logger: core.silentLogger });
    core.registerRelativeDateTool(registry);
    expect(registry.get(core.RESOLVE_RELATIVE_DATE_TOOL_NAME)).toBeDefined();
    expect(mockChronoLoads).toBe(before);

    const executor = new core.PersonaToolExecutor(registry, { logger: core.silentLogger });
    const result = await executor.execute({
      id: 'call_1',
      name: core.RESOLVE_RELATIVE_DATE_TOOL_NAME,
      arguments: JSON.stringify({ phrase: 'tomorrow', time_zone: 'Europe/Berlin', reference: '2026-11-27T10:00:00Z' }),
    });
    expect(result).toMatchObject({ ok: true, value: { kind: 'date', date: '2026-11-28' } });
    expect(mockChronoLoads).toBe(1);
  });
});
