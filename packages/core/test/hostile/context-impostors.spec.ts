import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

function registry(): ToolRegistry {
  const tools = new ToolRegistry({ logger: silentLogger });
  tools.registerJsonSchemaTool(
    {
      name: 'save',
      description: 'Save a note',
      parameters: {
        type: 'object',
        properties: {
          note: { type: 'string' },
          metadata: { type: 'object' },
          owner: { type: 'object', properties: { persona: { type: 'string' } } },
        },
        additionalProperties: true,
      },
    },
    async (params, invocation) => ({ params, sessionId: invocation.context.sessionId ?? null }),
  );
  return tools;
}

const LOOK_ALIKES = [
  ['fullwidth', 'ｓｅｓｓｉｏｎ＿ｉｄ'],
  ['Cyrillic letters', 'ѕеѕѕіоn_іd'],
  ['Greek omicron', 'sessiοn_id'],
  ['zero-width space', 'session\u200b_id'],
  ['zero-width joiner and soft hyphen', 'job\u200d\u00ad_id'],
  ['mathematical bold', '𝐩𝐞𝐫𝐬𝐨𝐧𝐚'],
] as const;

describe('security events for look-alike context keys and nested context names', () => {
  it.each(LOOK_ALIKES)('a %s key is a security event, logged; it never sets context', async (_, key) => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(registry(), { logger });
    const result = await executor.execute(
      { id: 'c1', name: 'save', arguments: { note: 'n', [key]: 'attacker' } },
      { sessionId: 'trusted' },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((result.value as { sessionId: string }).sessionId).toBe('trusted');
    const warnings = logger.entries.filter((entry) => entry.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(
      /^security: the model sent the key ".+", a look-alike of the context field "(session_id|job_id|persona)", at ".+" of save; it sets no context$/,
    );
    expect(warnings[0]!.message).not.toMatch(/[\u200b\u200d\u00ad]/);
    expect(warnings[0]!.details).toMatchObject({
      kind: 'look-alike-context-key',
      tool: 'save',
      callId: 'c1',
      sessionId: 'trusted',
    });
    expect(executor.stats.securityEvents).toBe(1);
  });

  it('a context name nested inside free-form data is a security event; the data stays data', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(registry(), { logger });
    const result = await executor.execute(
      {
        id: 'c1',
        name: 'save',
        arguments: { note: 'n', metadata: { session_id: 'attacker', deeper: [{ 'Handler-Config': {} }] } },
      },
      { sessionId: 'trusted' },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // `metadata` is an object schema: the normalizer drops a context name among its keys (as before); `deeper` is
    // free-form data the normalizer does not walk, where the name is now reported and left as data.
    expect(result.value).toEqual({
      params: { note: 'n', metadata: { deeper: [{ 'Handler-Config': {} }] } },
      sessionId: 'trusted',
    });
    expect(logger.messages('warn').sort()).toEqual([
      'security: the model sent the context name "Handler-Config" nested at "metadata.deeper[0].Handler-Config" of save; it is data there and sets no context',
      'security: the model tried to set trusted context field "session_id" of save; the value was dropped',
    ]);
  });

  it('a declared property that shares a context name is data, not an event; plain keys are not look-alikes', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(registry(), { logger });
    const result = await executor.execute({
      id: 'c1',
      name: 'save',
      arguments: { note: 'n', owner: { persona: 'me' }, sessions: 1, session: 2, café: 3 },
    });
    expect(result.ok).toBe(true);
    expect(logger.messages('warn')).toEqual([]);
  });

  it('the top-level context name keeps its existing event and message', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(registry(), { logger });
    await executor.execute(
      { id: 'c1', name: 'save', arguments: { note: 'n', session_id: 'attacker' } },
      { sessionId: 'trusted' },
    );
    expect(logger.messages('warn')).toEqual([
      'security: the model tried to set trusted context field "session_id" of save; the value was dropped',
    ]);
  });

  it('many events: ten lines and one summary', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(registry(), { logger });
    const keys = Object.fromEntries(
      Array.from({ length: 50 }, (_, index) => [`session\u200b${'\u200b'.repeat(index)}_id`, index]),
    );
    await executor.execute({ id: 'c1', name: 'save', arguments: { note: 'n', ...keys } });
    const warnings = logger.messages('warn');
    expect(warnings).toHaveLength(11);
    expect(warnings[10]).toBe('security: 40 more security events in one call of save (not logged one by one)');
    expect(executor.stats.securityEvents).toBe(50);
  });
});
