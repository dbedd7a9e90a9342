import 'reflect-metadata';
import fc from 'fast-check';
import { maxLength as classValidatorMaxLength, minLength as classValidatorMinLength } from 'class-validator';
import { PersonaToolExecutor, ToolRegistry, silentLogger } from '@toolwright/core';
import { acceptFunction, canonicalCheck } from '@toolwright/core/compile/canonical-check';
import { configureHotTier, DEFAULT_HOT_TIER } from '@toolwright/core/compile/hot-tier';
import { constraintChecks, constraintHolds, foldConstraints } from '@toolwright/core/pipeline/constraints';
import { lengthWithin } from '@toolwright/core/rules/string';
import { numberWithin } from '@toolwright/core/rules/number';
import { DEFAULT_LIMITS } from '@toolwright/core/pipeline/limits';
import type { ObjectSchema, ParamSchema } from '@toolwright/core/types/schema';

/** Property names a remote MCP server may send: every one must stay data. */
const HOSTILE_NAMES = [
  'say "hi"',
  "it's",
  'back\\slash',
  'trailing\\',
  '*/ globalThis.pwned = 1; /*',
  '// comment',
  'line\u2028separator',
  'paragraph\u2029separator',
  'new\nline',
  'tab\tand\rreturn',
  '${globalThis.pwned = 1}',
  '`template`',
  '"]; globalThis.pwned = 1; //',
  '"));globalThis.pwned=1;((""',
  '</script><script>',
  'lone\ud800surrogate',
  'emoji 😀',
  '\u0000nul',
  'x'.repeat(10_000),
  'case',
  'default',
  'return false',
  'k[0]',
];

function registryWith(properties: Record<string, unknown>, required: string[]): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    { name: 'remote', parameters: { type: 'object', properties, required } },
    (params) => params,
  );
  return registry;
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>)['pwned'];
});

