import 'reflect-metadata';
import { ConsoleLogger, Inject, Injectable, Module, Scope } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  Command,
  DefinitionError,
  PermissionDeniedError,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ToolInvocationContext,
} from '@toolwright/core';
import { InjectToolContext, NestLoggerAdapter, ToolwrightModule, type ToolExecutionContext } from '@toolwright/nestjs';

class NoteParams {
  @ToolParam({ description: 'The note' }) text!: string;
}

@Injectable()
class NoteStore {
  readonly notes: string[] = [];
}

@Injectable()
class Clock {
  now() {
    return '2026-11-23T10:00:00Z';
  }
}

@Injectable()
class Audit {
  constructor(private readonly clock: Clock) {}
  stamp(text: string) {
    return `${text}@${this.clock.now()}`;
  }
}

@Injectable()
@Command({ name: 'add_note', description: 'Adds a note', params: NoteParams })
class AddNote {
  constructor(
    private readonly store: NoteStore,
    private readonly audit: Audit,
  ) {}
  execute(params: NoteParams) {
    this.store.notes.push(this.audit.stamp(params.text));
    return { count: this.store.notes.length };
  }
}

class EmptyParams {}

@Injectable({ scope: Scope.REQUEST })
@Command({ name: 'whoami', description: 'The session of this call', params: EmptyParams })
class WhoAmI {
  constructor(
    @InjectToolContext() private readonly context: ToolExecutionContext,
    private readonly store: NoteStore,
  ) {}
  async execute(_params: EmptyParams, invocation: ToolInvocationContext) {
    const seenAtStart = this.context.sessionId;
    await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5)));
    return {
      session: this.context.sessionId,
      seenAtStart,
      invocationSession: invocation.context.sessionId,
      notes: this.store.notes.length,
    };
  }
}

