import 'reflect-metadata';
import { IsEmail } from 'class-validator';
import { ArrayOf, Command, PersonaToolExecutor, ToolParam, ToolRegistry, silentLogger } from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

/**
 * The executor's glue between steps (issue 12): the DTO built inline, a ready call told from a refused or pending one
 * by its class, a promise-returning handler finished through one settlement object. Each outcome as before.
 */
let throwOnConstruct = false;

class Guest {
  @IsEmail() @ToolParam({ description: 'E-mail' }) email!: string;
}

class FragileParams {
  constructor() {
    if (throwOnConstruct) throw new Error('constructor refused');
  }
  @ToolParam({ type: 'int', min: 1, max: 10 }) count!: number;
  @ArrayOf(() => Guest, { required: false }) guests?: Guest[];
}

@Command({ name: 'fragile', description: 'A DTO whose constructor may throw', params: FragileParams })
class FragileCommand {
  execute(params: FragileParams) {
    return { kind: params.constructor.name, count: params.count };
  }
}

@Command({ name: 'fragile_async', description: 'The same, async', params: FragileParams })
class FragileAsyncCommand {
  async execute(params: FragileParams) {
    await Promise.resolve();
    return { kind: params.constructor.name, count: params.count };
  }
}

describe('the executor glue', () => {
  afterEach(() => {
    throwOnConstruct = false;
  });

  function setup() {
    const logger = new RecordingLogger();
    const registry = ToolRegistry.from([FragileCommand, FragileAsyncCommand], { logger: silentLogger });
    return { executor: new PersonaToolExecutor(registry, { logger, telemetry: false }), logger };
  }

  it('a DTO constructor that throws is the model-facing type issue, after the other issues of the call', async () => {
    const { executor, logger } = setup();
    throwOnConstruct = true;
    const result = await executor.execute({ id: 'i', name: 'fragile', arguments: '{"count":11}' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    expect(result.error.issues?.map((issue) => [issue.path, issue.rule])).toEqual([
      ['count', 'maximum'],
      ['', 'type'],
    ]);
    expect(result.error.message).toContain("The arguments could not be read into the tool's parameters");
    expect(logger.messages('warn')).toEqual([
      'tool call fragile refused: INVALID_ARGUMENTS (count: maximum; (arguments): type)',
    ]);
    // Valid arguments: the same issue alone.
    const alone = await executor.execute({ id: 'j', name: 'fragile', arguments: '{"count":3}' });
    expect(alone).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', issues: [{ path: '', rule: 'type' }] },
    });
  });

  it('a valid call reaches the handler with a DTO instance, synchronous and async handler alike', async () => {
    const { executor } = setup();
    for (const name of ['fragile', 'fragile_async']) {
      const result = await executor.execute({ id: 'v', name, arguments: '{"count":3,"guests":[{"email":"a@b.co"}]}' });
      expect(result).toMatchObject({ ok: true, value: { kind: 'FragileParams', count: 3 }, transformations: [] });
    }
  });

  it('a developer rule refusing a nested value: the issue with its path, for both handlers', async () => {
    const { executor } = setup();
    for (const name of ['fragile', 'fragile_async']) {
      const result = await executor.execute({ id: 'r', name, arguments: '{"count":3,"guests":[{"email":"nope"}]}' });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENTS', issues: [{ path: 'guests[0].email' }] },
      });
    }
  });
});
