import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type CoercionPolicy } from '@toolwright/core';
import fc from 'fast-check';
import { canonicalKey, nearMiss, oneEditApart } from '@toolwright/core/rules/unknown-keys';

/**
 * Unknown keys (rules/unknown-keys.ts): a key that reads as a parameter the call did not send (a misspelling, short
 * keys included, or a look-alike) is repaired or refused, never dropped while the handler runs without it.
 */

/**
 * The oracle: edit distance with adjacent transpositions (optimal string alignment) by its table, or `bound` when it is
 * at least `bound`; `oneEditApart` is its one-pass form at `bound` 2.
 */
function boundedEditDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) >= bound) return bound;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum >= bound) return bound;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, bound);
}

function executorFor(policy: CoercionPolicy, properties: Record<string, unknown>, required: string[] = []) {
  const registry = new ToolRegistry({ logger: silentLogger });
  const received: Record<string, unknown>[] = [];
  registry.registerJsonSchemaTool(
    { name: 'statistics', parameters: { type: 'object', properties, required } },
    (params: Record<string, unknown>) => {
      received.push(params);
      return 'done';
    },
  );
  return { executor: new PersonaToolExecutor(registry, { logger: silentLogger, policy, telemetry: false }), received };
}

const STATISTICS = {
  country: { type: 'string' },
  year: { type: 'integer' },
  top_n: { type: 'integer', minimum: 1 },
};

async function run(policy: CoercionPolicy, args: string, properties: Record<string, unknown> = STATISTICS) {
  const { executor, received } = executorFor(policy, properties, ['country']);
  const result = await executor.execute({ id: 'c', name: 'statistics', arguments: args });
  return { result, received };
}

describe('a key that reads as a parameter the call did not send', () => {
  it('refuses a short misspelling ("tp_n" for "top_n") with "did you mean" under safe; the handler does not run', async () => {
    const { result, received } = await run('safe', '{"country":"U.S","year":2020,"tp_n":1}');
    expect(result.ok).toBe(false);
    expect(received).toEqual([]);
    expect(result.ok ? '' : result.error.message).toContain(
      '"tp_n" is not a parameter of this tool; did you mean "top_n"? Send the value under "top_n".',
    );
  });

  it('refuses it after 10,000 calls of the same tool too (the tool on the hot tier by then)', async () => {
    const { executor, received } = executorFor('safe', STATISTICS, ['country']);
    for (let call = 0; call < 10_000; call++)
      await executor.execute({
        id: `c${call}`,
        name: 'statistics',
        arguments: '{"country":"U.S","year":2020,"top_n":1}',
      });
    await new Promise((resolve) => setImmediate(resolve));
    expect(executor.generatedCode('statistics')).toContain('hot check (running)');
    expect(received).toHaveLength(10_000);
    const result = await executor.execute({ id: 'last', name: 'statistics', arguments: '{"country":"U.S","tp_n":1}' });
    expect(result.ok ? '' : result.error.message).toContain('did you mean "top_n"?');
    expect(received).toHaveLength(10_000);
  });

  it('repairs it under lenient, recorded as key-typo', async () => {
    const { result, received } = await run('lenient', '{"country":"U.S","year":2020,"tp_n":1}');
    expect(result).toMatchObject({ ok: true });
    expect(received).toEqual([{ country: 'U.S', year: 2020, top_n: 1 }]);
    expect(result.transformations).toContainEqual({ path: 'top_n', rule: 'key-typo', from: 'tp_n', to: 'top_n' });
  });

  it.each([
    ['a transposition', '"yaer"', 'year'],
    ['a letter left out', '"yar"', 'year'],
    ['a letter added', '"countryy"', 'country'],
    ['a letter replaced, in another case style', '"TOP_M"', 'top_n'],
  ])('refuses %s (%s) naming %p', async (_kind, key, name) => {
    const args = name === 'country' ? `{${key}:"U.S"}` : `{"country":"U.S",${key}:1}`;
    const { result, received } = await run('safe', args);
    expect(received).toEqual([]);
    expect(result.ok ? '' : result.error.message).toContain(`did you mean "${name}"?`);
  });

  it('repairs a look-alike of one parameter (confusable letters, invisible code points) under safe, as look-alike-key', async () => {
    // Greek omicron for "o"; a zero-width space inside "year".
    for (const [key, name] of [
      ['t\u03bfp_n', 'top_n'],
      ['ye\u200bar', 'year'],
    ] as const) {
      const { result, received } = await run('safe', JSON.stringify({ country: 'U.S', [key]: 3 }));
      expect(result).toMatchObject({ ok: true });
      expect(received).toEqual([{ country: 'U.S', [name]: 3 }]);
      expect(result.transformations).toContainEqual({ path: name, rule: 'look-alike-key', from: key, to: name });
    }
  });

  it('refuses a key that reads as two parameters, naming both, under lenient too', async () => {
    const properties = { country: { type: 'string' }, top_n: { type: 'integer' }, top_k: { type: 'integer' } };
    for (const policy of ['safe', 'lenient'] as const) {
      const { result, received } = await run(policy, '{"country":"U.S","top_m":1}', properties);
      expect(received).toEqual([]);
      expect(result.ok ? '' : result.error.message).toContain(
        '"top_m" is not a parameter of this tool; did you mean "top_n" or "top_k"? Send the value under the one you meant.',
      );
    }
  });

  it('drops (and records) a near miss of a parameter the call sent, and a key that reads as nothing', async () => {
    const { result, received } = await run('safe', '{"country":"U.S","top_n":2,"tp_n":1,"colour":"red","q":1}');
    expect(result).toMatchObject({ ok: true });
    expect(received).toEqual([{ country: 'U.S', top_n: 2 }]);
    expect(
      result.transformations
        .filter((transformation) => transformation.rule === 'dropped-unknown-key')
        .map((t) => t.path),
    ).toEqual(['tp_n', 'colour', 'q']);
  });

  it('refuses every unknown key under strict', async () => {
    const { result, received } = await run('strict', '{"country":"U.S","tp_n":1}');
    expect(received).toEqual([]);
    expect(result.ok ? '' : result.error.message).toContain('"tp_n" is not a parameter of this tool');
  });
});

