import 'reflect-metadata';
import {
  Command,
  crossField,
  DefinitionError,
  FromContext,
  PersonaToolExecutor,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolParam,
  ToolRegistry,
  definitionFromJsonSchema,
  fromJsonSchema,
  toJsonSchema,
  type ChatMessage,
  type CrossFieldIssue,
  type ToolCall,
  type ToolResult,
} from '@toolwright/core';

const PATHS = ['compiled', 'reference'] as const;
const call = (id: string, name: string, args: unknown): ToolCall => ({ id, name, arguments: JSON.stringify(args) });
const errorOf = (result: ToolResult) => {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
};

// ---- a class command: @Command({ validate }) -------------------------------------------------------------------

class WriteFileParams {
  @ToolParam({ description: 'A file to copy from', required: false }) path?: string;
  @ToolParam({ description: 'The text to write', required: false }) content?: string;
  @ToolParam({ description: 'Where to write' }) target!: string;
  @FromContext('session_id') sessionId?: string;
}

const seenByValidate: unknown[] = [];

@Command({
  name: 'write_file',
  description: 'Writes a file from a path or from content',
  params: WriteFileParams,
  validate: (params: WriteFileParams) => {
    seenByValidate.push({ ...params });
    if (params.path !== undefined && params.content !== undefined) {
      return [{ paths: ['path', 'content'], message: 'Send either "path" or "content", not both.' }];
    }
    if (params.path === undefined && params.content === undefined)
      return 'Send "path" (a file to copy) or "content" (the text to write).';
    return undefined;
  },
})
class WriteFile {
  execute(params: WriteFileParams) {
    return { wrote: params.target, from: params.path ?? 'content' };
  }
}

// ---- a static validate method on the class ---------------------------------------------------------------------

class RangeParams {
  @ToolParam({ type: 'date' }) start!: string;
  @ToolParam({ type: 'date' }) end!: string;
}

@Command({ name: 'book_range', description: 'Books a date range', params: RangeParams })
class BookRange {
  static validate(params: RangeParams): CrossFieldIssue[] | undefined {
    return params.end < params.start
      ? [
          {
            path: 'end',
            paths: ['end', 'start'],
            message: `"end" (${params.end}) must not be before "start" (${params.start}).`,
          },
        ]
      : undefined;
  }
  execute(params: RangeParams) {
    return `${params.start}..${params.end}`;
  }
}

describe.each(PATHS)('cross-field validation of class commands (%s path)', (validation) => {
  const executor = () =>
    new PersonaToolExecutor(ToolRegistry.from([WriteFile, BookRange], { logger: silentLogger }), {
      logger: silentLogger,
      validation,
    });

  it('refuses a call that breaks the rule with INVALID_ARGUMENTS naming both fields, and runs the fixed call', async () => {
    const both = errorOf(
      await executor().execute(call('c1', 'write_file', { path: 'a.txt', content: 'hi', target: 'b.txt' })),
    );
    expect(both).toEqual({
      code: 'INVALID_ARGUMENTS',
      message:
        'The arguments for "write_file" are invalid:\n- Send either "path" or "content", not both.\nFix these arguments and call "write_file" again.',
      issues: [
        {
          path: 'path',
          paths: ['path', 'content'],
          rule: 'cross-field',
          expected: 'Send either "path" or "content", not both.',
          message: 'Send either "path" or "content", not both.',
        },
      ],
      retryable: true,
    });
    const neither = errorOf(await executor().execute(call('c2', 'write_file', { target: 'b.txt' })));
    expect(neither.issues).toEqual([
      {
        path: '',
        rule: 'cross-field',
        expected: 'Send "path" (a file to copy) or "content" (the text to write).',
        message: 'Send "path" (a file to copy) or "content" (the text to write).',
      },
    ]);
    const fixed = await executor().execute(call('c3', 'write_file', { content: 'hi', target: 'b.txt' }));
    expect(fixed).toMatchObject({ ok: true, value: { wrote: 'b.txt', from: 'content' } });
  });

  it('sees the normalized, context-injected parameters, and never a model-supplied context value', async () => {
    seenByValidate.length = 0;
    await executor().execute(call('c1', 'write_file', { Content: 42, target: 'b.txt', session_id: 'forged' }), {
      sessionId: 'trusted',
    });
    expect(seenByValidate).toEqual([{ content: '42', target: 'b.txt', sessionId: 'trusted' }]);
  });

  it('runs only after every per-field check passed', async () => {
    seenByValidate.length = 0;
    const error = errorOf(await executor().execute(call('c1', 'write_file', { path: 'a', content: 'b' })));
    expect(error.issues.map((issue) => [issue.path, issue.rule])).toEqual([['target', 'required']]);
    expect(seenByValidate).toEqual([]);
  });

  it('calls a static validate method of the command class', async () => {
    const error = errorOf(
      await executor().execute(call('c1', 'book_range', { start: '2026-12-10', end: '2026-12-01' })),
    );
    expect(error.issues).toEqual([
      {
        path: 'end',
        paths: ['end', 'start'],
        rule: 'cross-field',
        expected: '"end" (2026-12-01) must not be before "start" (2026-12-10).',
        message: '"end" (2026-12-01) must not be before "start" (2026-12-10).',
      },
    ]);
    expect(
      await executor().execute(call('c2', 'book_range', { start: '2026-12-01', end: '2026-12-10' })),
    ).toMatchObject({ ok: true, value: '2026-12-01..2026-12-10' });
  });
});