describe.each([
  ['the shared walk', 'never'],
  ['the hot tier, its own generated code (decision 0031)', 'always'],
] as const)('the canonical check and untrusted schema text: %s', (_name, mode) => {
  beforeEach(() => {
    configureHotTier({ mode });
  });

  afterEach(() => {
    configureHotTier(DEFAULT_HOT_TIER);
  });

  it('hostile property names: accepted exactly when valid, refused otherwise, and no code of theirs runs', async () => {
    const properties = Object.fromEntries(
      HOSTILE_NAMES.map((name, index) => [
        name,
        index % 2 === 0 ? { type: 'string', maxLength: 20 } : { type: 'integer', minimum: 0 },
      ]),
    );
    const registry = registryWith(properties, HOSTILE_NAMES.slice(0, 5));
    const parameters = registry.get('remote')!.parameters;
    const accept = acceptFunction(parameters, DEFAULT_LIMITS);
    expect(canonicalCheck(parameters, DEFAULT_LIMITS, HOSTILE_NAMES[4]).specialized).toBe(mode === 'always');
    const valid = Object.fromEntries(HOSTILE_NAMES.map((name, index) => [name, index % 2 === 0 ? `v${index}` : index]));

    expect(accept(valid)).toBe(true);
    expect(accept(Object.fromEntries(HOSTILE_NAMES.slice(0, 5).map((name) => [name, valid[name]])))).toBe(true);
    // Each property wrong in turn, each required one missing in turn, an unknown key: never accepted.
    for (const name of HOSTILE_NAMES) {
      expect(accept({ ...valid, [name]: typeof valid[name] === 'string' ? 7 : 'seven' })).toBe(false);
    }
    for (const name of HOSTILE_NAMES.slice(0, 5)) {
      const { [name]: _dropped, ...rest } = valid;
      expect(accept(rest)).toBe(false);
    }
    expect(accept({ ...valid, [`${HOSTILE_NAMES[0]} `]: 'x' })).toBe(false);
    expect(accept({ ...valid, [HOSTILE_NAMES[0]!]: 'x'.repeat(21) })).toBe(false);
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();

    // The whole call through the executor: the fast path and the normalizer path give the same result.
    const fast = new PersonaToolExecutor(registry, { logger: silentLogger });
    const slow = new PersonaToolExecutor(registry, { logger: silentLogger, canonicalFastPath: false });
    const call = { id: 'h', name: 'remote', arguments: JSON.stringify(valid) };
    const [withFastPath, withoutFastPath] = [await fast.execute(call), await slow.execute(call)];
    expect(withFastPath).toMatchObject({ ok: true, value: valid, transformations: [] });
    expect({ ...withFastPath, durationMs: 0 }).toEqual({ ...withoutFastPath, durationMs: 0 });
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
  });

  it('a property named __proto__, constructor or prototype is never taken as it is (the sanitizer drops those keys)', () => {
    // Registration refuses these names; an IR built by other means still never gets them past the canonical check.
    expect(() => registryWith({ constructor: { type: 'string' } }, [])).toThrow(/reserved/);
    const string = { kind: 'string' } as const;
    const parameters: ObjectSchema = {
      kind: 'object',
      additionalProperties: false,
      properties: ['__proto__', 'constructor', 'prototype', 'name'].map((name) => ({
        name,
        schema: string,
        required: name === 'name',
        aliases: [],
      })),
    };
    const accept = acceptFunction(parameters, DEFAULT_LIMITS);
    expect(accept(JSON.parse('{"name": "a"}'))).toBe(true);
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(accept(JSON.parse(`{"name": "a", ${JSON.stringify(key)}: "b"}`))).toBe(false);
    }
    expect(({} as Record<string, unknown>)['b']).toBeUndefined();
  });

  it('finds keys out of declaration order, in a few keys (scanned) and in many (a map); refuses an unknown one', () => {
    for (const count of [3, 8, 9, 30]) {
      const names = Array.from({ length: count }, (_, index) => `key${index}`);
      const registry = registryWith(
        Object.fromEntries(names.map((name) => [name, { type: 'integer' }])),
        names.filter((_, index) => index % 2 === 0),
      );
      const accept = acceptFunction(registry.get('remote')!.parameters, DEFAULT_LIMITS);
      const reversed = Object.fromEntries([...names].reverse().map((name, index) => [name, index]));
      expect(accept(reversed)).toBe(true);
      const { [names[1]!]: _optional, ...withoutOptional } = reversed;
      expect(accept(withoutOptional)).toBe(true);
      const { [names[0]!]: _required, ...withoutRequired } = reversed;
      expect(accept(withoutRequired)).toBe(false);
      expect(accept({ ...reversed, [`key${count}`]: 1 })).toBe(false);
      expect(accept({ [`key${count}`]: 1, ...reversed })).toBe(false);
    }
  });

  it('scalar nodes shared between tools check each tool its own bounds and enum (equal ones alike, others apart)', () => {
    const objectOf = (schema: ParamSchema): ObjectSchema => ({
      kind: 'object',
      additionalProperties: false,
      properties: [{ name: 'x', schema, required: true, aliases: [] }],
    });
    const cases: [ParamSchema, unknown, boolean][] = [
      [{ kind: 'float', maximum: -Infinity }, 1, false],
      [{ kind: 'float', maximum: Infinity }, 1, true],
      [{ kind: 'float', maximum: 0 }, 1, false],
      [{ kind: 'float', maximum: -0 }, 0, true],
      [{ kind: 'string', enum: ['1'] }, '1', true],
      [{ kind: 'int', enum: [1] }, 1, true],
      [{ kind: 'int', enum: [2] }, 1, false],
      [{ kind: 'string', enum: ['a,b'] }, 'a', false],
      [{ kind: 'string', enum: ['a', 'b'] }, 'a', true],
      [{ kind: 'string', enum: ['a', 'b'], maxLength: 0 }, 'a', false],
      [{ kind: 'string', enum: ['a', 'b'], nullable: true }, null, true],
      [{ kind: 'string', enum: ['a', 'b'] }, null, false],
    ];
    // Twice: the second round's nodes are the shared ones the first made.
    for (let round = 0; round < 2; round++)
      for (const [schema, value, accepted] of cases)
        expect([schema, value, acceptFunction(objectOf(schema), DEFAULT_LIMITS)({ x: value })]).toEqual([
          schema,
          value,
          accepted,
        ]);
  });

  it('unions, free-form values, extra keys and nesting past the depth limit answer no (the normalizer decides)', () => {
    const registry = registryWith(
      {
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        free: {},
        nested: { type: 'object', properties: { inner: { type: 'object', properties: { leaf: { type: 'string' } } } } },
      },
      [],
    );
    const parameters = registry.get('remote')!.parameters;
    const accept = acceptFunction(parameters, DEFAULT_LIMITS);
    expect(accept({})).toBe(true);
    expect(accept({ either: 'a' })).toBe(false);
    expect(accept({ free: 1 })).toBe(false);
    expect(accept({ nested: { inner: { leaf: 'x' } } })).toBe(true);
    expect(acceptFunction(parameters, { ...DEFAULT_LIMITS, maxDepth: 2 })({ nested: { inner: { leaf: 'x' } } })).toBe(
      false,
    );
    expect(accept({ nested: { inner: { leaf: 'x', extra: 1 } } })).toBe(false);
  });
});

