import 'reflect-metadata';
import { container, inject, injectable } from 'tsyringe';
import {
  ArrayOf,
  Command,
  DateTime,
  EXECUTION_CONTEXT,
  EXECUTOR_OPTIONS,
  FromContext,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  ToolRegistry,
  tsyringeCommandResolver,
  type ExecutionContext,
  type ToolInvocationContext,
} from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

function factorialRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'math.factorial',
      description: 'Factorial of a number',
      parameters: { type: 'object', properties: { number: { type: 'integer' } }, required: ['number'] },
    },
    async (params) => params,
  );
  return registry;
}

describe('PersonaToolExecutor: the acceptance snippet', () => {
  it('works exactly as written in the issue', async () => {
    const executor = new PersonaToolExecutor(factorialRegistry(), { logger: silentLogger });
    const result = await executor.execute(
      { id: 'c1', name: 'math.factorial', arguments: '{"number": "5"}' },
      { sessionId: 's1' },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ number: 5 });
    expect(result.transformations[0]!.path).toBe('number');
    expect(result.transformations).toEqual([{ path: 'number', rule: 'string-to-integer', from: '5', to: 5 }]);
    expect(result.callId).toBe('c1');
    expect(result.tool).toBe('math.factorial');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('returns INVALID_ARGUMENTS with text for the model on bad input', async () => {
    const executor = new PersonaToolExecutor(factorialRegistry(), { logger: silentLogger });
    const result = await executor.execute(
      { id: 'c2', name: 'math.factorial', arguments: '{"number": "five"}' },
      { sessionId: 's1' },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    expect(result.error.message).toBe(
      'The arguments for "math.factorial" are invalid:\n- "number" must be an integer, but received "five". Example: 1.\nFix these arguments and call "math.factorial" again.',
    );
    expect(result.error.issues).toEqual([
      {
        path: 'number',
        rule: 'type',
        expected: 'an integer',
        received: '"five"',
        example: '1',
        message: '"number" must be an integer, but received "five". Example: 1.',
      },
    ]);
    expect(result.error.retryable).toBe(true);
  });
});

describe('PersonaToolExecutor: steps', () => {
  class Address {
    @ToolParam({ description: 'City' }) city!: string;
    @ToolParam({ type: 'int', required: false, min: 1000, max: 99999 }) zip?: number;
  }
  class BookParams {
    @ToolParam({ description: 'Guest name', minLength: 2 }) guestName!: string;
    @ToolParam({ type: 'int', min: 1, max: 10 }) guests!: number;
    @DateTime({ description: 'Arrival' }) arrival!: string;
    @ArrayOf(() => Address, { minItems: 1 }) addresses!: Address[];
    @ToolParam({ enum: ['standard', 'deluxe'], required: false }) room?: string;
    @ToolParam({ description: 'Card number', sensitive: true, required: false }) card?: string;
    @FromContext('session_id') sessionId?: string;
    @FromContext('job_id') jobId?: string;
  }
  const seen: Array<{ params: BookParams; invocation: ToolInvocationContext }> = [];
  @Command({
    name: 'hotel/book',
    description: 'Book a hotel',
    params: BookParams,
    tags: ['travel'],
    aliases: ['book_hotel'],
  })
  class BookCommand {
    execute(params: BookParams, invocation: ToolInvocationContext) {
      seen.push({ params, invocation });
      return {
        guest: params.guestName,
        session: params.sessionId,
        job: params.jobId,
        isDto: params instanceof BookParams,
        firstIsAddress: params.addresses[0] instanceof Address,
      };
    }
  }
  const valid = { guestName: 'Ana', guests: 2, arrival: '2026-12-01T15:00:00+01:00', addresses: [{ city: 'Paris' }] };
  const make = (logger = new RecordingLogger()) => ({
    logger,
    executor: new PersonaToolExecutor(ToolRegistry.from([BookCommand], { logger: silentLogger }), { logger }),
  });

  beforeEach(() => seen.splice(0));

  it('hands class commands a validated DTO instance, nested DTOs included, with trusted context', async () => {
    const { executor } = make();
    const result = await executor.execute(
      { id: 'a', name: 'hotel/book', arguments: JSON.stringify(valid) },
      { sessionId: 's-1', jobId: 'j-1' },
    );
    expect(result).toMatchObject({
      ok: true,
      value: { guest: 'Ana', session: 's-1', job: 'j-1', isDto: true, firstIsAddress: true },
      transformations: [],
    });
    expect(seen[0]!.invocation).toMatchObject({
      callId: 'a',
      tool: 'hotel/book',
      context: { sessionId: 's-1', jobId: 'j-1' },
    });
    expect(seen[0]!.invocation.signal).toBeInstanceOf(AbortSignal);
  });

  it('1. resolves aliases, prefixes and case; unknown names get suggestions and a warning', async () => {
    const { executor, logger } = make();
    for (const [name, rule] of [
      ['book_hotel', 'tool-name-alias'],
      ['functions.hotel/book', 'tool-name-prefix'],
      ['HOTEL/BOOK', 'tool-name-case'],
      ['hotel_book', 'tool-name-case'],
    ] as const) {
      const result = await executor.execute({ id: name, name, arguments: valid });
      expect(result).toMatchObject({ ok: true });
      expect(result.tool).toBe('hotel/book');
      expect(result.transformations[0]).toEqual({ path: '', rule, from: name, to: 'hotel/book' });
    }
    const unknown = await executor.execute({ id: 'u', name: 'hotel/bok', arguments: '{}' });
    expect(unknown.ok).toBe(false);
    if (unknown.ok) return;
    expect(unknown.error.code).toBe('UNKNOWN_TOOL');
    expect(unknown.error.suggestions).toEqual(['hotel/book']);
    expect(unknown.error.message).toBe(
      'There is no tool named "hotel/bok". Did you mean "hotel/book"? Call one of the available tools by its exact name.',
    );
    expect(logger.messages('warn')).toContain('tool call hotel/bok refused: UNKNOWN_TOOL');
    const nothingClose = await executor.execute({ id: 'n', name: 'weather', arguments: '{}' });
    expect(!nothingClose.ok && nothingClose.error.suggestions).toEqual([]);
    const notAString = await executor.execute({ id: 'x', name: 42 as unknown as string, arguments: '{}' });
    expect(!notAString.ok && notAString.error.code).toBe('UNKNOWN_TOOL');
  });

  it('2. refuses a persona outside its allowed tools, tags or permissions, before the handler runs', async () => {
    const { executor } = make();
    const call = { id: 'p', name: 'hotel/book', arguments: JSON.stringify(valid) };
    const denied = await executor.execute(call, { persona: { name: 'support bot', allowedTools: ['calendar.*'] } });
    expect(denied).toMatchObject({
      ok: false,
      error: {
        code: 'PERMISSION_DENIED',
        retryable: false,
        message:
          'The tool "hotel/book" is not available to support bot. Do not call it again; use another tool or answer without it.',
      },
    });
    expect(seen).toHaveLength(0);
    expect((await executor.execute(call, { persona: { allowedTools: ['hotel/*'] } })).ok).toBe(true);
    expect((await executor.execute(call, { persona: { allowedTags: ['travel'] } })).ok).toBe(true);
    expect((await executor.execute(call, { persona: { allowedTags: ['finance'] } })).ok).toBe(false);
  });

  it('4+6. normalizes then validates, reporting every problem at once with paths into nested arrays', async () => {
    const { executor } = make();
    const result = await executor.execute({
      id: 'v',
      name: 'hotel/book',
      arguments: {
        guest_name: 'A',
        guests: '11',
        arrival: 'tomorrow',
        addresses: [{ city: 'Paris', zip: '12' }],
        room: 'Suite',
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // The compiled path (default) reports in declaration order.
    expect(result.error.issues.map((issue) => [issue.path, issue.rule])).toEqual([
      ['guestName', 'minLength'],
      ['guests', 'maximum'],
      ['arrival', 'relative-date'],
      ['addresses[0].zip', 'minimum'],
      ['room', 'enum'],
    ]);
    expect(result.transformations.map((transformation) => transformation.rule)).toEqual([
      'key-case',
      'string-to-integer',
      'string-to-integer',
    ]);
    // The reference path (class-validator) finds the same problems with the same messages.
    const referenceExecutor = new PersonaToolExecutor(ToolRegistry.from([BookCommand], { logger: silentLogger }), {
      logger: silentLogger,
      validation: 'reference',
    });
    const referenceResult = await referenceExecutor.execute({
      id: 'v',
      name: 'hotel/book',
      arguments: {
        guest_name: 'A',
        guests: '11',
        arrival: 'tomorrow',
        addresses: [{ city: 'Paris', zip: '12' }],
        room: 'Suite',
      },
    });
    expect(
      !referenceResult.ok && [...referenceResult.error.issues].sort((a, b) => a.path.localeCompare(b.path)),
    ).toEqual([...result.error.issues].sort((a, b) => a.path.localeCompare(b.path)));
  });

  it('5. drops a model-supplied session id (any spelling), logs a security event, and injects the trusted one', async () => {
    const { executor, logger } = make();
    const result = await executor.execute(
      {
        id: 's',
        name: 'hotel/book',
        arguments: { ...valid, session_id: 'forged', SessionId: 'forged2', jobId: 'forged3' },
      },
      { sessionId: 'trusted' },
    );
    expect(result).toMatchObject({ ok: true, value: { session: 'trusted', job: undefined } });
    expect(seen[0]!.params.sessionId).toBe('trusted');
    expect(seen[0]!.params.jobId).toBeUndefined();
    expect(logger.messages('warn').filter((message) => message.startsWith('security:'))).toHaveLength(3);
    expect(executor.stats.securityEvents).toBe(3);
  });

  it('redacts sensitive values in logs', async () => {
    const { executor, logger } = make();
    await executor.execute({ id: 'r', name: 'hotel/book', arguments: { ...valid, card: 4111111111111111 } });
    const entry = logger.entries.find((candidate) => candidate.message === 'tool call hotel/book ok')!;
    expect(entry.details!['transformations']).toEqual([
      { path: 'card', rule: 'number-to-string', from: '[redacted]', to: '[redacted]' },
    ]);
    expect(JSON.stringify(logger.entries)).not.toContain('4111111111111111');
  });

  it('prepare() validates without running the handler', async () => {
    const { executor } = make();
    const prepared = await executor.prepare(
      { id: 'd', name: 'hotel/book', arguments: { ...valid, guests: '3' } },
      { sessionId: 's' },
    );
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.params).toBeInstanceOf(BookParams);
    expect(prepared.params['guests']).toBe(3);
    expect(prepared.transformations).toEqual([{ path: 'guests', rule: 'string-to-integer', from: '3', to: 3 }]);
    expect(seen).toHaveLength(0);
    const bad = await executor.prepare({ id: 'e', name: 'hotel/book', arguments: '{' }, {});
    expect(bad).toMatchObject({ ok: false, error: { code: 'MALFORMED_ARGUMENTS' } });
  });

  it('counts transformations per tool, rule and model', async () => {
    const { executor } = make();
    await executor.execute({ id: '1', name: 'hotel/book', arguments: { ...valid, guests: '3' } }, { model: 'model-a' });
    await executor.execute({ id: '2', name: 'hotel/book', arguments: { ...valid, guests: '4' } }, { model: 'model-a' });
    await executor.execute({ id: '3', name: 'hotel/book', arguments: { ...valid, guests: '4' } }, { model: 'model-b' });
    expect(executor.stats.snapshot()).toEqual([
      { tool: 'hotel/book', rule: 'string-to-integer', model: 'model-a', count: 2 },
      { tool: 'hotel/book', rule: 'string-to-integer', model: 'model-b', count: 1 },
    ]);
    expect(executor.stats.count('hotel/book', 'string-to-integer')).toBe(3);
  });
});

describe('PersonaToolExecutor: running handlers', () => {
  function registryWith(
    handler: (params: Record<string, unknown>, invocation: ToolInvocationContext) => unknown,
    timeoutMs?: number,
  ) {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      { name: 'work', parameters: { type: 'object', properties: {} } },
      handler as never,
      timeoutMs ? { timeoutMs } : {},
    );
    return registry;
  }

  afterEach(() => jest.useRealTimers());

  it("7. times out with TIMEOUT (fake clock), aborts the handler's signal, and discards the late result", async () => {
    jest.useFakeTimers();
    let signal: AbortSignal | undefined;
    let finish: (value: string) => void = () => {};
    const executor = new PersonaToolExecutor(
      registryWith((_, invocation) => {
        signal = invocation.signal;
        return new Promise((resolve) => {
          finish = resolve;
        });
      }, 5_000),
      { logger: silentLogger },
    );
    const pending = executor.execute({ id: 't', name: 'work', arguments: '{}' });
    await jest.advanceTimersByTimeAsync(4_999);
    expect(signal!.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'TIMEOUT',
        message: 'The tool "work" did not finish within 5000 ms. Try again later or with a smaller request.',
      },
    });
    expect(signal!.aborted).toBe(true);
    finish('late');
    await Promise.resolve();
  });

  it('defaults to a 30 s timeout', async () => {
    jest.useFakeTimers();
    const executor = new PersonaToolExecutor(
      registryWith(() => new Promise(() => {})),
      { logger: silentLogger },
    );
    const pending = executor.execute({ id: 't', name: 'work', arguments: '{}' });
    await jest.advanceTimersByTimeAsync(29_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it('logs a slow-call warning', async () => {
    jest.useFakeTimers();
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(
      registryWith(() => new Promise((resolve) => setTimeout(() => resolve('done'), 1_500))),
      { logger },
    );
    const pending = executor.execute({ id: 's', name: 'work', arguments: '{}' });
    await jest.advanceTimersByTimeAsync(1_500);
    expect(await pending).toMatchObject({ ok: true, value: 'done' });
    expect(
      logger
        .messages('warn')
        .some((message) => /^slow tool call: work took \d+ ms \(threshold 1000 ms\)$/.test(message)),
    ).toBe(true);
  });

  it('CANCELLED when the caller aborts, before or during the call', async () => {
    const executor = new PersonaToolExecutor(
      registryWith(
        (_, invocation) =>
          new Promise((_, reject) => invocation.signal.addEventListener('abort', () => reject(new Error('aborted')))),
      ),
      { logger: silentLogger },
    );
    const controller = new AbortController();
    const pending = executor.execute({ id: 'c', name: 'work', arguments: '{}' }, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'CANCELLED', message: 'The call to "work" was cancelled.' },
    });
    expect(
      await executor.execute({ id: 'c2', name: 'work', arguments: '{}' }, { signal: controller.signal }),
    ).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });

  it('HANDLER_ERROR hides the cause from the model and logs it', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(
      registryWith(() => {
        throw new Error('db password=hunter2 at /srv/app/db.ts:10');
      }),
      { logger },
    );
    const result = await executor.execute({ id: 'h', name: 'work', arguments: '{}' });
    expect(result).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR', retryable: false } });
    expect(JSON.stringify(result)).not.toMatch(/hunter2|db\.ts|at /);
    expect(logger.entries.find((entry) => entry.level === 'error')!.details!['cause']).toBe(
      'Error: db password=hunter2 at /srv/app/db.ts:10',
    );
  });

  it.each([
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })],
    ['ENOTFOUND', Object.assign(new Error('getaddrinfo ENOTFOUND api.example'), { code: 'ENOTFOUND' })],
    ['ETIMEDOUT', Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })],
    [
      'fetch failed',
      new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) }),
    ],
  ])('SERVICE_UNAVAILABLE for network failures (%s)', async (_, error) => {
    const executor = new PersonaToolExecutor(
      registryWith(async () => {
        throw error;
      }),
      { logger: silentLogger },
    );
    expect(await executor.execute({ id: 'n', name: 'work', arguments: '{}' })).toMatchObject({
      ok: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The tool "work" could not reach a service it depends on. Try again later.',
      },
    });
  });

  it('a handler that fails with a real refused connection is SERVICE_UNAVAILABLE', async () => {
    const executor = new PersonaToolExecutor(
      registryWith(async () => fetch('http://127.0.0.1:9/')),
      { logger: silentLogger },
    );
    expect(await executor.execute({ id: 'f', name: 'work', arguments: '{}' })).toMatchObject({
      ok: false,
      error: { code: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('executeAll runs in parallel with a cap and returns results in call order', async () => {
    let running = 0;
    let peak = 0;
    const executor = new PersonaToolExecutor(
      registryWith(async (_, invocation) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, invocation.callId === 'c0' ? 30 : 5));
        running--;
        return invocation.callId;
      }),
      { logger: silentLogger },
    );
    const calls = Array.from({ length: 7 }, (_, index) => ({ id: `c${index}`, name: 'work', arguments: '{}' }));
    const results = await executor.executeAll(calls, {}, { concurrency: 3 });
    expect(results.map((result) => result.ok && result.value)).toEqual(calls.map((call) => call.id));
    expect(peak).toBe(3);
  });
});