describe('cross-field validation: the same outcome on both paths', () => {
  it('gives byte-equal results on the compiled and the reference path', async () => {
    const calls = [
      call('a', 'write_file', { path: 'a.txt', content: 'hi', target: 'b.txt' }),
      call('b', 'write_file', { target: 'b.txt' }),
      call('c', 'book_range', { start: '2026-12-10', end: '2026-12-01' }),
      call('d', 'book_range', { start: '2026-12-01', end: '2026-12-10' }),
    ];
    const run = async (validation: 'compiled' | 'reference') => {
      const executor = new PersonaToolExecutor(ToolRegistry.from([WriteFile, BookRange], { logger: silentLogger }), {
        logger: silentLogger,
        validation,
      });
      return (await executor.executeAll(calls)).map(({ durationMs: _durationMs, ...rest }) => rest);
    };
    expect(await run('compiled')).toEqual(await run('reference'));
  });
});

describe('cross-field validation: definition errors and developer bugs', () => {
  it('refuses an instance validate method (never called) with the fix', () => {
    @Command({ name: 'bad', description: 'x', params: RangeParams })
    class Bad {
      validate() {
        return undefined;
      }
      execute() {
        return 1;
      }
    }
    expect(() => ToolRegistry.from([Bad], { logger: silentLogger })).toThrow(
      'Bad.validate: @Command has an invalid `validate`: the class has an instance method `validate`, which toolwright never calls (cross-field checks run before the command is resolved). Fix: make it `static validate(params)`, or pass it as @Command({ validate }).',
    );
  });

  it('refuses a validate option that is not a function', () => {
    @Command({ name: 'bad2', description: 'x', params: RangeParams, validate: 'no' as never })
    class Bad2 {
      execute() {
        return 1;
      }
    }
    expect(() => ToolRegistry.from([Bad2], { logger: silentLogger })).toThrow(DefinitionError);
    const registry = new ToolRegistry({ logger: silentLogger });
    expect(() => registry.registerJsonSchemaTool({ name: 't' }, () => 1, { validate: 5 as never })).toThrow(
      't.validate: the `validate` option is number, not a function.',
    );
  });

  it('turns a validate that throws or returns a non-result into a non-retryable HANDLER_ERROR, logged for the developer', async () => {
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (message: string) => errors.push(message) };
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool({ name: 'throws' }, () => 1, {
      validate: () => {
        throw new Error('boom');
      },
    });
    registry.registerJsonSchemaTool({ name: 'returns_number' }, () => 1, { validate: () => 7 as never });
    registry.registerJsonSchemaTool({ name: 'empty_message' }, () => 1, {
      validate: () => [{ path: 'x', message: '' }],
    });
    const executor = new PersonaToolExecutor(registry, { logger });
    for (const name of ['throws', 'returns_number', 'empty_message']) {
      const error = errorOf(await executor.execute(call('c', name, {})));
      expect(error).toMatchObject({
        code: 'HANDLER_ERROR',
        retryable: false,
        message: `The tool "${name}" could not check its arguments (its validation rule failed). Do not retry it.`,
      });
    }
    expect(errors.filter((line) => !line.startsWith('tool call '))).toEqual([
      'tool throws: the `validate` option of "throws" threw Error: boom. Fix: return a message instead of throwing for invalid arguments.',
      'tool returns_number: the `validate` option of "returns_number" returned number. Fix: return undefined, a message, or an array of { path, message } issues.',
      'tool empty_message: the `validate` option of "empty_message" returned an issue without a message at index 0. Fix: give every issue a non-empty `message`.',
    ]);
  });
});

