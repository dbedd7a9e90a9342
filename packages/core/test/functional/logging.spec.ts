import 'reflect-metadata';
import { Console } from 'node:console';
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import {
  Command,
  createConsoleLogger,
  createStderrLogger,
  defaultLogger,
  levelFromEnvironment,
  PersonaToolExecutor,
  pinoLogger,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type Logger,
  type LogLevel,
} from '@toolwright/core';

class CardParams {
  @ToolParam({ description: 'Amount in cents', type: 'int' }) amount!: number;
  @ToolParam({ description: 'Card number', sensitive: true }) card!: string;
}
@Command({ name: 'pay', description: 'Pay an amount', params: CardParams })
class PayCommand {
  execute(params: CardParams) {
    return { paid: params.amount };
  }
}

function registry(): ToolRegistry {
  return ToolRegistry.from([PayCommand], { logger: silentLogger });
}

const okCall = { id: 'c1', name: 'pay', arguments: '{"amount": "250", "card": 4111111111111111}' };
const refusedCall = { id: 'c2', name: 'pay', arguments: '{"amount": "lots", "card": "4111"}' };

/** Collects what a stream receives, split into lines. */
function lineSink(): { stream: Writable; lines: () => string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter((line) => line !== '') };
}

/** Runs `body` with process.stdout/stderr writes captured (and not printed). */
async function captureProcessOutput(body: () => Promise<void>): Promise<{ stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const stdoutWrite = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const stderrWrite = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    await body();
  } finally {
    stdoutWrite.mockRestore();
    stderrWrite.mockRestore();
  }
  return { stdout, stderr };
}

