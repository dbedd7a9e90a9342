import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger } from '@toolwright/core';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
import { replayCalls } from '../../../../examples/persona-app/src/replay';

/** The demo's replay of issue 10's classes 1-3 does what its titles say. */
describe('persona-app replay: issue 10 classes 1-3', () => {
  const executor = new PersonaToolExecutor(createPersonaRegistry(), { logger: silentLogger });
  const replay = (klass: number) => {
    const entry = replayCalls.find((candidate) => candidate.title.startsWith(`Issue 10, class ${klass}:`));
    if (!entry) throw new Error(`the replay has no call for class ${klass}`);
    return executor.execute(entry.call, entry.context);
  };

  it('class 1: refuses the key given twice with different values, naming both', async () => {
    const result = await replay(1);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain('"max_results" twice with different values (5 and 50)');
  });

  it('class 2: reads the triple-quoted title as written', async () => {
    const result = await replay(2);
    expect(result).toMatchObject({ ok: true, value: { title: 'Q3: a "record" quarter', channel: 'blog' } });
    expect(result.transformations.map((transformation) => transformation.rule)).toContain('triple-quotes');
  });

  it('class 3: unwraps the OpenAI tool call naming this tool', async () => {
    const result = await replay(3);
    expect(result).toMatchObject({ ok: true, value: [{ start: '2026-11-23T09:00:00+01:00' }] });
    expect(result.transformations.map((transformation) => transformation.rule)).toContain('unwrapped-call');
  });
});