// ---- registerJsonSchemaTool / registerCompact options ---------------------------------------------------------------

describe('the validate option of registerJsonSchemaTool and registerCompact', () => {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'search',
      parameters: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } } },
    },
    (params) => params,
    {
      validate: async (params: { from?: number; to?: number }) =>
        params.from !== undefined && params.to !== undefined && params.to < params.from
          ? [{ path: 'to', message: '"to" must be at least "from".' }]
          : undefined,
    },
  );
  registry.registerCompact(
    {
      command_name: 'schedule',
      parameters: [
        { name: 'start', type: 'datetime', required: true },
        { name: 'end', type: 'datetime', required: true },
      ],
    },
    (params) => params,
    {
      validate: (params: { start: string; end: string }) =>
        Date.parse(params.end) <= Date.parse(params.start)
          ? [{ paths: ['end', 'start'], message: '"end" must be after "start".' }]
          : undefined,
    },
  );
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

  it('refuses the rule-breaking call after normalization (numbers from strings) and accepts the fixed one', async () => {
    expect(errorOf(await executor.execute(call('c1', 'search', { from: '10', to: '2' }))).issues).toEqual([
      {
        path: 'to',
        rule: 'cross-field',
        expected: '"to" must be at least "from".',
        message: '"to" must be at least "from".',
      },
    ]);
    expect(await executor.execute(call('c2', 'search', { from: '2', to: '10' }))).toMatchObject({
      ok: true,
      value: { from: 2, to: 10 },
    });
  });

  it('works for compact tools too', async () => {
    expect(
      errorOf(
        await executor.execute(call('c1', 'schedule', { start: '2026-12-01T10:00:00Z', end: '2026-12-01T09:00:00Z' })),
      ).message,
    ).toBe(
      'The arguments for "schedule" are invalid:\n- "end" must be after "start".\nFix these arguments and call "schedule" again.',
    );
    expect(
      (await executor.execute(call('c2', 'schedule', { start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' })))
        .ok,
    ).toBe(true);
  });
});

// ---- JSON Schema's cross-field keywords ------------------------------------------------------------------------------

const FILE_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    content: { type: 'string' },
    encoding: { type: 'string' },
    start: { type: 'integer' },
    end: { type: 'integer' },
  },
  oneOf: [{ required: ['path'] }, { required: ['content'] }],
  dependentRequired: { end: ['start'] },
  not: { required: ['path', 'encoding'] },
};