describe('the default logger', () => {
  it('writes nothing to stdout: a successful call logs nothing, a refused call one warning line on stderr', async () => {
    const executor = new PersonaToolExecutor(registry());
    const output = await captureProcessOutput(async () => {
      expect(await executor.execute(okCall)).toMatchObject({ ok: true, value: { paid: 250 } });
      expect(await executor.execute(refusedCall)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    });
    expect(output.stdout).toBe('');
    const lines = output.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[toolwright\] WARN tool call pay refused: INVALID_ARGUMENTS \(amount: type\) \{"tool":"pay","callId":"c2",/,
    );
    expect(output.stderr).not.toContain('4111');
  });

  it("a refused call's line names each issue's path and rule; a sensitive field's received value is never logged", async () => {
    const executor = new PersonaToolExecutor(registry());
    const output = await captureProcessOutput(async () => {
      const refused = await executor.execute({
        id: 'c3',
        name: 'pay',
        arguments: '{"amount": "lots", "card": {"number": "4111-secret"}}',
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    });
    const [line] = output.stderr.split('\n').filter(Boolean);
    expect(line).toMatch(/^\[toolwright\] WARN tool call pay refused: INVALID_ARGUMENTS \(amount: \S+; card: \S+\) \{/);
    const details = JSON.parse(line!.slice(line!.indexOf(' {') + 1)) as { issues: Record<string, string>[] };
    expect(details.issues.map((issue) => issue.path)).toEqual(['amount', 'card']);
    expect(details.issues[0]).toMatchObject({ path: 'amount', received: expect.stringContaining('lots') as string });
    expect(output.stderr).not.toContain('4111');
    expect(output.stderr).not.toContain('secret');
  });

  it("a model-chosen key in a refusal's path cannot forge a line, and 81 unknown keys make one bounded line", async () => {
    const strictRegistry = new ToolRegistry({ logger: silentLogger });
    strictRegistry.registerJsonSchemaTool(
      {
        name: 'tag',
        description: 'Tag an item',
        parameters: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false },
      },
      () => 'tagged',
    );
    const executor = new PersonaToolExecutor(strictRegistry, { policy: 'strict' });
    const keys = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`k${index}`, index]));
    const output = await captureProcessOutput(async () => {
      await executor.execute({
        id: 'c4',
        name: 'tag',
        arguments: JSON.stringify({ id: 1, 'x\nFAKE LINE': 1, ...keys }),
      });
    });
    const lines = output.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('x\\nFAKE LINE');
    expect(lines[0]).toMatch(
      / \(x\\nFAKE LINE: unknown-key; k0: unknown-key; k1: unknown-key; k2: unknown-key; k3: unknown-key; 16 more\) \{/,
    );
    const details = JSON.parse(lines[0]!.slice(lines[0]!.indexOf(' {') + 1)) as { issues: { path: string }[] };
    // The pipeline names the first unknown keys and counts the rest in one issue: the line stays bounded.
    expect(details.issues).toHaveLength(21);
    expect(details.issues.at(-1)).toMatchObject({ path: '(arguments)', received: '61 more unknown keys' });
  });

  it('is warn-level unless the environment says otherwise', () => {
    expect(defaultLogger.isLevelEnabled?.('debug')).toBe(levelFromEnvironment() === 'debug');
    expect(levelFromEnvironment('warn', {})).toBe('warn');
    expect(levelFromEnvironment('warn', { TOOLWRIGHT_DEBUG: '1' })).toBe('debug');
    expect(levelFromEnvironment('warn', { TOOLWRIGHT_LOG_LEVEL: 'ERROR' })).toBe('error');
    expect(levelFromEnvironment('info', { TOOLWRIGHT_LOG_LEVEL: 'loud' })).toBe('info');
  });
});

describe('createStderrLogger', () => {
  it('writes one line per event at or above its level, details as one-line JSON', () => {
    const sink = lineSink();
    const logger = createStderrLogger({ level: 'info', stream: sink.stream });
    logger.debug('hidden', { a: 1 });
    logger.info('two\nlines', { nested: { list: [1, 2] } });
    logger.warn('no details');
    const cyclic: Record<string, unknown> = { big: 10n };
    cyclic['self'] = cyclic;
    logger.error('odd details', cyclic);
    expect(sink.lines()).toEqual([
      '[toolwright] INFO two\\nlines {"nested":{"list":[1,2]}}',
      '[toolwright] WARN no details',
      '[toolwright] ERROR odd details {"big":"10","self":"[circular]"}',
    ]);
    expect(logger.isLevelEnabled?.('debug')).toBe(false);
    expect(logger.isLevelEnabled?.('info')).toBe(true);
  });

  it('child() adds its bindings to every line, keeping the level', () => {
    const sink = lineSink();
    const child = createStderrLogger({ level: 'warn', stream: sink.stream }).child!({ sessionId: 's1' });
    child.info('hidden');
    child.warn('careful', { tool: 'pay' });
    expect(sink.lines()).toEqual(['[toolwright] WARN careful {"sessionId":"s1","tool":"pay"}']);
  });

  it('at debug, a successful call is one debug line with redacted transformations', async () => {
    const sink = lineSink();
    const executor = new PersonaToolExecutor(registry(), {
      logger: createStderrLogger({ level: 'debug', stream: sink.stream }),
    });
    await executor.execute(okCall);
    expect(sink.lines()).toHaveLength(1);
    const [line] = sink.lines();
    expect(line).toMatch(/^\[toolwright\] DEBUG tool call pay ok \{/);
    const details = JSON.parse(line!.slice(line!.indexOf('{'))) as Record<string, unknown>;
    expect(details).toMatchObject({ tool: 'pay', callId: 'c1', outcome: 'ok' });
    expect(details['transformations']).toEqual([
      { path: 'amount', rule: 'string-to-integer', from: '250', to: 250 },
      { path: 'card', rule: 'number-to-string', from: '[redacted]', to: '[redacted]' },
    ]);
  });
});

describe('debug events cost nothing when debug is off', () => {
  it('the executor and the tool loop never call debug() (nor build its details) on a logger that says debug is off', async () => {
    const calls: LogLevel[] = [];
    let asked = 0;
    const logger: Logger = {
      debug: () => calls.push('debug'),
      info: () => calls.push('info'),
      warn: () => calls.push('warn'),
      error: () => calls.push('error'),
      isLevelEnabled: (level) => {
        asked++;
        return level !== 'debug';
      },
    };
    const executor = new PersonaToolExecutor(registry(), { logger });
    const model = new ScriptedChatModel([{ toolCalls: [okCall] }, { text: 'paid', toolCalls: [] }]);
    const loop = await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'pay 250' }], logger });
    expect(loop.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(asked).toBeGreaterThanOrEqual(3); // one per call and one per model turn
  });
});

