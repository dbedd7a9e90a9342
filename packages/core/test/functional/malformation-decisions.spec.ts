import 'reflect-metadata';
import {
  DEFAULT_LIMITS,
  PersonaToolExecutor,
  silentLogger,
  ToolRegistry,
  type ToolCall,
  type ToolErrorPayload,
  type ToolResult,
} from '@toolwright/core';
import { parseArguments } from '@toolwright/core/internal';

/**
 * Issue 27, item 2: the four decisions on malformed arguments, under the default policy, through the executor, with
 * the real inputs the issue cites. The BFCL-derived variants of each are in bfcl-never-wrong.spec.ts (classes 2 and 4).
 */
function executor(policy?: 'strict' | 'safe' | 'lenient') {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'search',
      parameters: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
    },
    async (params) => params,
  );
  registry.registerJsonSchemaTool(
    {
      name: 'run_shell',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
    async (params) => params,
  );
  registry.registerJsonSchemaTool({ name: 'ping', parameters: { type: 'object', properties: {} } }, async () => 'pong');
  return new PersonaToolExecutor(registry, { logger: silentLogger, ...(policy ? { policy } : {}) });
}

async function call(name: string, args: unknown, policy?: 'strict' | 'safe' | 'lenient'): Promise<ToolResult> {
  return executor(policy).execute({ id: 'c1', name, arguments: args as ToolCall['arguments'] });
}

function rules(result: ToolResult): string[] {
  return result.transformations.map((transformation) => transformation.rule);
}

function refused(result: ToolResult): ToolErrorPayload {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('decision 1: a call whose every key would be dropped as unknown is refused with the parameter names', () => {
  it('refuses {"query": "cats"} to a tool whose only parameters are optional q and limit', async () => {
    const result = await call('search', '{"query": "cats"}');
    const error = refused(result);
    expect(error.code).toBe('INVALID_ARGUMENTS');
    const issues = error.issues;
    expect(issues).toEqual([
      {
        path: '',
        rule: 'unknown-keys-only',
        expected: 'at least one of the keys q, limit',
        received: 'only unknown keys ("query")',
        message:
          'None of the keys sent ("query") is a parameter of this tool, so the call would run without any of its values; send the arguments under the tool\'s parameter names: "q", "limit".',
      },
    ]);
    // What was dropped is still recorded.
    expect(rules(result)).toEqual(['dropped-unknown-key']);
  });

  it('refuses a {"tool_uses": [...]} wrapper it does not recognise, and the same call as an object', async () => {
    const wrapper = { tool_uses: [{ recipient_name: 'functions.search', parameters: { q: 'cats' } }] };
    for (const args of [JSON.stringify(wrapper), wrapper]) {
      const error = refused(await call('search', args));
      expect(error.issues.map((issue) => issue.rule)).toEqual(['unknown-keys-only']);
      expect(error.message).toContain('"tool_uses"');
      expect(error.message).toContain('"q", "limit"');
    }
  });

  it('names five keys sent and counts the rest, past the per-key records too', async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`unrelated${index}`, index]));
    const error = refused(await call('search', JSON.stringify(many)));
    expect(error.issues[0]!.received).toBe(
      'only unknown keys ("unrelated0", "unrelated1", "unrelated2", "unrelated3", "unrelated4", ...)',
    );
  });

  it('still runs a call that keeps one key, drops the others, and a tool without parameters', async () => {
    const kept = await call('search', '{"q": "cats", "colour": "red"}');
    expect(kept).toMatchObject({ ok: true, value: { q: 'cats' } });
    expect(rules(kept)).toEqual(['dropped-unknown-key']);
    expect(await call('ping', '{"verbose": true}')).toMatchObject({ ok: true, value: 'pong' });
    expect(await call('search', '{}')).toMatchObject({ ok: true, value: {} });
    // A required parameter missing is its own refusal, unchanged.
    const required = refused(await call('run_shell', '{"cmd": "ls"}'));
    expect(required.issues.map((issue) => issue.rule)).toEqual(['required']);
  });
});