async function app(
  providers: any[],
  options: Parameters<typeof ToolwrightModule.forRoot>[0] = { logger: silentLogger },
) {
  @Module({ providers })
  class FeatureModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [ToolwrightModule.forRoot(options), FeatureModule],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('ToolwrightModule', () => {
  it("discovers @Command providers and runs Nest's singleton: the command writes to the store the app reads", async () => {
    const moduleRef = await app([NoteStore, Clock, Audit, AddNote]);
    const executor = moduleRef.get(PersonaToolExecutor);
    expect(
      moduleRef
        .get(ToolRegistry)
        .list()
        .map((tool) => tool.name),
    ).toEqual(['add_note']);
    const result = await executor.execute(
      { id: 'c1', name: 'add_note', arguments: '{"text": "buy milk"}' },
      { sessionId: 's1' },
    );
    expect(result).toMatchObject({ ok: true, value: { count: 1 } });
    expect(moduleRef.get(NoteStore).notes).toEqual(['buy milk@2026-11-23T10:00:00Z']);
    await executor.execute({ id: 'c2', name: 'add_note', arguments: '{"text": "call Bob"}' });
    expect(moduleRef.get(NoteStore).notes).toHaveLength(2);
    await moduleRef.close();
  });

  it('resolves a request-scoped command per call: 50 concurrent calls from different sessions each see only their own context', async () => {
    const moduleRef = await app([NoteStore, WhoAmI]);
    const executor = moduleRef.get(PersonaToolExecutor);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        executor.execute({ id: `c${index}`, name: 'whoami', arguments: '{}' }, { sessionId: `session-${index}` }),
      ),
    );
    expect(results.map((result) => result.ok && result.value)).toEqual(
      Array.from({ length: 50 }, (_, index) => ({
        session: `session-${index}`,
        seenAtStart: `session-${index}`,
        invocationSession: `session-${index}`,
        notes: 0,
      })),
    );
    await moduleRef.close();
  });

  it('runs the per-call hook around each command with the instance Nest resolved (a guard can refuse the call)', async () => {
    const seen: Array<{ command: unknown; params: unknown; session: unknown }> = [];
    const moduleRef = await app([NoteStore, Clock, Audit, AddNote], {
      logger: silentLogger,
      interceptCall: async (call, next) => {
        seen.push({
          command: call.command,
          params: { ...(call.params as object) },
          session: call.invocation.context.sessionId,
        });
        if (call.invocation.context.persona?.name === 'intruder')
          throw new PermissionDeniedError('This persona may not add notes.');
        return { intercepted: await next() };
      },
    });
    const executor = moduleRef.get(PersonaToolExecutor);
    const allowed = await executor.execute(
      { id: 'c1', name: 'add_note', arguments: { text: 'hello' } },
      { sessionId: 's1' },
    );
    expect(allowed).toMatchObject({ ok: true, value: { intercepted: { count: 1 } } });
    const refused = await executor.execute(
      { id: 'c2', name: 'add_note', arguments: { text: 'nope' } },
      { sessionId: 's2', persona: { name: 'intruder' } },
    );
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'PERMISSION_DENIED', message: 'This persona may not add notes.' },
    });
    expect(moduleRef.get(NoteStore).notes).toHaveLength(1);
    // Nest's singleton is the very instance that ran the call.
    expect(seen.map((entry) => entry.command)).toEqual([moduleRef.get(AddNote), moduleRef.get(AddNote)]);
    expect(seen[0]!.command).toBe(moduleRef.get(AddNote));
    expect(seen.map((entry) => entry.session)).toEqual(['s1', 's2']);
    await moduleRef.close();
  });

  it("fails at bootstrap when a command's provider is missing (a singleton: Nest's own message)", async () => {
    await expect(app([NoteStore, AddNote])).rejects.toThrow(
      /Nest can't resolve dependencies of the AddNote \(NoteStore, \?\)/,
    );
  });

  it("fails at bootstrap when a request-scoped command's provider is missing", async () => {
    await expect(app([WhoAmI])).rejects.toThrow(/NoteStore/);
  });

  it('fails at bootstrap when two commands share a tool name', async () => {
    @Injectable()
    @Command({ name: 'add_note', description: 'Another note tool', params: NoteParams })
    class AddNoteAgain {
      execute() {
        return 'again';
      }
    }
    const failure = app([NoteStore, Clock, Audit, AddNote, AddNoteAgain]);
    await expect(failure).rejects.toThrow(DefinitionError);
    await expect(app([NoteStore, Clock, Audit, AddNote, AddNoteAgain])).rejects.toThrow(
      /a tool named "add_note" is already registered \(class AddNote\)/,
    );
  });

  it('takes its options from forRootAsync (an injected config provider): JSON-Schema tools join the discovered commands', async () => {
    @Injectable()
    class ToolConfig {
      readonly greeting = 'hello';
    }
    @Module({ providers: [ToolConfig], exports: [ToolConfig] })
    class ConfigModule {}
    @Module({ providers: [NoteStore, Clock, Audit, AddNote] })
    class FeatureModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolwrightModule.forRootAsync({
          imports: [ConfigModule],
          inject: [ToolConfig],
          useFactory: (config: ToolConfig) => ({
            logger: silentLogger,
            jsonSchemaTools: [
              {
                declaration: {
                  name: 'greet',
                  description: 'Greets someone',
                  parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                },
                handler: (params: { name: string }) => `${config.greeting} ${params.name}`,
              },
            ],
          }),
        }),
        FeatureModule,
      ],
    }).compile();
    await moduleRef.init();
    expect(
      moduleRef
        .get(ToolRegistry)
        .list()
        .map((tool) => tool.name),
    ).toEqual(['add_note', 'greet']);
    expect(
      await moduleRef.get(PersonaToolExecutor).execute({ id: 'c1', name: 'greet', arguments: '{"name": "Ada"}' }),
    ).toMatchObject({ ok: true, value: 'hello Ada' });
    await moduleRef.close();
  });

  it('refuses at bootstrap a command whose constructor parameters have no design:paramtypes (tsx/esbuild), unless @Inject names them', async () => {
    class CompiledByEsbuild {
      constructor(readonly store: NoteStore) {}
      execute() {
        return this.store.notes.length;
      }
    }
    Injectable()(CompiledByEsbuild);
    Command({ name: 'esbuild_notes', description: 'x', params: EmptyParams })(CompiledByEsbuild);
    await expect(app([NoteStore, CompiledByEsbuild])).rejects.toThrow(
      /class CompiledByEsbuild: has 1 constructor parameter but no design:paramtypes.*@Inject\(Token\) for Nest/,
    );

    class ExplicitTokens {
      constructor(readonly store: NoteStore) {}
      execute() {
        return this.store.notes.length;
      }
    }
    Inject(NoteStore)(ExplicitTokens, undefined, 0);
    Injectable()(ExplicitTokens);
    Command({ name: 'explicit_notes', description: 'x', params: EmptyParams })(ExplicitTokens);
    const moduleRef = await app([NoteStore, ExplicitTokens]);
    expect(
      await moduleRef.get(PersonaToolExecutor).execute({ id: 'c1', name: 'explicit_notes', arguments: '{}' }),
    ).toMatchObject({ ok: true, value: 0 });
    await moduleRef.close();
  });

  function captureOutput(write: () => void): { stdout: string; stderr: string } {
    const captured = { stdout: '', stderr: '' };
    const originalStdout = process.stdout.write;
    const originalStderr = process.stderr.write;
    process.stdout.write = (chunk: unknown) => {
      captured.stdout += String(chunk);
      return true;
    };
    process.stderr.write = (chunk: unknown) => {
      captured.stderr += String(chunk);
      return true;
    };
    try {
      write();
    } finally {
      process.stdout.write = originalStdout;
      process.stderr.write = originalStderr;
    }
    return captured;
  }

  it("writes one Nest log entry per event, the details on the same line (captured output of Nest's real ConsoleLogger)", () => {
    const { stdout, stderr } = captureOutput(() => {
      const logger = new NestLoggerAdapter(new ConsoleLogger('Toolwright', { json: true, colors: false }));
      logger.info('MCP server on stdio: 3 tools', { tools: 3 });
      logger.warn('security: dropped', { tool: 'whoami', key: 'session_id' });
      logger.error('tool call failed:\nHANDLER_ERROR', { tool: 'x', cause: 'Error: boom' });
    });
    const records = `${stdout}${stderr}`
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({
        level: 'log',
        context: 'Toolwright',
        message: 'MCP server on stdio: 3 tools {"tools":3}',
      }),
      expect.objectContaining({
        level: 'warn',
        context: 'Toolwright',
        message: 'security: dropped {"tool":"whoami","key":"session_id"}',
      }),
      expect.objectContaining({
        level: 'error',
        context: 'Toolwright',
        message: 'tool call failed:\\nHANDLER_ERROR {"tool":"x","cause":"Error: boom"}',
      }),
    ]);
  });

  it('escapes every line terminator of the executor events (issue 28): call ids, keys and values holding U+2028, U+2029, U+0085', async () => {
    const forged = ['\u2028', '\u2029', '\u0085', '\r', '\u000b', '\u000c', '\n']
      .map((end) => `${end}[Nest] forged`)
      .join('');
    const registry = ToolRegistry.from([AddNote], { logger: silentLogger });
    registry.registerJsonSchemaTool(
      { name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      async () => 'ok',
    );
    const captured = { stdout: '', stderr: '' };
    const originalStdout = process.stdout.write;
    const originalStderr = process.stderr.write;
    process.stdout.write = (chunk: unknown) => ((captured.stdout += String(chunk)), true);
    process.stderr.write = (chunk: unknown) => ((captured.stderr += String(chunk)), true);
    try {
      for (const json of [true, false]) {
        const logger = new NestLoggerAdapter(new ConsoleLogger('Toolwright', { json, colors: false }), {
          level: 'debug',
        });
        const executor = new PersonaToolExecutor(registry, { logger });
        await executor.execute({ id: `a${forged}`, name: 'echo', arguments: { text: forged, [`k${forged}`]: forged } });
        await executor.execute({ id: `b${forged}`, name: `tool${forged}`, arguments: {} });
        await executor.execute({ id: `c${forged}`, name: 'echo', arguments: { [`session${forged}_id`]: forged } });
      }
    } finally {
      process.stdout.write = originalStdout;
      process.stderr.write = originalStderr;
    }
    const lines = `${captured.stdout}${captured.stderr}`.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(line).not.toMatch(/[\u2028\u2029\u0085\r\u000b\u000c]/);
    expect(lines.filter((line) => line.startsWith('[Nest] forged'))).toEqual([]);
  });

  it('passes debug events on only when enabled, and says so to the executor (isLevelEnabled)', () => {
    const target = new ConsoleLogger('Toolwright', { json: true, colors: false });
    const quiet = new NestLoggerAdapter(target);
    const verbose = new NestLoggerAdapter(target, { level: 'debug' });
    const warnings = new NestLoggerAdapter(target, { level: 'warn' });
    expect([quiet, verbose, warnings].map((logger) => logger.isLevelEnabled('debug'))).toEqual([false, true, false]);
    expect(warnings.isLevelEnabled('info')).toBe(false);
    const { stdout, stderr } = captureOutput(() => {
      quiet.debug('tool call add_note ok', { tool: 'add_note' });
      warnings.info('not written');
      verbose.debug('tool call add_note ok', { tool: 'add_note' });
    });
    const records = `${stdout}${stderr}`
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({ level: 'debug', message: 'tool call add_note ok {"tool":"add_note"}' }),
    ]);
  });

  it('gives a bare logger (no context of its own) the context from the options', () => {
    const lines: unknown[][] = [];
    const logger = new NestLoggerAdapter(
      {
        log: (...parameters: unknown[]) => lines.push(['log', ...parameters]),
        warn: (...parameters: unknown[]) => lines.push(['warn', ...parameters]),
        error: (...parameters: unknown[]) => lines.push(['error', ...parameters]),
      },
      { context: 'Tools', level: 'debug' },
    );
    logger.warn('security: dropped', { key: 'session_id' });
    logger.debug('no debug method: nothing written');
    expect(lines).toEqual([['warn', 'security: dropped {"key":"session_id"}', 'Tools']]);
  });
});
