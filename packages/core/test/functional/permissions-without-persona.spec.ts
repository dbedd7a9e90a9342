import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';

/**
 * Step 2 without a persona: a tool that requires a permission is refused, one that requires none runs (the executor
 * skips the persona check only for the second kind).
 */
describe('a call without a persona', () => {
  const ran: string[] = [];
  const registry = ToolRegistry.from([], { logger: silentLogger });
  const parameters = { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] };
  registry.registerJsonSchemaTool({ name: 'pay', description: 'Pay', parameters }, () => ran.push('pay'), {
    permissions: ['payments'],
  });
  registry.registerJsonSchemaTool({ name: 'quote', description: 'Quote', parameters }, () => ran.push('quote'), {
    permissions: [],
  });
  registry.registerJsonSchemaTool({ name: 'look', description: 'Look', parameters }, () => ran.push('look'));
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  const call = (name: string) => ({ id: name, name, arguments: '{"amount": 1}' });

  beforeEach(() => (ran.length = 0));

  it.each([undefined, {}, { persona: undefined }])(
    'is refused a tool that requires a permission (%p)',
    async (context) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await executor.execute(call('pay'), context);
        expect(result).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
      }
      // The same tool again after another (the executor keeps the compiled tool called last).
      expect((await executor.execute(call('look'), context)).ok).toBe(true);
      expect((await executor.execute(call('pay'), context)).ok).toBe(false);
      expect(ran).toEqual(['look']);
    },
  );

  it('runs a tool that requires none, and one that requires a permission for a persona that holds it', async () => {
    expect((await executor.execute(call('look'))).ok).toBe(true);
    expect((await executor.execute(call('quote'))).ok).toBe(true);
    expect((await executor.execute(call('pay'), { persona: { permissions: ['payments'] } })).ok).toBe(true);
    expect((await executor.execute(call('pay'), { persona: { permissions: ['other'] } })).ok).toBe(false);
    expect(ran).toEqual(['look', 'quote', 'pay']);
  });
});