describe('JSON Schema cross-field keywords import into rules', () => {
  it('reads oneOf/anyOf of required sets, not: {required}, dependentRequired, draft-7 dependencies and allOf members', () => {
    expect(fromJsonSchema(FILE_SCHEMA).crossFieldRules).toEqual([
      { kind: 'dependentRequired', property: 'end', requires: ['start'] },
      { kind: 'oneOf', sets: [['path'], ['content']] },
      { kind: 'notAll', properties: ['path', 'encoding'] },
    ]);
    expect(
      fromJsonSchema({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
        dependencies: { a: ['b'] },
        allOf: [{ anyOf: [{ required: ['a'] }, { required: ['b', 'c'] }] }, { not: { required: ['a', 'c'] } }],
      }).crossFieldRules,
    ).toEqual([
      { kind: 'dependentRequired', property: 'a', requires: ['b'] },
      { kind: 'anyOf', sets: [['a'], ['b', 'c']] },
      { kind: 'notAll', properties: ['a', 'c'] },
    ]);
  });

  it('exports the rules back as the same keywords (a round trip keeps them)', () => {
    const exported = toJsonSchema(fromJsonSchema(FILE_SCHEMA));
    expect(exported).toMatchObject({
      dependentRequired: { end: ['start'] },
      allOf: [
        { oneOf: [{ required: ['path'] }, { required: ['content'] }] },
        { not: { required: ['path', 'encoding'] } },
      ],
    });
    expect(fromJsonSchema(exported).crossFieldRules).toEqual(fromJsonSchema(FILE_SCHEMA).crossFieldRules);
    const single = toJsonSchema(
      fromJsonSchema({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        anyOf: [{ required: ['a'] }, { required: ['b'] }],
      }),
    );
    expect(single.anyOf).toEqual([{ required: ['a'] }, { required: ['b'] }]);
  });

  it('refuses a rule that names an undeclared property, and still refuses what is not a rule', () => {
    expect(() =>
      fromJsonSchema(
        { type: 'object', properties: { a: { type: 'string' } }, dependentRequired: { a: ['b'] } },
        { target: 'tool' },
      ),
    ).toThrow(
      'tool.#: The cross-field rule "dependentRequired" names \'b\', which is not a declared property of the arguments. Fix: Declare \'b\' as a parameter (JSON Schema: under "properties"), or correct the name (declared: a).',
    );
    expect(() =>
      fromJsonSchema(
        { type: 'object', properties: { a: { type: 'string' } }, not: { properties: { a: { const: 'x' } } } },
        { target: 'tool' },
      ),
    ).toThrow("tool.#/not: The keyword 'not' excludes values by a schema");
    expect(() =>
      fromJsonSchema(
        { type: 'object', properties: { a: { type: 'string' } }, dependentRequired: { a: 'b' } },
        { target: 'tool' },
      ),
    ).toThrow(
      "tool.#/dependentRequired/a: The keyword 'dependentRequired' must be an array of property names, received 'b'.",
    );
  });

  it.each(PATHS)(
    'checks the imported rules in the executor with messages for the model (%s path)',
    async (validation) => {
      const registry = new ToolRegistry({ logger: silentLogger });
      registry.registerDefinition(definitionFromJsonSchema({ name: 'read_file', parameters: FILE_SCHEMA }), {
        kind: 'function',
        handler: (params) => params,
      });
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation });
      const messages = async (args: unknown) =>
        errorOf(await executor.execute(call('c', 'read_file', args))).issues.map((issue) => issue.message);
      expect(await messages({})).toEqual(['Send exactly one of "path" or "content". Received: none of them was sent.']);
      expect(await messages({ path: 'a', content: 'b' })).toEqual([
        'Send exactly one of "path" or "content". Received "path" and "content": keep one of them and leave the other out.',
      ]);
      expect(await messages({ path: 'a', encoding: 'utf8' })).toEqual([
        'Do not send "path" and "encoding" together. Received all of them: leave at least one out.',
      ]);
      expect(await messages({ content: 'x', end: 5 })).toEqual([
        '"end" needs "start": send it too, or leave "end" out.',
      ]);
      const issue = errorOf(await executor.execute(call('c', 'read_file', { content: 'x', end: 5 }))).issues[0];
      expect(issue).toEqual({
        path: 'start',
        paths: ['start', 'end'],
        rule: 'dependentRequired',
        expected: 'When sending "end", also send "start".',
        received: '"end"',
        message: '"end" needs "start": send it too, or leave "end" out.',
      });
      expect(await executor.execute(call('c', 'read_file', { content: 'x', start: 1, end: 5 }))).toMatchObject({
        ok: true,
        value: { content: 'x', start: 1, end: 5 },
      });
    },
  );
});

// ---- the tool loop counts them as retries ------------------------------------------------------------------------------