describe('nearMiss', () => {
  const property = (name: string, aliases: string[] = [], context?: 'session_id') => ({
    name,
    aliases,
    required: false,
    schema: { kind: 'int' as const },
    ...(context === undefined ? {} : { context }),
  });

  it('reads misspellings of names and aliases one edit away, of two characters and more', () => {
    const properties = [property('top_n'), property('query', ['q_text']), property('id')];
    expect(nearMiss('tp_n', properties)).toEqual([{ index: 0, kind: 'misspelling' }]);
    expect(nearMiss('qtxt', properties)).toEqual([{ index: 1, kind: 'misspelling' }]);
    expect(nearMiss('ids', properties)).toEqual([{ index: 2, kind: 'misspelling' }]);
    // One character is a misspelling of nothing; two edits are not one.
    expect(nearMiss('i', properties)).toEqual([]);
    expect(nearMiss('tpp_m', properties)).toEqual([]);
    expect(nearMiss('x'.repeat(65), [property('x'.repeat(64))])).toEqual([]);
  });

  it('never reads a key as a context field', () => {
    expect(nearMiss('sesion_id', [property('session_id', [], 'session_id')])).toEqual([]);
  });

  it('reads look-alikes by their folds (confusables, fullwidth forms, invisible code points)', () => {
    const properties = [property('year'), property('top_n')];
    expect(nearMiss('\uff59\uff45\uff41\uff52', properties)).toEqual([{ index: 0, kind: 'look-alike' }]);
    expect(nearMiss('t\u043ep_n', properties)).toEqual([{ index: 1, kind: 'look-alike' }]);
    // A look-alike with a misspelling is a misspelling.
    expect(nearMiss('t\u043ep_nn', properties)).toEqual([{ index: 1, kind: 'misspelling' }]);
  });
});

describe('the key forms compared, one pass each', () => {
  // Keys from a small alphabet, so that near and equal forms come up often.
  const key = fc.string({
    unit: fc.constantFrom('a', 'b', 'c', 'A', '_', '-', '.', ' ', '\u00a0', '\u0130', 'é'),
    maxLength: 9,
  });

  it('canonicalKey: the same form as removing separators and lower-casing, for every key', () => {
    fc.assert(
      fc.property(key, (raw) => {
        expect(canonicalKey(raw)).toBe(raw.replace(/[-_\s.]/g, '').toLowerCase());
      }),
      { seed: 44, numRuns: 2000 },
    );
  });

  it('oneEditApart: one edit away by the bounded edit distance (with its length bounds), without its table', () => {
    const form = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 });
    // Pairs one or two edits apart come up as often as unrelated ones.
    const edited = (text: string, at: number, letter: string, kind: number): string => {
      const place = text.length === 0 ? 0 : at % (text.length + 1);
      if (kind === 0) return text.slice(0, place) + letter + text.slice(place);
      if (kind === 1) return text.slice(0, place) + text.slice(place + 1);
      if (kind === 2) return text.slice(0, place) + letter + text.slice(place + 1);
      return (
        text.slice(0, place) + text.slice(place + 1, place + 2) + text.slice(place, place + 1) + text.slice(place + 2)
      );
    };
    const edit = fc.tuple(fc.nat(), fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 3 }));
    const pair = fc.oneof(
      fc.tuple(form, form),
      fc.tuple(form, edit).map(([a, [at, letter, kind]]) => [a, edited(a, at, letter, kind)] as const),
      fc
        .tuple(form, edit, edit)
        .map(
          ([a, [at, letter, kind], [at2, letter2, kind2]]) =>
            [a, edited(edited(a, at, letter, kind), at2, letter2, kind2)] as const,
        ),
    );
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const shorter = Math.min(a.length, b.length);
        const longer = Math.max(a.length, b.length);
        const expected = shorter >= 2 && longer > 2 && longer <= 64 && a !== b && boundedEditDistance(a, b, 2) === 1;
        expect(oneEditApart(a, b)).toBe(expected);
      }),
      { seed: 44, numRuns: 5000 },
    );
  });
});
