import 'reflect-metadata';
import {
  DEFAULT_LIMITS,
  MalformedArgumentsError,
  PersonaToolExecutor,
  silentLogger,
  ToolRegistry,
  type ToolResult,
} from '@toolwright/core';
import { parseArguments } from '@toolwright/core/internal';
import { callTargetFor } from '../../../src/pipeline/unwrap-call';

/**
 * Issue 10: the malformations models really send, class by class. Each class has its recovered value and its nearest
 * refusal, and every refusal says what to resend.
 */
type Policy = 'strict' | 'safe' | 'lenient';
const read = (raw: unknown, policy: Policy = 'safe') => parseArguments(raw, policy, DEFAULT_LIMITS);
const rules = (raw: unknown, policy: Policy = 'safe') =>
  read(raw, policy).transformations.map((transformation) => transformation.rule);

function refusal(raw: unknown, policy: Policy = 'safe'): string {
  try {
    read(raw, policy);
  } catch (error) {
    expect(error).toBeInstanceOf(MalformedArgumentsError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused under ${policy}`);
}

function toolExecutor(policy: Policy = 'safe') {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'search/items',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          max_results: { type: 'integer' },
          ratio: { type: 'number' },
          account_id: { type: 'string' },
          limit: { type: 'integer' },
          note: {},
          filters: { type: 'object', properties: { owner: { type: 'string' } } },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    async (params) => params,
    { aliases: ['find_items'] },
  );
  registry.registerJsonSchemaTool(
    { name: 'delete_everything', parameters: { type: 'object', properties: {} } },
    async () => 'deleted',
  );
  return new PersonaToolExecutor(registry, { logger: silentLogger, policy });
}

async function run(args: unknown, policy: Policy = 'safe'): Promise<ToolResult> {
  return toolExecutor(policy).execute({ id: 'c', name: 'search/items', arguments: args as string });
}
async function value(args: unknown, policy: Policy = 'safe'): Promise<unknown> {
  const result = await run(args, policy);
  if (!result.ok) throw new Error(`refused: ${result.error.message}`);
  return result.value;
}
async function refusedMessage(args: unknown, policy: Policy = 'safe'): Promise<string> {
  const result = await run(args, policy);
  if (result.ok) throw new Error(`accepted as ${JSON.stringify(result.value)}`);
  return result.error.message;
}

describe('class 1: valid JSON that loses information in JSON.parse', () => {
  it('keeps a key given twice with equal values once, and records it', () => {
    expect(read('{"a": 1, "a": 1}').value).toEqual({ a: 1 });
    expect(rules('{"a": 1, "a": 1}')).toEqual(['duplicate-key']);
    expect(read('{"o": {"x": [1, {"y": 2}], "x": [1, {"y": 2}]}}').value).toEqual({ o: { x: [1, { y: 2 }] } });
  });

  it('refuses a key given twice with different values, naming the key and both values', () => {
    const message = refusal('{"query": "cats", "limit": 5, "query": "dogs"}');
    expect(message).toContain('"query" twice');
    expect(message).toContain('"cats"');
    expect(message).toContain('"dogs"');
    expect(message).toContain('send it once');
    expect(refusal('{"filters": {"owner": "ana", "owner": "bo"}}')).toContain('"filters.owner"');
    expect(refusal("{'a': 1, 'a': 2,}")).toContain('"a" twice');
  });

  it('names a sensitive key given twice without echoing its values', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      { name: 'login', parameters: { type: 'object', properties: { api_key: { type: 'string' } } } },
      async () => 'ok',
    );
    const definition = registry.get('login')!;
    const sensitive = {
      ...definition,
      parameters: {
        ...definition.parameters,
        properties: definition.parameters.properties.map((property) => ({ ...property, sensitive: true })),
      },
    };
    const target = callTargetFor(sensitive, (name) => name === 'login');
    let message = '';
    try {
      parseArguments('{"apiKey": "sk-LIVE-1", "apiKey": "sk-LIVE-2"}', 'safe', DEFAULT_LIMITS, target);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"apiKey" twice with different values');
    expect(message).not.toContain('sk-LIVE');
  });

  it('keeps the digits of an integer beyond 2^53 for a string parameter, refuses it for a number', async () => {
    expect(await value('{"account_id": 12345678901234567891}')).toEqual({ account_id: '12345678901234567891' });
    expect(await value('{"account_id": "12345678901234567891"}')).toEqual({ account_id: '12345678901234567891' });
    for (const key of ['max_results', 'ratio']) {
      for (const sent of ['12345678901234567891', '"12345678901234567891"', '-98765432109876543210']) {
        const message = await refusedMessage(`{"${key}": ${sent}}`);
        expect(message).toContain('2^53');
        expect(message).toMatch(/send it as a string|smaller number/);
      }
    }
    // Nothing JavaScript cannot hold reaches a free-form parameter either.
    expect(await refusedMessage('{"note": {"id": 12345678901234567891}}')).toContain('2^53');
    // Integers a double holds exactly are numbers as before.
    expect(await value('{"ratio": 9007199254740991, "note": 1e21}')).toEqual({ ratio: 9007199254740991, note: 1e21 });
  });
});

describe('class 2: repairs that must not corrupt strings', () => {
  it('reads Python triple-quoted strings', () => {
    expect(read('{"text": """He said "hi"\nand left"""}').value).toEqual({ text: 'He said "hi"\nand left' });
    expect(read("{'text': '''it's fine'''}").value).toEqual({ text: "it's fine" });
    expect(rules("{'text': '''x'''}")).toContain('triple-quotes');
  });

  it('keeps backslashes that escape nothing (Windows paths, regular expressions)', () => {
    expect(read('{"path": "c:\\Users\\ana\\Documents"}').value).toEqual({ path: 'c:\\Users\\ana\\Documents' });
    expect(read('{"pattern": "\\d+\\s*"}').value).toEqual({ pattern: '\\d+\\s*' });
    expect(rules('{"pattern": "\\d+"}')).toEqual(['invalid-escapes']);
  });

  it('refuses a string that mixes real escapes with backslashes that escape nothing', () => {
    const message = refusal('{"path": "C:\\Users\\temp"}');
    expect(message).toContain('"path"');
    expect(message).toContain('\\t');
    expect(message).toContain('write every literal backslash as \\\\');
    expect(refusal('{"path": "c:\\Users\\ana\\new"}')).toContain('two readings');
    expect(refusal('{"a": "it\\\'s"}')).toContain('JSON and another in Python');
  });

  it('reads unescaped quotes inside a string when only one reading closes the document', () => {
    expect(read('{"text": "say "hi" now"}').value).toEqual({ text: 'say "hi" now' });
    expect(read('{"text": "He said: "no"", "limit": 3}').value).toEqual({ text: 'He said: "no"', limit: 3 });
    expect(rules('{"text": "say "hi" now"}')).toEqual(['inner-quotes']);
  });

  it('refuses unescaped quotes when the text has another reading', () => {
    const message = refusal('{"a": "say "hi" now", "b": "x"}');
    expect(message).toContain('more than one way');
    expect(message).toContain('\\"');
    expect(refusal('{"a": "x "b", "c": "d"}')).toContain('more than one way');
    // The shape of a missing comma is never glued into one string: its one reading is the comma.
    expect(read('{"a": "x" "b": "y"}').value).toEqual({ a: 'x', b: 'y' });
    expect(rules('{"a": "x" "b": "y"}')).toEqual(['inserted-comma']);
  });

  it('keeps raw newlines and tabs inside strings, removes comments (not // in URLs), and one stray closing bracket', () => {
    expect(read('{"text": "line one\nline\ttwo"}').value).toEqual({ text: 'line one\nline\ttwo' });
    expect(rules('{"text": "a\nb"}')).toEqual(['raw-control-characters']);
    const commented = '{\n  // the site\n  "url": "https://example.com/a//b", /* the page */ "page": 2 // last\n}';
    expect(read(commented).value).toEqual({ url: 'https://example.com/a//b', page: 2 });
    expect(rules(commented)).toEqual(['comments']);
    expect(read('{"a": {"b": 1}}}').value).toEqual({ a: { b: 1 } });
    expect(rules('{"a": 1}]')).toEqual(['stray-closing-bracket']);
  });

  it('refuses two stray brackets, an unclosed comment and cut-off text', () => {
    // Still refused: with no tool to tell them apart, the two-edit readings (the brackets removed, or quoted) differ.
    expect(refusal('{"a": 1}}}')).toMatch(/more than one way/);
    expect(refusal('{"a": 1 /* note')).toContain('cut off');
    expect(refusal('{"a": "unfinished')).toContain('cut off');
  });

  it('under strict, refuses every repair', () => {
    expect(refusal('{"a": 1, "a": 1}', 'strict')).toContain('send each key once');
    for (const text of ['{"a": 1, "a": 1,}', '{"p": "\\d"}', '{"t": """x"""}', '{"a": 1} // c', '{"a": 1}}'])
      refusal(text, 'strict');
  });
});

describe('class 3: the whole call wrapped inside the arguments', () => {
  const inner = { query: 'cats', limit: 2 };

  it.each([
    ['name + arguments', { name: 'search/items', arguments: inner }],
    ['name + parameters', { name: 'search/items', parameters: inner }],
    ['arguments as text', { name: 'search_items', arguments: JSON.stringify(inner) }],
    [
      'an OpenAI tool_call',
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'functions.search_items', arguments: JSON.stringify(inner) },
      },
    ],
    ['an alias', { name: 'find_items', arguments: inner }],
  ])('unwraps %s naming this tool', async (_label, envelope) => {
    expect(await value(JSON.stringify(envelope))).toEqual(inner);
    expect(await value(envelope)).toEqual(inner);
    expect(
      (await run(JSON.stringify(envelope))).transformations.map((transformation) => transformation.rule),
    ).toContain('unwrapped-call');
  });

  it('unwraps a <tool_call> block', async () => {
    const block = `<tool_call>\n${JSON.stringify({ name: 'search/items', arguments: inner })}\n</tool_call>`;
    expect(await value(block)).toEqual(inner);
    expect((await run(block)).transformations.map((transformation) => transformation.rule)).toEqual([
      'tool-call-block',
      'unwrapped-call',
    ]);
  });

  it('refuses an envelope naming another tool, several calls, and a block without a call', async () => {
    const other = await refusedMessage(JSON.stringify({ name: 'delete_everything', arguments: {} }));
    expect(other).toContain('"delete_everything"');
    expect(other).toContain('send only the arguments object of "search/items"');
    const twice = `<tool_call>{"name": "search/items", "arguments": {}}</tool_call>\n<tool_call>{"name": "search/items", "arguments": {}}</tool_call>`;
    expect(await refusedMessage(twice)).toContain('several <tool_call> blocks');
    expect(await refusedMessage('<tool_call>{"query": "x"}</tool_call>')).toContain('does not hold a call');
    expect(
      await refusedMessage(
        JSON.stringify([
          { name: 'search/items', arguments: inner },
          { name: 'search/items', arguments: { query: 'dogs' } },
        ]),
      ),
    ).toContain('exactly one object');
    expect(await refusedMessage(JSON.stringify({ name: 'search/items', arguments: inner }), 'strict')).toContain(
      'send only the arguments object',
    );
  });

  it('leaves the arguments alone when the tool declares the envelope keys itself', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: 'rename',
        parameters: { type: 'object', properties: { name: { type: 'string' }, arguments: { type: 'object' } } },
      },
      async (params) => params,
    );
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const result = await executor.execute({
      id: 'c',
      name: 'rename',
      arguments: '{"name": "rename", "arguments": {"x": 1}}',
    });
    expect(result).toMatchObject({ ok: true, value: { name: 'rename', arguments: { x: 1 } } });
    registry.registerJsonSchemaTool(
      { name: 'label', parameters: { type: 'object', properties: { name: { type: 'string' } } } },
      async (params) => params,
    );
    const ambiguous = await executor.execute({
      id: 'c',
      name: 'label',
      arguments: '{"name": "label", "arguments": {"x": 1}}',
    });
    expect(ambiguous.ok).toBe(false);
  });
});

describe('fences (issue 11): unwrapped two levels deep, no more, without regular expressions', () => {
  it('reads a fence in a fence and refuses a third level', () => {
    expect(read('```json\n```json\n{"a": 1}\n```\n```').value).toEqual({ a: 1 });
    expect(refusal('```\n```\n```\n{"a": 1}\n```\n```\n```')).toContain('nested code fences');
  });
});

describe('class 4: containers and prose', () => {
  it('reads the object inside a one-element array', () => {
    expect(read('[{"a": 1}]').value).toEqual({ a: 1 });
    expect(rules('[{"a": 1}]')).toEqual(['single-element-array']);
    expect(read("[{'a': True}]").value).toEqual({ a: true });
  });

  it('refuses two different objects, naming each', () => {
    const message = refusal('[{"a": 1}, {"a": 2}]');
    expect(message).toContain('{"a":1}');
    expect(message).toContain('{"a":2}');
    expect(message).toContain('exactly one object per call');
    expect(refusal('{"a": 1}{"b": 2}')).toContain('2 different JSON objects');
  });

  it('under lenient, extracts exactly one object from prose and refuses several candidates', () => {
    expect(read('Here is the call: {"city": "Paris"}', 'lenient').value).toEqual({ city: 'Paris' });
    expect(rules('Here is the call: {"city": "Paris"}', 'lenient')).toEqual(['object-in-prose']);
    expect(refusal('Either {"city": "Paris"} or {"city": "Rome"}', 'lenient')).toContain('without surrounding text');
    expect(read('Sure:\n```json\n{"city": "Paris"}\n```\nDone.', 'lenient').value).toEqual({ city: 'Paris' });
  });
});

describe('class 5: keys', () => {
  it('refuses one parameter under two spellings with different values', async () => {
    const message = await refusedMessage('{"max_results": 3, "maxResults": 4}');
    expect(message).toContain('given twice');
    expect(message).toContain('send it once');
    expect(await value('{"max_results": 3, "maxResults": 3}')).toEqual({ max_results: 3 });
  });

  it.each(['max results', 'max-results', 'MAX_RESULTS', 'MaxResults'])(
    'maps the spelling %p when unique',
    async (key) => {
      expect(await value(`{"${key}": 3}`)).toEqual({ max_results: 3 });
    },
  );

  it('refuses a key one edit away from an unset parameter with "did you mean", maps it under lenient', async () => {
    for (const key of ['max_result', 'qeury', 'max_resultss']) {
      const message = await refusedMessage(`{"${key}": 3, "limit": 1}`);
      expect(message).toContain('did you mean');
    }
    expect(await value('{"qeury": "cats"}', 'lenient')).toEqual({ query: 'cats' });
    const mapped = await run('{"qeury": "cats"}', 'lenient');
    expect(mapped.transformations.map((transformation) => transformation.rule)).toContain('key-typo');
  });

  it('still drops keys that resemble nothing declared, and near misses of parameters already set', async () => {
    const result = await run('{"query": "cats", "qeury": "cats", "colour": "red"}');
    expect(result).toMatchObject({ ok: true, value: { query: 'cats' } });
    expect(
      result.transformations.filter((transformation) => transformation.rule === 'dropped-unknown-key'),
    ).toHaveLength(2);
  });
});

describe('class 6: numbers', () => {
  it.each([
    [' 5 ', 5],
    ['+5', 5],
    ['1e3', 1000],
    ['+1.5e1', 15],
  ])('reads the integer %p', async (sent, expected) => {
    expect(await value({ max_results: sent })).toEqual({ max_results: expected });
  });

  it.each([
    ['1,000', 'thousands separator'],
    ['3,5', 'decimal comma'],
    ['$5', 'currency or percent'],
    ['50%', 'currency or percent'],
    ['0x10', 'radix prefix'],
    ['NaN', 'NaN and Infinity'],
    ['-Infinity', 'NaN and Infinity'],
  ])('refuses %p with the reason', async (sent, reason) => {
    for (const key of ['max_results', 'ratio']) expect(await refusedMessage({ [key]: sent })).toContain(reason);
  });

  it('refuses bare NaN and Infinity in the text', () => {
    expect(refusal('{"ratio": NaN}')).toContain('not a number JSON can carry');
    expect(refusal('{"ratio": -Infinity}')).toContain('send a finite number');
  });
});

describe('class 7: Python literals', () => {
  it("reads what Python's repr prints, escapes included", () => {
    expect(read("{'a': (1, 2), 'b': ('x',), 'c': [None, True, False], 'd': {'e': 1.5e-05}}").value).toEqual({
      a: [1, 2],
      b: ['x'],
      c: [null, true, false],
      d: { e: 1.5e-5 },
    });
    expect(read("{'s': 'tab\\there\\nline \\x41\\u00e9\\U0001f600 \\'q\\' \\\\'}").value).toEqual({
      s: "tab\there\nline Aé😀 'q' \\",
    });
    expect(read("{'s': \"it's\"}").value).toEqual({ s: "it's" });
    expect(rules("{'a': (1, 2)}")).toEqual(['single-quotes', 'python-tuples']);
  });

  it('refuses what is not a literal, and escapes Python would not accept', () => {
    expect(refusal("{'a': os.system('rm')}")).toContain('unquoted text');
    expect(refusal("{'a': set()}")).toContain('unquoted text');
    expect(refusal("{'s': '\\x4'}")).toContain('not complete');
    expect(refusal("{'s': '\\N{BULLET}'}")).toContain('not complete');
    expect(refusal("{1: 'a'}")).toContain('expected a key');
  });
});

describe('nested JSON text inside values goes through the same reader and walk', () => {
  it('drops prototype keys and refuses depth and item counts, counted from where the string sits', async () => {
    const result = await run({ filters: '{"owner": "ana", "__proto__": {"isAdmin": true}}' });
    expect(result).toMatchObject({ ok: true, value: { filters: { owner: 'ana' } } });
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    expect(result.transformations.map((transformation) => [transformation.path, transformation.rule])).toContainEqual([
      'filters.__proto__',
      'dropped-dangerous-key',
    ]);
    const deep = await run({ note: 'x', tags: `${'['.repeat(100_000)}${']'.repeat(100_000)}` });
    expect(deep.ok).toBe(false);
    expect(!deep.ok && deep.error.message).toContain('deeper than 64');
    const many = await run({ tags: JSON.stringify(Array.from({ length: 10_001 }, () => 'x')) });
    expect(!many.ok && many.error.message).toContain('at most 10000 items');
  });

  it("issue 11's reproducer: a prototype key inside a JSON string for a free-form object never reaches a prototype", async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    let received: Record<string, unknown> | undefined;
    registry.registerJsonSchemaTool(
      { name: 'store', parameters: { type: 'object', properties: { meta: { type: 'object' } } } },
      async (params) => {
        received = params;
        return 'stored';
      },
    );
    for (const validation of ['compiled', 'reference'] as const) {
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation });
      const result = await executor.execute({
        id: 'p',
        name: 'store',
        arguments: '{"meta": "{\\"__proto__\\": {\\"isAdmin\\": true}, \\"k\\": 1}"}',
      });
      expect(result.ok).toBe(true);
      const meta = received!['meta'] as Record<string, unknown>;
      expect(meta).toEqual({ k: 1 });
      expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
      expect(meta['isAdmin']).toBeUndefined();
      expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    }
  });

  it('refuses a duplicate key with different values inside a JSON string value', async () => {
    const message = await refusedMessage({ filters: '{"owner": "ana", "owner": "bo"}' });
    expect(message).toContain('"filters.owner" twice');
  });
});
