import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger } from '@toolwright/core';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
import { replayCalls } from '../../../../examples/persona-app/src/replay';

/** The demo's replay of the never-a-wrong-value classes 1-3 (issue 10) does what its titles say. */
describe('persona-app replay: never a wrong value, classes 1-3', () => {
  const executor = new PersonaToolExecutor(createPersonaRegistry(), { logger: silentLogger });
  // The demo's titles say what each call shows, in a user's words; the class each one stands for is named here.
  const titles: Record<number, string> = {
    1: 'The same key twice with different values',
    2: 'A Python triple-quoted title with quotes inside',
    3: 'The whole call wrapped inside the arguments',
  };
  const replay = (klass: number) => {
    const entry = replayCalls.find((candidate) => candidate.title.startsWith(titles[klass]!));
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
