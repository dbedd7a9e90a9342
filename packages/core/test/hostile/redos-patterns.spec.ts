import 'reflect-metadata';
import { DefinitionError, fromJsonSchema, PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';
import { compilePatternMatcher, linearEngineProblem, MAX_PATTERN_SUBJECT_LENGTH } from '@toolwright/core/internal';

/** Issue 11's ReDoS reproducers: each froze the process for 13-121 s on the backtracking engine. */
const HOSTILE: ReadonlyArray<readonly [pattern: string, subject: string]> = [
  ['^(a|a)*$', `${'a'.repeat(29)}b`],
  ['^(a|a?)+$', `${'a'.repeat(29)}b`],
  ['^(a|aa)+$', `${'a'.repeat(46)}b`],
  ['^\\d*\\d*\\d*\\d*\\d*$', `${'1'.repeat(3_000)}a`],
  ['\\s+$', `${' '.repeat(99_000)}a`],
];

function remoteTool(pattern: string): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    {
      name: 'remote.echo',
      description: 'Echo',
      parameters: { type: 'object', properties: { text: { type: 'string', pattern } }, required: ['text'] },
    },
    async (params) => params,
    { untrusted: true },
  );
  return registry;
}

describe('patterns from untrusted schemas run in linear time', () => {
  it.each(HOSTILE)(
    'the executor refuses a non-matching value for %s without backtracking (compiled and reference paths)',
    async (pattern, subject) => {
      for (const validation of ['compiled', 'reference'] as const) {
        const executor = new PersonaToolExecutor(remoteTool(pattern), { logger: silentLogger, validation });
        const result = await executor.execute({
          id: 'c1',
          name: 'remote.echo',
          arguments: JSON.stringify({ text: subject }),
        });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.error.code).toBe('INVALID_ARGUMENTS');
        expect(result.error.issues?.[0]).toMatchObject({ path: 'text', rule: 'pattern' });
        const matching = await executor.execute({
          id: 'c2',
          name: 'remote.echo',
          arguments: JSON.stringify({ text: subject.slice(0, -1) }),
        });
        expect(matching.ok).toBe(true);
      }
    },
  );

  it('runs every pattern of the hostile list on the linear engine', () => {
    for (const [pattern] of HOSTILE) expect(compilePatternMatcher(pattern).engine).toBe('linear');
  });

  it('refuses, for an untrusted schema, a pattern the linear engine cannot run; a developer may still use one', () => {
    for (const pattern of ['^(?=a)a$', '^(a)\\1$', '(?<!x)y', '^(?<w>a)\\k<w>$']) {
      expect(linearEngineProblem(pattern)).toBeDefined();
      const schema = { type: 'object', properties: { value: { type: 'string', pattern } } };
      expect(() => fromJsonSchema(schema, { untrusted: true, target: 'remote.tool' })).toThrow(DefinitionError);
      expect(() => fromJsonSchema(schema, { untrusted: true, target: 'remote.tool' })).toThrow(
        /cannot run on the linear-time engine used for untrusted schemas/,
      );
      expect(fromJsonSchema(schema).properties[0]?.schema).toEqual({ kind: 'string', pattern });
      expect(compilePatternMatcher(pattern).engine).toBe('backtracking');
    }
  });

  it('refuses a value longer than the subject cap with a sentence that says so', async () => {
    const executor = new PersonaToolExecutor(remoteTool('^a+$'), {
      logger: silentLogger,
      limits: { maxArgumentsBytes: 4 * 1024 * 1024 },
    });
    const result = await executor.execute({
      id: 'c1',
      name: 'remote.echo',
      arguments: JSON.stringify({ text: 'a'.repeat(MAX_PATTERN_SUBJECT_LENGTH + 1) }),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.issues?.[0]?.message).toContain(
      `"text" has ${MAX_PATTERN_SUBJECT_LENGTH + 1} characters; a value checked against a pattern may have at most ${MAX_PATTERN_SUBJECT_LENGTH}. Send a shorter value.`,
    );
    expect(compilePatternMatcher('^a+$').test('a'.repeat(MAX_PATTERN_SUBJECT_LENGTH))).toBe(true);
  });
});

describe('the linear engine matches what ECMAScript (u flag) matches', () => {
  const patterns = [
    '^[a-z]+$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^\\s*$',
    '\\S+',
    '^[\\s,]+$',
    '^.$',
    '^a.c$',
    '\\u00e9',
    '^[\\u0041-\\u005A]+$',
    '\\u{1F600}',
    '^\\w+@\\w+\\.com$',
    '\\bword\\b',
    '^[^\\s]+$',
    '^(?<year>\\d{4})$',
    '^\\p{L}+$',
    '^[[:alpha:]]+$',
    '^\\cA$',
    '[\\b]',
    '\\-',
    '^a{2,3}$',
    '^(ab)+$',
    '^(a?)+$',
    '\\/path',
    '^[\\-+]?\\d+(\\.\\d+)?$',
    '^\\x41$',
    '^\\0$',
  ];
  const subjects = [
    '',
    'abc',
    'ABC',
    '2026-11-21',
    ' ',
    '\u00a0',
    '\u2003',
    '\ufeff',
    '\t\n',
    'a',
    '\n',
    '\r',
    '\u2028',
    'abc',
    'a\rc',
    'é',
    'ÉCOLE',
    '😀',
    'x@y.com',
    'a word here',
    'words',
    'no-space',
    'has space',
    '2026',
    'ñandú',
    '[:alpha:]',
    'alpha]',
    '\u0001',
    '\b',
    '-',
    'aa',
    'aaaa',
    'abab',
    'aaa',
    '/path',
    '-12.5',
    '+3',
    'A',
    '\u0000',
    'a\u000bb',
  ];
  it.each(patterns)('%s', (pattern) => {
    const matcher = compilePatternMatcher(pattern);
    let expected: RegExp;
    try {
      expected = new RegExp(pattern, 'u');
    } catch {
      expected = new RegExp(pattern);
    }
    for (const subject of subjects)
      expect([pattern, subject, matcher.test(subject)]).toEqual([pattern, subject, expected.test(subject)]);
  });
});
