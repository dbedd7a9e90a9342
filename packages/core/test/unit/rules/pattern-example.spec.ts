import 'reflect-metadata';
import fc from 'fast-check';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';
import { patternExample } from '@toolwright/core/rules/pattern-example';
import { compilePatternMatcher } from '@toolwright/core/schema/pattern-engine';

/** A pattern's example matches the pattern, or there is none. */
describe('patternExample', () => {
  it.each([
    ['^[A-Z]-\\d+$', 'A-1'],
    ['^\\d{3}-\\d{4}$', '111-1111'],
    ['^[a-z]{2,5}$', 'aa'],
    ['^(?:https?|ftp)://[^\\s/]+$', 'https://a'],
    ['^(?<area>\\d{2})\\.(?:x|y)*$', '11.x'],
    ['^[^0-9]+$', 'a'],
    ['^\\u00e9t\\u{1F600}$', '\u00e9t\u{1F600}'],
    ['^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$', 'a@a.aa'],
    ['^-?\\d+(\\.\\d+)?$', '-1.1'],
    ['[A-Z]{2}', 'AA'],
    ['^$', ''],
  ])('makes an example of %p: %p', (pattern, example) => {
    expect(patternExample(pattern)).toBe(example);
    expect(compilePatternMatcher(pattern).test(example)).toBe(true);
  });

  it.each([
    ['a lookahead', '^(?=.*\\d).+$'],
    ['a backreference', '^(a)\\1$'],
    ['a word boundary', '\\bword\\b'],
    ['a Unicode property', '^\\p{Lu}+$'],
    ['an example longer than the cap', '^a{500}$'],
    ['a pattern whose first alternative ends the text too early', '^(?:a$|b)c$'],
    ['an unclosed group', '^(ab'],
  ])('makes none for %s (%p)', (_what, pattern) => {
    expect(patternExample(pattern)).toBeUndefined();
  });

  it('never returns a string its pattern refuses (5,000 generated patterns, fixed seed)', () => {
    const atom = fc.oneof(
      fc.constantFrom(
        'a',
        'Z',
        '7',
        '-',
        '\\.',
        '\\d',
        '\\w',
        '\\s',
        '\\D',
        '.',
        '[a-c]',
        '[^a-c]',
        '[\\d_]',
        '[^\\w]',
      ),
      fc.constantFrom('(?:x|y)', '(z)', '(?:)', '\\u0041', '\\x41', '^', '$', '\\b', '(?=a)'),
    );
    const quantifier = fc.constantFrom('', '', '?', '*', '+', '{2}', '{1,3}', '{2,}', '+?');
    const pattern = fc
      .array(fc.tuple(atom, quantifier), { maxLength: 8 })
      .map((parts) =>
        parts.map(([part, times]) => (part === '^' || part === '$' || part === '\\b' ? part : part + times)).join(''),
      );
    let made = 0;
    fc.assert(
      fc.property(pattern, (source) => {
        let valid = true;
        try {
          new RegExp(source, 'u');
        } catch {
          valid = false;
        }
        fc.pre(valid);
        const example = patternExample(source);
        if (example === undefined) return;
        made++;
        expect(compilePatternMatcher(source).test(example)).toBe(true);
      }),
      { seed: 4005, numRuns: 5_000 },
    );
    expect(made).toBeGreaterThan(2_000);
  });

  it('is linear: a long pattern is read in one pass', () => {
    const long = `^${'(?:a|b)'.repeat(140)}$`;
    const started = process.hrtime.bigint();
    expect(patternExample(long)).toBe('a'.repeat(140));
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1_000);
  });
});

describe('a pattern refusal', () => {
  async function refusal(pattern: string, validation: 'compiled' | 'reference'): Promise<string> {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: 'ticket',
        parameters: { type: 'object', properties: { code: { type: 'string', pattern } }, required: ['code'] },
      },
      () => 'done',
    );
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation, telemetry: false });
    const result = await executor.execute({ id: 'c', name: 'ticket', arguments: '{"code":"x"}' });
    return result.ok ? '' : result.error.message;
  }

  it.each(['compiled', 'reference'] as const)('gives an example that matches the pattern (%s path)', async (path) => {
    expect(await refusal('^[A-Z]-\\d+$', path)).toContain(
      '"code" must be a string matching /^[A-Z]-\\d+$/, but received "x". Example: "A-1".',
    );
    // No example can be made: none is given (never "text").
    const message = await refusal('\\bword\\b', path);
    expect(message).toContain('"code" must be a string matching');
    expect(message).not.toContain('Example:');
  });
});