describe('decision 2: exactly one JSON object inside prose is read under the default policy', () => {
  it('reads "Here is the call: {"q": "cats"}" and records object-in-prose', async () => {
    const result = await call('search', 'Here is the call: {"q": "cats"}');
    expect(result).toMatchObject({ ok: true, value: { q: 'cats' } });
    expect(rules(result)).toEqual(['object-in-prose']);
    expect(await call('search', 'Sure!\n{"q": "cats", "limit": 3}\nLet me know if you need more.')).toMatchObject({
      ok: true,
      value: { q: 'cats', limit: 3 },
    });
  });

  it.each([
    ['two objects', 'Either {"q": "cats"} or {"q": "dogs"}'],
    ['an object plus a fragment', 'Here is the call: {"q": "cats"}, "limit": 3}'],
    ['an object plus an array', 'Call it with {"q": "cats"} and [1, 2]'],
    ['call syntax around it', 'search({"q": "cats"})'],
    ['a tag around it', '<function=search>{"q": "cats"}'],
    ['a quoted value around it', 'Search "dogs" with {"q": "cats"}'],
    ['an assignment around it', 'args = {"q": "cats"}'],
    ['a fenced block in prose (lenient only)', 'Sure:\n```json\n{"q": "cats"}\n```\nDone.'],
    ['a cut-off object', 'Here is the call: {"q": "cats"'],
  ])('refuses %s', async (_name, text) => {
    expect(refused(await call('search', text)).code).toBe('MALFORMED_ARGUMENTS');
  });

  it('stays refused under strict', async () => {
    expect(refused(await call('search', 'Here is the call: {"q": "cats"}', 'strict')).code).toBe('MALFORMED_ARGUMENTS');
  });
});

describe('decision 3: a one-element array holding the arguments object is read the same as text or as an object', () => {
  it('reads [{"q": "cats"}] both ways, with the same record', async () => {
    const asText = await call('search', '[{"q": "cats"}]');
    const asObject = await call('search', [{ q: 'cats' }]);
    expect(asText).toMatchObject({ ok: true, value: { q: 'cats' } });
    expect(asObject).toMatchObject({ ok: true, value: { q: 'cats' } });
    expect(rules(asObject)).toEqual(rules(asText));
    expect(rules(asObject)).toEqual(['single-element-array']);
  });

  it('refuses two objects both ways, an empty array, and an array under strict', async () => {
    const two = refused(await call('search', [{ q: 'cats' }, { q: 'dogs' }]));
    expect(two.message).toContain('2 different JSON objects');
    expect(refused(await call('search', '[{"q": "cats"}, {"q": "dogs"}]')).message).toContain(
      '2 different JSON objects',
    );
    expect(refused(await call('search', [])).message).toContain('an array of 0 items');
    expect(refused(await call('search', ['cats'])).message).toContain('an array of 1 item');
    expect(refused(await call('search', [{ q: 'cats' }], 'strict')).message).toContain('an array of 1 item');
  });

  it('does not serialize the objects of a caller array it refuses (they may be cyclic)', () => {
    // The executor's budget check refuses a cyclic value first; the parse step, which interop adapters call directly,
    // describes the objects instead of serializing them.
    const cyclic: Record<string, unknown> = { q: 'cats' };
    cyclic['self'] = cyclic;
    expect(() => parseArguments([cyclic, { q: 'dogs' }], 'safe', DEFAULT_LIMITS)).toThrow(
      'an object with keys q, self and an object with keys q',
    );
  });
});

describe('decision 4: escapes that are not JSON', () => {
  it('reads \\_ as _ (OpenHands issue 260: "bash hello\\_world.sh")', async () => {
    const result = await call('run_shell', '{"command": "bash hello\\_world.sh"}');
    expect(result).toMatchObject({ ok: true, value: { command: 'bash hello_world.sh' } });
    expect(rules(result)).toEqual(['escaped-underscores']);
    // With real escapes beside it: one reading.
    expect(await call('run_shell', '{"command": "cat my\\_file.txt\\n"}')).toMatchObject({
      ok: true,
      value: { command: 'cat my_file.txt\n' },
    });
  });

  it('keeps backslashes that precede only letters or digits (c:\\Users\\ana)', async () => {
    const result = await call('run_shell', '{"command": "dir c:\\Users\\ana"}');
    expect(result).toMatchObject({ ok: true, value: { command: 'dir c:\\Users\\ana' } });
    expect(rules(result)).toEqual(['invalid-escapes']);
    expect(await call('run_shell', '{"command": "grep \\d+ \\w9 \\8"}')).toMatchObject({
      ok: true,
      value: { command: 'grep \\d+ \\w9 \\8' },
    });
  });

  it.each(['\\(', '\\.', '\\*', '\\-', '\\ ', '\\$'])(
    'refuses the escaped punctuation %s: two readings',
    async (escape) => {
      const error = refused(await call('run_shell', `{"command": "grep a${escape}b"}`));
      expect(error.code).toBe('MALFORMED_ARGUMENTS');
      expect(error.message).toContain(`contains ${JSON.stringify(escape)}`);
      expect(error.message).toContain('two readings');
    },
  );

  it('refuses \\_ beside a backslash kept as written: two readings', async () => {
    const error = refused(await call('run_shell', '{"command": "dir c:\\Users\\_private"}'));
    expect(error.message).toContain('mixes escape sequences');
  });

  it('leaves Python strings to Python: \\_ and \\( are kept as written there', async () => {
    expect(await call('run_shell', "{'command': 'echo a\\_b\\(c'}")).toMatchObject({
      ok: true,
      value: { command: 'echo a\\_b\\(c' },
    });
  });
});