describe('pinoLogger (the real pino)', () => {
  function pinoSink(level: string) {
    const sink = lineSink();
    const instance = pino({ level, base: undefined, timestamp: false }, sink.stream);
    return { instance, records: () => sink.lines().map((line) => JSON.parse(line) as Record<string, unknown>) };
  }

  it('passes message and every detail (pino takes details first), honours pino levels and child loggers', () => {
    const { instance, records } = pinoSink('info');
    const logger = pinoLogger(instance);
    logger.debug('hidden', { a: 1 });
    logger.info('hello', { tool: 'pay', count: 2 });
    logger.child!({ sessionId: 's1' }).warn('from the child', { tool: 'pay' });
    logger.error('no details');
    expect(records()).toEqual([
      { level: 30, msg: 'hello', tool: 'pay', count: 2 },
      { level: 40, msg: 'from the child', sessionId: 's1', tool: 'pay' },
      { level: 50, msg: 'no details' },
    ]);
    expect(logger.isLevelEnabled?.('debug')).toBe(false);
    expect(logger.isLevelEnabled?.('info')).toBe(true);
  });

  it('receives the executor events with their details, sensitive values redacted', async () => {
    const { instance, records } = pinoSink('debug');
    const executor = new PersonaToolExecutor(registry(), { logger: pinoLogger(instance.child({ app: 'test' })) });
    await executor.execute(okCall);
    await executor.execute(refusedCall);
    const [ok, refused] = records();
    expect(ok).toMatchObject({
      level: 20,
      msg: 'tool call pay ok',
      app: 'test',
      tool: 'pay',
      callId: 'c1',
      outcome: 'ok',
    });
    expect(ok!['transformations']).toContainEqual({
      path: 'card',
      rule: 'number-to-string',
      from: '[redacted]',
      to: '[redacted]',
    });
    expect(refused).toMatchObject({
      level: 40,
      msg: 'tool call pay refused: INVALID_ARGUMENTS (amount: type)',
      tool: 'pay',
      callId: 'c2',
      outcome: 'INVALID_ARGUMENTS',
    });
    expect(JSON.stringify(records())).not.toContain('4111');
  });

  it('at pino level info, a successful call writes nothing', async () => {
    const { instance, records } = pinoSink('info');
    await new PersonaToolExecutor(registry(), { logger: pinoLogger(instance) }).execute(okCall);
    expect(records()).toEqual([]);
  });
});

describe('createConsoleLogger (a real node:console Console)', () => {
  function consoleSink() {
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return {
      console: new Console({ stdout: out, stderr: err, colorMode: false }),
      stdout: () => stdout,
      stderr: () => stderr,
    };
  }

  it('sends debug/info to the console stdout and warn/error to its stderr, at or above its level', () => {
    const sink = consoleSink();
    const logger = createConsoleLogger(sink.console, { level: 'info' });
    logger.debug('hidden');
    logger.info('hello', { tool: 'pay' });
    logger.warn('careful');
    logger.error('broken', { code: 'HANDLER_ERROR' });
    expect(sink.stdout()).toBe('[toolwright] hello {"tool":"pay"}\n');
    expect(sink.stderr()).toBe('[toolwright] careful\n[toolwright] broken {"code":"HANDLER_ERROR"}\n');
    expect(logger.isLevelEnabled?.('debug')).toBe(false);
  });

  it('at debug, shows the executor call events (the application asked for them)', async () => {
    const sink = consoleSink();
    await new PersonaToolExecutor(registry(), {
      logger: createConsoleLogger(sink.console, { level: 'debug' }),
    }).execute(okCall);
    expect(sink.stdout()).toMatch(/^\[toolwright\] tool call pay ok \{"tool":"pay","callId":"c1",.*\}\n$/);
    expect(sink.stdout()).not.toContain('4111');
    expect(sink.stderr()).toBe('');
  });
});