describe('the length constraint', () => {
  it('lengthWithin counts as class-validator does (code points, presentation selectors), on random and edge strings', () => {
    const edge = [
      '',
      'abc',
      '😀',
      'a😀b',
      '\ud800',
      '\udc00\ud800',
      'a\ufe0f',
      '\ufe0f',
      '\ufe0f\ufe0f',
      '❤️',
      'e\u0301',
      '\ud83d\ude00\ufe0f',
    ];
    const strings = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom(...edge),
    );
    fc.assert(
      fc.property(
        strings,
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        (text, minimum, maximum) => {
          const expected =
            (minimum === undefined || classValidatorMinLength(text, minimum)) &&
            (maximum === undefined || classValidatorMaxLength(text, maximum));
          expect(lengthWithin(text, minimum, maximum, 'class-validator')).toBe(expected);
          // JSON Schema's count: code points, as the string's iterator counts them.
          const codePoints = [...text].length;
          expect(lengthWithin(text, minimum, maximum, undefined)).toBe(
            (minimum === undefined || codePoints >= minimum) && (maximum === undefined || codePoints <= maximum),
          );
        },
      ),
      { seed: 12, numRuns: 3_000 },
    );
  });

  it('lengthWithin agrees with class-validator on longer strings, where it stops reading early (issue 12)', () => {
    const pieces = fc.constantFrom(
      'a',
      'é',
      ' ',
      '😀',
      '\ud800',
      '\udc00',
      '\ufe0f',
      '\ufe0e',
      'e\u0301',
      '❤️',
      '\uff01',
      '中',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join('')),
        fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined }),
        (text, minimum, maximum) => {
          const expected =
            (minimum === undefined || classValidatorMinLength(text, minimum)) &&
            (maximum === undefined || classValidatorMaxLength(text, maximum));
          expect(lengthWithin(text, minimum, maximum, 'class-validator')).toBe(expected);
          const codePoints = [...text].length;
          expect(lengthWithin(text, minimum, maximum, 'code-points')).toBe(
            (minimum === undefined || codePoints >= minimum) && (maximum === undefined || codePoints <= maximum),
          );
        },
      ),
      { seed: 1212, numRuns: 20_000 },
    );
  });
});