describe('PersonaToolExecutor: sessions and dependency injection', () => {
  @injectable()
  class Clock {
    now() {
      return 'fixed-now';
    }
  }
  class NoParams {}
  @Command({ name: 'whoami', description: 'Who is calling', params: NoParams })
  class WhoAmI {
    constructor(
      @inject(EXECUTION_CONTEXT) private readonly context: ExecutionContext,
      private readonly clock: Clock,
    ) {}
    async execute() {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { session: this.context.sessionId, at: this.clock.now() };
    }
  }

  it('resolves the executor from a tsyringe container and commands per call from a child container', async () => {
    const child = container.createChildContainer();
    child.registerInstance(ToolRegistry, ToolRegistry.from([WhoAmI], { logger: silentLogger }));
    child.register(EXECUTOR_OPTIONS, {
      useValue: { logger: silentLogger, resolveCommand: tsyringeCommandResolver(child) },
    });
    const executor = child.resolve(PersonaToolExecutor);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        executor.execute({ id: `c${index}`, name: 'whoami', arguments: null }, { sessionId: `session-${index}` }),
      ),
    );
    expect(results.map((result) => result.ok && result.value)).toEqual(
      Array.from({ length: 20 }, (_, index) => ({ session: `session-${index}`, at: 'fixed-now' })),
    );
  });

  it('resolves without executor options registered', () => {
    const child = container.createChildContainer();
    child.registerInstance(ToolRegistry, new ToolRegistry({ logger: silentLogger }));
    expect(child.resolve(PersonaToolExecutor)).toBeInstanceOf(PersonaToolExecutor);
  });
});

describe('PersonaToolExecutor: transformations from the provider parser', () => {
  it("reports a parsed call's own transformations first", async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: 'f',
        parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } }, required: ['a'] },
      },
      async (params) => params,
    );
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const result = await executor.execute({
      id: 'x',
      name: 'f',
      arguments: '{"a": "1"}',
      transformations: [{ path: 'b', rule: 'strict-null-to-absent', from: null, to: undefined }],
    });
    expect(result).toMatchObject({ ok: true, value: { a: 1 } });
    expect(result.transformations.map((transformation) => transformation.rule)).toEqual([
      'strict-null-to-absent',
      'string-to-integer',
    ]);
  });
});
