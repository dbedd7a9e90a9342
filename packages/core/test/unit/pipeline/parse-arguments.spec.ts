import 'reflect-metadata';
import { DEFAULT_LIMITS, InvalidArgumentsError, MalformedArgumentsError } from '@toolwright/core';
import { parseArguments, sanitizeArguments } from '@toolwright/core/internal';

const safe = (raw: unknown) => parseArguments(raw, 'safe', DEFAULT_LIMITS);
const rules = (raw: unknown, policy: 'strict' | 'safe' | 'lenient' = 'safe') =>
  parseArguments(raw, policy, DEFAULT_LIMITS).transformations.map((transformation) => transformation.rule);

function malformed(raw: unknown, policy: 'strict' | 'safe' | 'lenient' = 'safe'): MalformedArgumentsError {
  try {
    parseArguments(raw, policy, DEFAULT_LIMITS);
  } catch (error) {
    expect(error).toBeInstanceOf(MalformedArgumentsError);
    return error as MalformedArgumentsError;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('parseArguments (pipeline step 3)', () => {
  it.each([[null], [undefined], [''], ['   \n'], ['null']])('reads %p as no arguments', (raw) => {
    expect(safe(raw).value).toEqual({});
    expect(rules(raw)).toEqual(['empty-arguments']);
  });

  it('passes plain JSON and objects through without transformations', () => {
    expect(safe('{"a": 1, "b": [true]}')).toEqual({ value: { a: 1, b: [true] }, transformations: [], owned: true });
    const object = { a: 1 };
    expect(safe(object).value).toBe(object);
  });

  it('unwraps double-encoded JSON (twice) and records each level', () => {
    const once = JSON.stringify(JSON.stringify({ number: 5 }));
    expect(safe(once).value).toEqual({ number: 5 });
    expect(rules(once)).toEqual(['double-encoded-json']);
    const twice = JSON.stringify(once);
    expect(safe(twice).value).toEqual({ number: 5 });
    expect(rules(twice)).toEqual(['double-encoded-json', 'double-encoded-json']);
  });

  it('reads a fenced block', () => {
    expect(safe('```json\n{"city": "Paris"}\n```').value).toEqual({ city: 'Paris' });
    expect(rules('```\n{"city": "Paris"}\n```')).toEqual(['fenced-block']);
  });

  it('repairs trailing commas and Python literals, naming each repair', () => {
    expect(safe('{"a": 1, "b": [1, 2,],}').value).toEqual({ a: 1, b: [1, 2] });
    expect(rules('{"a": 1,}')).toEqual(['trailing-commas']);
    expect(safe("{'flag': True, 'other': None, 'no': False}").value).toEqual({ flag: true, other: null, no: false });
    expect(rules("{'flag': True}")).toEqual(['python-literals', 'single-quotes']);
  });

  it('refuses truncated text instead of completing it', () => {
    for (const text of ['{"a": 1', '{"a": "unfinished', '{"a": [1, 2', '{"options": [{"label": "x"}, {"label": "y"']) {
      expect(malformed(text).message).toBe(
        'The arguments were cut off before the JSON object was closed; send a shorter call.',
      );
    }
  });

  it('collapses identical repeated objects and refuses distinct ones naming both', () => {
    expect(safe('{"a": 1}{"a": 1}').value).toEqual({ a: 1 });
    expect(rules('{"a": 1} {"a": 1}')).toEqual(['repeated-object']);
    const error = malformed('{"a": 1}{"a": 2}');
    expect(error.message).toContain('2 different JSON objects');
    expect(error.message).toContain('{"a": 1}');
    expect(error.message).toContain('{"a": 2}');
  });

  it.each([['ls -la /tmp'], ['Sure, I will look that up for you.'], ['42'], ['true'], ['[1, 2]'], ['"just a string"']])(
    'refuses %p, which is not an object',
    (raw) => {
      expect(malformed(raw).message).toMatch(/must be one JSON object|must be only a JSON object/);
    },
  );

  it('reads a one-element array given directly as its text, and refuses other arrays and non-object values', () => {
    // Issue 27, decision 3: the same array, as text or as a value, reads the same.
    expect(safe([{ a: 1 }]).value).toEqual({ a: 1 });
    expect(rules([{ a: 1 }])).toEqual(rules('[{"a": 1}]'));
    expect(malformed([{ a: 1 }], 'strict').code).toBe('MALFORMED_ARGUMENTS');
    expect(malformed([{ a: 1 }, { a: 2 }]).message).toContain('2 different JSON objects');
    expect(malformed([1]).code).toBe('MALFORMED_ARGUMENTS');
    expect(malformed(42).code).toBe('MALFORMED_ARGUMENTS');
  });

  it('under strict, accepts only plain JSON', () => {
    expect(parseArguments('{"a": 1}', 'strict', DEFAULT_LIMITS).value).toEqual({ a: 1 });
    expect(malformed('{"a": 1,}', 'strict').message).toContain('not valid JSON');
    expect(malformed("{'a': 1}", 'strict').code).toBe('MALFORMED_ARGUMENTS');
    expect(malformed(JSON.stringify('{"a": 1}'), 'strict').code).toBe('MALFORMED_ARGUMENTS');
    expect(malformed('```json\n{"a": 1}\n```', 'strict').code).toBe('MALFORMED_ARGUMENTS');
  });

  it('takes the one object out of surrounding prose (safe: nothing else bracketed, quoted or call-like around it)', () => {
    const text = 'Here are the arguments: {"city": "Paris"} hope that helps';
    expect(malformed(text, 'strict').code).toBe('MALFORMED_ARGUMENTS');
    for (const policy of ['safe', 'lenient'] as const) {
      expect(parseArguments(text, policy, DEFAULT_LIMITS).value).toEqual({ city: 'Paris' });
      expect(rules(text, policy)).toEqual(['object-in-prose']);
    }
    // Only lenient takes the object beside other values, or a fenced block out of prose.
    const beside = 'Use {"city": "Paris"} (not [1])';
    expect(malformed(beside).code).toBe('MALFORMED_ARGUMENTS');
    expect(parseArguments(beside, 'lenient', DEFAULT_LIMITS).value).toEqual({ city: 'Paris' });
    expect(malformed('Sure:\n```json\n{"city": "Paris"}\n```').code).toBe('MALFORMED_ARGUMENTS');
  });

  it('refuses text over the size limit before parsing it', () => {
    const limits = { ...DEFAULT_LIMITS, maxArgumentsBytes: 100 };
    expect(() => parseArguments(`{"a": "${'x'.repeat(200)}"}`, 'safe', limits)).toThrow(InvalidArgumentsError);
    // multi-byte characters count in bytes, not UTF-16 units
    expect(() => parseArguments(`{"a": "${'é'.repeat(60)}"}`, 'safe', limits)).toThrow('larger than 100 bytes');
  });

  it('refuses nesting deeper than the limit, at any depth, without a RangeError', () => {
    for (const depth of [65, 1_000, 100_000]) {
      // Valid JSON parses (V8's JSON.parse is iterative) and the sanitize walk refuses it; text that is not JSON is
      // refused by the scan before any repair library sees it.
      const text = `{"a": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
      expect(() => sanitizeArguments(safe(text).value, DEFAULT_LIMITS)).toThrow(InvalidArgumentsError);
      expect(() => safe(`${text.slice(0, -1)},}`)).toThrow(InvalidArgumentsError);
    }
    const unbalancedDeep = `{"a": ${'['.repeat(100_000)}`;
    expect(() => safe(unbalancedDeep)).toThrow(InvalidArgumentsError);
  });
});

describe('Python literals jsonrepair mis-reads', () => {
  it.each([
    ["{'ratio': 'u{XW'}", { ratio: 'u{XW' }],
    ["{'a': '[x', 'b': True, 'c': None,}", { a: '[x', b: true, c: null }],
    ["{'q': 'it\\'s {ok}', 'list': ['a{', 'b]'],}", { q: "it's {ok}", list: ['a{', 'b]'] }],
    ["{'path': 'C:\\\\dir\\\\{x}', 'u': '\\u00e9'}", { path: 'C:\\dir\\{x}', u: 'é' }],
  ])('reads %s', (text, expected) => {
    expect(parseArguments(text, 'safe', DEFAULT_LIMITS).value).toEqual(expected);
  });

  it('still refuses what is not a literal', () => {
    expect(() => parseArguments("{'a': os.system('rm')}", 'safe', DEFAULT_LIMITS)).toThrow(MalformedArgumentsError);
  });
});
