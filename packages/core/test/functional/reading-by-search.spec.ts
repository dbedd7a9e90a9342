import 'reflect-metadata';
import {
  PersonaToolExecutor,
  silentLogger,
  ToolRegistry,
  type ToolCall,
  type ToolErrorPayload,
  type ToolResult,
} from '@toolwright/core';
import { CONTROL_TOKENS } from '@toolwright/core/internal';

/**
 * Arguments text read by principle: the one reading found by search (syntax-only edits), envelopes read by the
 * unknown-key rule, escapes with too few hex digits refused, and serving-stack artefacts (control tokens, an escaping
 * layer, literal `\n` between tokens) read. Real inputs from the reports that motivated each, through the executor.
 */
function executor(policy?: 'strict' | 'safe' | 'lenient') {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'get_current_loc',
      parameters: {
        type: 'object',
        properties: {
          coordinate_format: { type: 'string', enum: ['DMS', 'DD'] },
          include_altitude: { type: 'boolean' },
          timeout: { type: 'integer' },
        },
      },
    },
    async (params) => params,
  );
  registry.registerJsonSchemaTool(
    {
      name: 'convert',
      parameters: { type: 'object', properties: { unit: { type: 'string' }, value: { type: 'number' } } },
    },
    async (params) => params,
  );
  registry.registerJsonSchemaTool(
    {
      name: 'search',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          name: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          limit: { type: 'integer' },
        },
        required: ['query'],
      },
    },
    async (params) => params,
  );
  registry.registerJsonSchemaTool(
    {
      name: 'str_replace_editor',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string' },
          path: { type: 'string' },
          view_range: { type: 'array', items: { type: 'integer' } },
        },
        required: ['command', 'path'],
      },
    },
    async (params) => params,
  );
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

describe('envelopes, read by the unknown-key rule', () => {
  const envelope = {
    name: 'get_current_loc',
    coordinate_format: 'DMS',
    arguments: { include_altitude: true, timeout: 30 },
  };

  it('reads an envelope beside a parameter sent flat, as text and as an object, and records it', async () => {
    for (const args of [JSON.stringify(envelope), envelope]) {
      const result = await call('get_current_loc', args);
      expect(result).toMatchObject({
        ok: true,
        value: { coordinate_format: 'DMS', include_altitude: true, timeout: 30 },
      });
      expect(rules(result)).toEqual(['unwrapped-envelope']);
      expect(result.transformations[0]!.path).toBe('arguments');
    }
  });

  it('reads every arguments word, and an envelope named after the tool', async () => {
    for (const word of ['parameters', 'args', 'input', 'params', 'get_current_loc']) {
      const result = await call('get_current_loc', { coordinate_format: 'DD', [word]: { timeout: 5 } });
      expect(result).toMatchObject({ ok: true, value: { coordinate_format: 'DD', timeout: 5 } });
    }
  });

  it('refuses any other wrapper holding a parameter, naming it: never name "bob" from a filter', async () => {
    const error = refused(await call('search', '{"query": "cats", "filters": {"name": "bob"}}'));
    expect(error.code).toBe('MALFORMED_ARGUMENTS');
    expect(error.message).toContain('"filters"');
  });

  it('refuses the same parameter at the top and inside the envelope with different values', async () => {
    const error = refused(await call('get_current_loc', { timeout: 3, arguments: { timeout: 30 } }));
    expect(error.message).toContain('"timeout"');
    expect(error.message).toContain('different values');
    // The same value twice is one value.
    const same = await call('get_current_loc', { timeout: 3, arguments: { timeout: 3, include_altitude: false } });
    expect(same).toMatchObject({ ok: true, value: { timeout: 3, include_altitude: false } });
  });

  it('refuses an envelope beside a name that names another tool', async () => {
    const error = refused(
      await call('get_current_loc', { name: 'search', timeout: 3, arguments: { include_altitude: true } }),
    );
    expect(error.message).toContain('"search"');
  });

  it('changes nothing under strict: the keys are refused as unknown', async () => {
    const result = await call('get_current_loc', envelope, 'strict');
    expect(refused(result).issues.map((issue) => issue.rule)).toContain('unknown-key');
  });
});

describe('escapes with too few hex digits', () => {
  it('refuses \\u with two hex digits: the character meant cannot be known', async () => {
    const error = refused(await call('convert', '{"unit":"kg/m\\u00한","value":2}'));
    expect(error.code).toBe('MALFORMED_ARGUMENTS');
    expect(error.message).toContain('too few hex digits');
    expect(error.message).toContain('"unit"');
  });

  it('refuses \\x with one hex digit and \\U with five, and keeps backslashes that start no escape', async () => {
    expect(refused(await call('convert', '{"unit":"a\\x4"}')).message).toContain('too few hex digits');
    expect(refused(await call('convert', '{"unit":"a\\U0001f"}')).message).toContain('too few hex digits');
    const kept = await call('convert', '{"unit": "c:\\Users\\ana"}');
    expect(kept).toMatchObject({ ok: true, value: { unit: 'c:\\Users\\ana' } });
  });
});