describe('cross-field issues in the tool loop', () => {
  const toolMessages = (messages: readonly ChatMessage[]) =>
    messages.filter((message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool');

  it('sends the message back, lets the model fix the call, and counts the failure as an attempt', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([WriteFile], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const model = new ScriptedChatModel([
      { toolCalls: [call('c1', 'write_file', { path: 'a.txt', content: 'hi', target: 'b.txt' })] },
      { toolCalls: [call('c2', 'write_file', { content: 'hi', target: 'b.txt' })] },
      { text: 'Written.', toolCalls: [] },
    ]);
    const result = await runToolLoop({
      model,
      executor,
      messages: [{ role: 'user', content: 'write hi to b.txt' }],
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    expect(toolMessages(model.requests[1]!.messages)).toEqual([
      expect.objectContaining({
        callId: 'c1',
        isError: true,
        content:
          'The arguments for "write_file" are invalid:\n- Send either "path" or "content", not both.\nFix these arguments and call "write_file" again.\n' +
          '(Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)',
      }),
    ]);
    expect(toolMessages(result.messages).at(-1)).toMatchObject({ callId: 'c2', isError: false });
  });

  it('fails the loop when the model keeps breaking the rule past the retries', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([WriteFile], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const bad = (id: string) => ({ toolCalls: [call(id, 'write_file', { target: 'b.txt' })] });
    const model = new ScriptedChatModel([bad('c1'), bad('c2'), bad('c3'), { text: 'never', toolCalls: [] }]);
    const result = await runToolLoop({
      model,
      executor,
      messages: [{ role: 'user', content: 'write' }],
      logger: silentLogger,
    });
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(model.requests).toHaveLength(3);
  });
});

// ---- declarative rules on a class command ----------------------------------------------------------------------------

class TransferParams {
  @ToolParam({ description: 'Source account', required: false }) fromAccount?: string;
  @ToolParam({ description: 'Source card', required: false }) fromCard?: string;
  @ToolParam({ type: 'float', description: 'Amount' }) amount!: number;
  @ToolParam({ description: 'Currency', required: false }) currency?: string;
  @ToolParam({ description: 'Exchange rate', type: 'float', required: false }) rate?: number;
  @FromContext('session_id') sessionId?: string;
}

@Command({
  name: 'transfer',
  description: 'Transfers money.',
  params: TransferParams,
  crossFieldRules: [crossField.exactlyOne('fromAccount', 'fromCard'), crossField.requires('rate', 'currency')],
})
class Transfer {
  execute(params: TransferParams) {
    return { amount: params.amount };
  }
}

describe('@Command({ crossFieldRules }): declarative rules on a class command', () => {
  it('exports them as JSON Schema keywords (the model and MCP clients see them)', () => {
    const registry = ToolRegistry.from([Transfer], { logger: silentLogger });
    expect(registry.toJsonSchema('transfer')).toMatchObject({
      dependentRequired: { rate: ['currency'] },
      oneOf: [{ required: ['fromAccount'] }, { required: ['fromCard'] }],
    });
  });

  it.each(PATHS)('enforces them like imported rules (%s path)', async (validation) => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([Transfer], { logger: silentLogger }), {
      logger: silentLogger,
      validation,
    });
    const error = errorOf(
      await executor.execute(call('c', 'transfer', { fromAccount: 'a', fromCard: 'c', amount: '5', rate: 1.1 })),
    );
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'Send exactly one of "fromAccount" or "fromCard". Received "fromAccount" and "fromCard": keep one of them and leave the other out.',
      '"rate" needs "currency": send it too, or leave "rate" out.',
    ]);
    expect(await executor.execute(call('c', 'transfer', { from_account: 'a', amount: '5' }))).toMatchObject({
      ok: true,
      value: { amount: 5 },
    });
  });

  it('refuses malformed rules and rules naming an unknown or context parameter', () => {
    const define = (rules: unknown) => {
      @Command({ name: 'bad_rules', description: 'x', params: TransferParams, crossFieldRules: rules as never })
      class BadRules {
        execute() {
          return 1;
        }
      }
      return () => ToolRegistry.from([BadRules], { logger: silentLogger });
    };
    expect(define([{ kind: 'oneOf', sets: [['fromAccount']] }])).toThrow(
      'BadRules.crossFieldRules: @Command has an invalid `crossFieldRules`: [{"kind":"oneOf","sets":[["fromAccount"]]}] is not an array of cross-field rules.',
    );
    expect(define([crossField.exactlyOne('fromAccount', 'iban')])).toThrow(
      'BadRules.#: The cross-field rule "oneOf" names \'iban\', which is not a declared property of the arguments.',
    );
    expect(define([crossField.notTogether('amount', 'sessionId')])).toThrow(
      "names 'sessionId', which is not a declared property",
    );
  });
});