describe('the folded bounds (decision 0034, amended 2026-11-28)', () => {
  const limit = fc.oneof(fc.integer({ min: -3, max: 8 }), fc.constantFrom(-0, 0.5, Infinity, -Infinity, Number.NaN));
  const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

  /** Whether `value` lies within a node's folded bounds and holds its other records, as the walk decides it. */
  function foldedHolds(schema: ParamSchema, value: unknown): boolean {
    const { lower, upper, count, rest } = foldConstraints(constraintChecks(schema));
    const within =
      schema.kind === 'string'
        ? lengthWithin(value as string, lower, upper, count)
        : numberWithin(schema.kind === 'array' ? (value as unknown[]).length : (value as number), lower, upper);
    return within && rest.every((constraint) => constraintHolds(constraint, value));
  }

  const allHold = (schema: ParamSchema, value: unknown) =>
    constraintChecks(schema).every((constraint) => constraintHolds(constraint, value));

  it('a string: its length bounds folded, its pattern kept, the same answer as every record', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('', '😀😀', 'a\ufe0f', '\ud800')),
        optional(fc.integer({ min: 0, max: 6 })),
        optional(fc.integer({ min: 0, max: 6 })),
        optional(fc.constantFrom('^a', 'b$')),
        (value, minLength, maxLength, pattern) => {
          for (const lengthCount of [undefined, 'class-validator'] as const) {
            const schema: ParamSchema = { kind: 'string', minLength, maxLength, pattern, lengthCount };
            expect(foldedHolds(schema, value)).toBe(allHold(schema, value));
          }
        },
      ),
      { seed: 2811, numRuns: 5_000 },
    );
  });

  it('a number: finite minimum and maximum folded, other limits and rules kept, the same answer', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -5, max: 10 }), fc.double({ min: -5, max: 10, noNaN: true }), fc.constant(-0)),
        optional(limit),
        optional(limit),
        optional(limit),
        optional(fc.constantFrom(2, 0.5)),
        (value, minimum, maximum, exclusiveMinimum, multipleOf) => {
          const schema: ParamSchema = { kind: 'float', minimum, maximum, exclusiveMinimum, multipleOf };
          expect(foldedHolds(schema, value)).toBe(allHold(schema, value));
        },
      ),
      { seed: 2812, numRuns: 5_000 },
    );
  });

  it('an array: its item-count bounds folded, uniqueness kept, the same answer', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 8 }),
        optional(fc.integer({ min: 0, max: 6 })),
        optional(fc.integer({ min: 0, max: 6 })),
        fc.boolean(),
        (value, minItems, maxItems, uniqueItems) => {
          const schema: ParamSchema = { kind: 'array', items: { kind: 'int' }, minItems, maxItems, uniqueItems };
          expect(foldedHolds(schema, value)).toBe(allHold(schema, value));
        },
      ),
      { seed: 2813, numRuns: 5_000 },
    );
  });

  it('only finite limits of the bound rules fold; every other record stays, in its order', () => {
    const folded = foldConstraints(
      constraintChecks({ kind: 'float', minimum: -Infinity, maximum: 3, exclusiveMaximum: 2, multipleOf: 0.5 }),
    );
    expect([folded.lower, folded.upper]).toEqual([undefined, 3]);
    expect(folded.rest.map((constraint) => [constraint.rule, constraint.limit])).toEqual([
      ['minimum', -Infinity],
      ['exclusiveMaximum', 2],
      ['multipleOf', 0.5],
    ]);
    const none = foldConstraints(constraintChecks({ kind: 'string' }));
    expect([none.lower, none.upper, none.rest.length]).toEqual([undefined, undefined, 0]);
  });

  it('the walk and the hot code accept at the bounds and refuse past them; printing states the bounds as before', () => {
    const parameters: ObjectSchema = {
      kind: 'object',
      additionalProperties: false,
      properties: [
        { name: 's', schema: { kind: 'string', minLength: 0, maxLength: 2 }, required: false, aliases: [] },
        { name: 'n', schema: { kind: 'int', minimum: -1, maximum: 1 }, required: false, aliases: [] },
        {
          name: 'a',
          schema: { kind: 'array', items: { kind: 'bool' }, minItems: 1, maxItems: 2 },
          required: false,
          aliases: [],
        },
      ],
    };
    const cases: [Record<string, unknown>, boolean][] = [
      [{ s: '' }, true],
      [{ s: '😀😀' }, true],
      [{ s: 'abc' }, false],
      [{ n: -1 }, true],
      [{ n: 1 }, true],
      [{ n: 2 }, false],
      [{ n: -2 }, false],
      [{ a: [] }, false],
      [{ a: [true, false] }, true],
      [{ a: [true, false, true] }, false],
    ];
    for (const mode of ['never', 'always'] as const) {
      configureHotTier({ mode });
      try {
        const check = canonicalCheck(parameters, DEFAULT_LIMITS);
        expect(check.specialized).toBe(mode === 'always');
        for (const [value, accepted] of cases) expect([value, check.accept(value) >= 0]).toEqual([value, accepted]);
        expect(check.print()).toContain('"s"?: string; constraints: minLength 0, maxLength 2');
        expect(check.print()).toContain('"n"?: int; constraints: minimum -1, maximum 1');
        expect(check.print()).toContain('"a"?: array; constraints: minItems 1, maxItems 2');
      } finally {
        configureHotTier(DEFAULT_HOT_TIER);
      }
    }
  });
});