describe('serving-stack artefacts', () => {
  it('reads literal \\n between tokens as white space (a Qwen3.5-Flash payload through OpenHands)', async () => {
    const text = '{\\n"command": "view",\\n"path": "/workspace/app.py",\\n"view_range": [1, 40]\\n}';
    const result = await call('str_replace_editor', text);
    expect(result).toMatchObject({
      ok: true,
      value: { command: 'view', path: '/workspace/app.py', view_range: [1, 40] },
    });
    expect(rules(result)).toEqual(['escaped-whitespace']);
  });

  it('keeps \\n inside strings as the newline it escapes', async () => {
    const result = await call('search', '{"query": "a\\nb",\\n"limit": 2}');
    expect(result).toMatchObject({ ok: true, value: { query: 'a\nb', limit: 2 } });
  });

  it('reads the arguments before a template control token, and after one', async () => {
    for (const token of ['<|im_end|>', '<|eot_id|>', '<|call|>', '</s>', '<end_of_turn>']) {
      const result = await call('search', `{"query": "cats"}${token}`);
      expect(result).toMatchObject({ ok: true, value: { query: 'cats' } });
      expect(rules(result)).toEqual(['control-token']);
    }
    const before = await call('search', '<|im_start|>{"query": "cats"}<|im_end|>\n');
    expect(before).toMatchObject({ ok: true, value: { query: 'cats' } });
    expect(CONTROL_TOKENS).toContain('<|im_end|>');
  });

  it('refuses a control token between two objects: two turns, not an artefact', async () => {
    refused(await call('search', '{"query": "cats"}<|im_end|>{"query": "dogs"}'));
  });

  it('reads a whole text a transport escaped once', async () => {
    const result = await call('search', '{\\"query\\": \\"cats \\\\\\"tabby\\\\\\"\\", \\"limit\\": 3}');
    expect(result).toMatchObject({ ok: true, value: { query: 'cats "tabby"', limit: 3 } });
    expect(rules(result)).toEqual(['escaped-text']);
  });
});

describe('one reading, found by search', () => {
  it.each([
    ['a missing comma', '{"query": "cats" "limit": 3}', { query: 'cats', limit: 3 }, 'inserted-comma'],
    ['a missing colon', '{"query" "cats", "limit": 3}', { query: 'cats', limit: 3 }, 'inserted-colon'],
    ['a missing closing quote', '{"query": "cats, "limit": 3}', { query: 'cats', limit: 3 }, 'inserted-quote'],
    [
      'a ] where } belongs',
      '{"query": "cats", "tags": ["a", "b"}, "limit": 3}',
      { query: 'cats', tags: ['a', 'b'], limit: 3 },
      'replaced-bracket',
    ],
    ['a stray } after a comma', '{"query": "cats",} "limit": 3}', { query: 'cats', limit: 3 }, 'removed-bracket'],
  ])('reads %s, recording the edit', async (_, text, value, rule) => {
    const result = await call('search', text);
    expect(result).toMatchObject({ ok: true, value });
    expect(rules(result)).toContain(rule);
  });

  it('reads ] and } swapped (two edits)', async () => {
    const result = await call('search', '{"query": "cats", "tags": ["a", "b"}]');
    expect(result).toMatchObject({ ok: true, value: { query: 'cats', tags: ['a', 'b'] } });
    expect(rules(result)).toHaveLength(2);
  });

  it('refuses, naming both, when the smallest edits read the text two ways', async () => {
    // The missing quote closes "list [1" or "list [1]": both documents are calls the tool takes.
    const error = refused(await call('search', '{"query": "ok", "tags": ["new york", "list [1]], "limit": 3}'));
    expect(error.message).toContain('more than one way');
  });

  it('never completes a cut-off text', async () => {
    expect(refused(await call('search', '{"query": "cats", "limit": 3')).message).toContain('cut off');
    expect(refused(await call('search', '{"query": "cats')).message).toContain('cut off');
  });

  it('makes no structural edit to valid JSON, and none under strict', async () => {
    const valid = await call('search', '{"query": "cats", "tags": {"a": 1}}');
    expect(refused(valid).code).toBe('INVALID_ARGUMENTS');
    expect(refused(await call('search', '{"query": "cats" "limit": 3}', 'strict')).code).toBe('MALFORMED_ARGUMENTS');
  });
});
