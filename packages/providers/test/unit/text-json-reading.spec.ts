import 'reflect-metadata';
import { DEFAULT_LIMITS } from '@toolwright/core';
import { isUnsafeIntegerLiteral, readJsonLike } from '@toolwright/core/internal';
import fc from 'fast-check';
import { CUT_OFF_REASON, readJsonText, readJsonValue, readLiteral } from '../../src/text/read/json';
import { bracketedEnd, readingText, recall, remember } from '../../src/text/read/extent';

/**
 * The text parser's fast paths give exactly what the executor's reader gives: JSON.parse where the executor's own
 * check says it read the text as the reader does, a plain single-quoted literal without reading it, a repeated
 * literal from memory, a value several dialects ask for read once.
 */

/** Whether the reader kept an integer's digits anywhere in a value (the text parser refuses such a call). */
function holdsUnsafeInteger(value: unknown): boolean {
  if (isUnsafeIntegerLiteral(value)) return true;
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsUnsafeInteger);
}

/** The reader's own answer for a whole text: its one value, or a refusal (one integer beyond 2^53 included). */
function byReader(source: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const document = readJsonLike(source, DEFAULT_LIMITS);
    if (document.values.length !== 1 || document.textOutside) return { ok: false };
    const { value } = document.values[0]!;
    return holdsUnsafeInteger(value) ? { ok: false } : { ok: true, value };
  } catch {
    return { ok: false };
  }
}

/** readJsonText's answer in the same shape (an integer beyond 2^53 is refused by the text parser on both paths). */
function byTextParser(source: string): { ok: true; value: unknown } | { ok: false } {
  const read = readJsonText(source, 0, source.length);
  return read.ok ? { ok: true, value: read.value } : { ok: false };
}

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('reading JSON in text: the JSON.parse path equals the reader', () => {
  it.each([
    ['a call', '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}'],
    ['escapes', '{"a": "line\\nbreak \\"quoted\\" \\u00e9 \\/ \\\\"}'],
    ['an apostrophe in a string', `{"units": "it's metric"}`],
    ['a key given twice, same value', '{"a": 1, "a": 1}'],
    ['a key given twice, other values', '{"a": 1, "a": 2}'],
    ['a key twice with a backslash in the text', '{"a": "x\\n", "a": "y"}'],
    ['a prototype key', '{"__proto__": {"polluted": true}, "b": 1}'],
    ['a constructor key deep', '{"a": {"constructor": {"prototype": 1}}}'],
    ['an integer beyond 2^53', '{"id": 9007199254740993}'],
    ['a large float', '{"x": 1.5e300, "y": -0, "z": 1e-7}'],
    ['nesting at the limit', nested(64)],
    ['nesting beyond the limit', nested(65)],
    ['an array beyond the item limit', `[${Array.from({ length: 10_001 }, () => '0').join(',')}]`],
    ['an empty object and array', '{"a": {}, "b": []}'],
    ['blanks after the value', '{"a": 1}  \n'],
  ])('%s', (_label, source) => {
    expect(byTextParser(source)).toEqual(byReader(source));
  });

  it('for generated JSON (keys given twice, prototype keys, large integers, escapes)', () => {
    const key = fc.constantFrom('a', 'b', '__proto__', 'constructor', 'k"q', 'ключ');
    const scalar = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.constantFrom(9007199254740993, 1e21, 0.1, true, false, null),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 3 }), tie('object')),
      object: fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }),
    }));
    const render = (node: unknown): string => {
      if (
        Array.isArray(node) &&
        node.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string')
      )
        return `{${(node as [string, unknown][]).map(([k, v]) => `${JSON.stringify(k)}: ${render(v)}`).join(', ')}}`;
      if (Array.isArray(node)) return `[${node.map(render).join(', ')}]`;
      return typeof node === 'number' && !Number.isSafeInteger(node) && Number.isInteger(node)
        ? `${BigInt(node)}3` // an integer literal no double holds
        : JSON.stringify(node);
    };
    fc.assert(
      fc.property(value.object, (members) => {
        const source = render(members);
        expect(byTextParser(source)).toEqual(byReader(source));
      }),
      { seed: 41, numRuns: 2000 },
    );
  });
});

describe('reading a Python literal', () => {
  const reader = (literal: string) => {
    const read = byReader(`[${literal}]`);
    return read.ok && Array.isArray(read.value) && read.value.length === 1 ? { value: read.value[0] } : 'refused';
  };
  const parser = (literal: string) => {
    const read = readLiteral(literal);
    return 'value' in read ? { value: read.value } : 'refused';
  };

  it.each([
    "'Paris'",
    "''",
    "'São Paulo'",
    '\'a "b"\'',
    "'it\\'s'",
    "'line\\nbreak'",
    "'''triple'''",
    '"double"',
    'True',
    'None',
    '3',
    '-2.5',
    "('a', 1)",
    "{'k': [1, 2]}",
    "'unclosed",
    "'tab\there'",
  ])('%s reads as the reader reads it', (literal) => {
    expect(parser(literal)).toEqual(reader(literal));
  });

  it('plain single-quoted literals, generated, read as the reader reads them', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12, unit: 'binary' }), (inner) => {
        const literal = `'${inner}'`;
        expect(parser(literal)).toEqual(reader(literal));
      }),
      { seed: 41, numRuns: 3000 },
    );
  });

  it('a repeated literal gives the same answer; a container literal is a new value each time', () => {
    expect(readLiteral('True')).toEqual(readLiteral('True'));
    expect(readLiteral('True')).toEqual({ value: true });
    const first = readLiteral('[1, 2]') as { value: unknown[] };
    const second = readLiteral('[1, 2]') as { value: unknown[] };
    expect(first.value).toEqual([1, 2]);
    expect(first.value).not.toBe(second.value);
  });
});

describe('a value is read once per reading', () => {
  it('several readers of one offset share one reading; another text is read again', () => {
    const text = 'x {"name": "get_weather"} y';
    let reads = 0;
    const readOnce = (source: string, start: number) => {
      const known = recall<{ end: number }>(source, start);
      if (known !== undefined) return known;
      reads += 1;
      return remember(source, start, { end: bracketedEnd(source, start) });
    };
    readingText(text, () => {
      expect(readOnce(text, 2)).toBe(readOnce(text, 2));
      expect(readJsonValue(text, 2)).toBe(readJsonValue(text, 2));
    });
    expect(reads).toBe(1);
    const other = `${text} `;
    readingText(text, () => {
      expect(readOnce(other, 2)).not.toBe(readOnce(other, 2));
    });
    expect(reads).toBe(3);
  });

  it('a value that never closes is not remembered per offset (a run of openers costs no entry each)', () => {
    const text = 'x {"name": "get_weather", "arguments": {';
    readingText(text, () => {
      const first = readJsonValue(text, 2);
      expect(first).toEqual({ ok: false, reason: CUT_OFF_REASON, end: text.length, cutOff: true });
      expect(recall(text, 2)).toBeUndefined();
      expect(readJsonValue(text, 2)).toEqual(first);
    });
  });
});
