import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { getDesignType } from '../../../src/metadata/design-metadata';
import { DEFAULT_HOT_TIER } from '../../../src/compile/hot-tier';
import { hotInstantiatorSources, specializeInstantiator } from '../../../src/compile/hot-instantiate';
import { describeInstantiator, instantiatorFor } from '../../../src/pipeline/instantiate';
import type { Constructor, ObjectSchema, ParamSchema, PropertyDefinition } from '../../../src/types/schema';

/**
 * The DTO instantiator (one shared builder driven by each DTO's records, decision 0024 amended) against the plain
 * statement of what it must build (`expectedInstance`): on random plain objects (valid values, nulls, wrong types,
 * unknown keys, any key order), instances that are the same class at every level, with the same keys in the same order
 * and the same values (dates compared by time).
 */

const HOSTILE_NAMES = [
  '"));globalThis.pwned=1;//',
  'a"b',
  'back\\slash',
  '*/ end',
  'line\u2028sep',
  'para\u2029sep',
  '${x}',
  'lone\ud800',
  'x'.repeat(10_000),
];

function property(name: string, schema: ParamSchema, required = true): PropertyDefinition {
  return { name, schema, required, aliases: [] };
}

function objectNode(dto: Constructor, properties: PropertyDefinition[]): ObjectSchema {
  return { kind: 'object', properties, additionalProperties: false, dto };
}

function typedAsDate(dto: Constructor, name: string): void {
  Reflect.defineMetadata('design:type', Date, dto.prototype as object, name);
}

class Leaf {
  note = 'leaf initializer';
}
class Inner {
  kind = 'inner initializer';
}
class Outer {
  count = 7;
}

/**
 * The test's DTO tree for three classes (dates typed `Date` on the inner and outer class): a leaf, an inner DTO with a
 * date-time, a leaf and an array of arrays of leaves, and an outer DTO with dates, the inner DTO, an array of it,
 * `extra` properties and one property per hostile name.
 */
function dtoTree(
  leafClass: Constructor,
  innerClass: Constructor,
  outerClass: Constructor,
  extra: PropertyDefinition[],
) {
  typedAsDate(innerClass, 'when');
  typedAsDate(outerClass, 'at');
  typedAsDate(outerClass, 'day');
  typedAsDate(outerClass, HOSTILE_NAMES[0]!);
  const leafNode = objectNode(leafClass, [property('text', { kind: 'string' })]);
  const innerNode = objectNode(innerClass, [
    property('email', { kind: 'string' }),
    property('when', { kind: 'datetime' }, false),
    property('leaf', leafNode, false),
    property('leaves', { kind: 'array', items: { kind: 'array', items: leafNode } }, false),
  ]);
  const outerNode = objectNode(outerClass, [
    property('name', { kind: 'string' }),
    property('at', { kind: 'datetime' }),
    property('day', { kind: 'date' }, false),
    property('atText', { kind: 'datetime' }, false),
    property('dates', { kind: 'array', items: { kind: 'datetime' } }, false),
    property('inner', innerNode),
    property('people', { kind: 'array', items: innerNode }),
    ...extra,
    ...HOSTILE_NAMES.map((name, index) => property(name, index === 0 ? { kind: 'datetime' } : innerNode, false)),
  ]);
  return { leaf: leafNode, inner: innerNode, outer: outerNode };
}

const { leaf, inner, outer } = dtoTree(Leaf, Inner, Outer, []);

/** A comparable description: the class, the keys in order, dates by time, recursively. */
function describe_(value: unknown): unknown {
  if (value instanceof Date) return { date: value.getTime() };
  if (Array.isArray(value)) return value.map(describe_);
  if (typeof value === 'object' && value !== null) {
    return {
      class: (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name,
      entries: Object.keys(value).map((key) => [key, describe_((value as Record<string, unknown>)[key])]),
    };
  }
  return value === undefined ? { undefined: true } : value;
}

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant('2026-01-31T09:00:00Z'),
  fc.constant('2026-01-31'),
  fc.constant('not a date'),
);
const leafPlain = fc.oneof(fc.record({ text: fc.string() }), scalar);
const innerPlain = fc.oneof(
  fc.record(
    {
      email: fc.string(),
      when: scalar,
      leaf: leafPlain,
      leaves: fc.oneof(fc.array(fc.oneof(fc.array(leafPlain, { maxLength: 3 }), scalar), { maxLength: 3 }), scalar),
    },
    { requiredKeys: ['email'] },
  ),
  scalar,
  fc.array(scalar, { maxLength: 2 }),
);
const outerPlain = fc
  .tuple(
    fc.record(
      {
        name: fc.string(),
        at: scalar,
        day: scalar,
        atText: scalar,
        dates: fc.oneof(fc.array(scalar, { maxLength: 3 }), scalar),
        inner: innerPlain,
        people: fc.oneof(fc.array(fc.oneof(innerPlain, fc.constant(null)), { maxLength: 4 }), scalar),
        unknownKey: scalar,
        [HOSTILE_NAMES[0]!]: scalar,
        [HOSTILE_NAMES[1]!]: innerPlain,
        [HOSTILE_NAMES[8]!]: innerPlain,
      },
      { requiredKeys: [] },
    ),
    fc.integer({ min: 0, max: 1_000 }),
  )
  .map(([plain, seed]) => {
    // Any key order: rotate and reverse by the seed.
    const keys = Object.keys(plain);
    const rotated = [...keys.slice(seed % Math.max(1, keys.length)), ...keys.slice(0, seed % Math.max(1, keys.length))];
    if (seed % 2 === 1) rotated.reverse();
    const ordered: Record<string, unknown> = {};
    for (const key of rotated) ordered[key] = (plain as Record<string, unknown>)[key];
    return ordered;
  });

/**
 * What the instantiator must build, stated plainly: a new instance of the class, each own key of the plain object in its
 * order, a string turned into a `Date` where the property is typed `Date`, nested DTOs and arrays of them built, any
 * other value (null, a wrong type, an unknown key) assigned as it is.
 */
function expectedInstance(schema: ObjectSchema, dto: Constructor, plain: Record<string, unknown>): object {
  const instance = new dto() as Record<string, unknown>;
  for (const key of Object.keys(plain)) {
    const declared = schema.properties.find((candidate) => candidate.name === key);
    const value = plain[key];
    if (declared === undefined || value === null || value === undefined) instance[key] = value;
    else if (getDesignType(dto.prototype, key) === Date && ['date', 'datetime'].includes(declared.schema.kind))
      instance[key] = typeof value === 'string' ? new Date(value) : value;
    else instance[key] = expectedValue(declared.schema, value);
  }
  return instance;
}

function expectedValue(schema: ParamSchema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema.kind === 'object' && schema.dto)
    return typeof value === 'object' && !Array.isArray(value)
      ? expectedInstance(schema, schema.dto, value as Record<string, unknown>)
      : value;
  if (schema.kind === 'array' && Array.isArray(value)) return value.map((item) => expectedValue(schema.items, item));
  return value;
}

describe('DTO instantiation (issue 12; one shared builder since issue 26)', () => {
  it('builds the instances the plain statement describes on 3,000 random plain objects (fixed seed)', () => {
    const instantiate = instantiatorFor(outer, Outer);
    const reference = (plain: Record<string, unknown>) => expectedInstance(outer, Outer, plain);
    let withDates = 0;
    fc.assert(
      fc.property(outerPlain, (plain) => {
        const fast = instantiate(JSON.parse(JSON.stringify(plain)) as Record<string, unknown>);
        const slow = reference(JSON.parse(JSON.stringify(plain)) as Record<string, unknown>);
        expect(Object.getPrototypeOf(fast)).toBe(Outer.prototype);
        expect(describe_(fast)).toEqual(describe_(slow));
        if ((fast as Record<string, unknown>).at instanceof Date) withDates++;
      }),
      { seed: 12_0012, numRuns: 3_000 },
    );
    expect(withDates).toBeGreaterThan(100);
  });

  it('reads own keys only, in their order: inherited enumerable keys, null prototypes, integer-like keys', () => {
    const instantiate = instantiatorFor(outer, Outer);
    const reference = (plain: Record<string, unknown>) => expectedInstance(outer, Outer, plain);
    const inherited = { name: 'inherited', unknownInherited: 1, inner: { email: 'inherited' } };
    const plains = [
      () => Object.assign(Object.create(inherited) as Record<string, unknown>, { at: 'x', 2: 'two', 1: 'one' }),
      () => Object.assign(Object.create(null) as Record<string, unknown>, { inner: { email: 'e' }, name: 'n', 0: 0 }),
      () => {
        const plain = Object.create(inherited) as Record<string, unknown>;
        Object.defineProperty(plain, 'hidden', { value: 'not enumerable', enumerable: false });
        plain['people'] = [{ email: 'p' }, null];
        return plain;
      },
    ];
    for (const make of plains) {
      const fast = instantiate(make());
      const slow = reference(make());
      expect(describe_(fast)).toEqual(describe_(slow));
      expect(Object.keys(fast)).not.toContain('unknownInherited');
    }
  });

  it('treats untrusted property names as data', () => {
    const instantiate = instantiatorFor(outer, Outer);
    const plain: Record<string, unknown> = { [HOSTILE_NAMES[0]!]: '2026-01-31T09:00:00Z' };
    for (const name of HOSTILE_NAMES.slice(1)) plain[name] = { email: name };
    const instance = instantiate(plain) as Record<string, unknown>;
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(instance[HOSTILE_NAMES[0]!]).toEqual(new Date('2026-01-31T09:00:00Z'));
    for (const name of HOSTILE_NAMES.slice(1)) {
      expect(instance[name]).toBeInstanceOf(Inner);
      expect(instance[name]).toEqual(Object.assign(new Inner(), { email: name }));
    }
    expect(Object.keys(instance)).toEqual(['count', ...HOSTILE_NAMES]);
  });

  it('leaves the recursion of a recursive DTO to class-transformer, and says how each instance is built', () => {
    const { node, Node } = recursiveNode();
    expect(describeInstantiator(instantiatorFor(node, Node))).toBe(
      'new Node(), each key assigned in its order; "child" built; or the parsed object adopted as a Node when the pipeline owns it',
    );
    const instance = instantiatorFor(node, Node)({ child: { child: null } }) as { child: unknown };
    expect(instance).toBeInstanceOf(Node);
    expect(instance.child).toBeInstanceOf(Node);
    expect(describeInstantiator(instantiatorFor(leaf, Leaf))).toBe(
      'new Leaf(), each key assigned in its order (never adopted: Leaf may have a constructor of its own)',
    );
    expect(describeInstantiator(instantiatorFor(inner, Inner))).toBe(
      'new Inner(), each key assigned in its order; "when" as a Date, "leaf" built, "leaves" built (never adopted: Inner may have a constructor of its own)',
    );
  });
});

// DTOs whose construction is nothing but an empty object of their prototype: what `@ToolParam() name!: string` declares
// without `useDefineForClassFields` (the repository's setting; the test files are compiled with it).
class PlainLeaf {
  describe(): string {
    return 'a method on the prototype';
  }
}
class PlainInner {}
class PlainBase {}
class PlainOuter extends PlainBase {}
// A nested DTO that may not adopt (its field initializer) inside one that does.
const { outer: plainOuter } = dtoTree(PlainLeaf, PlainInner, PlainOuter, [property('built', leaf, false)]);

/** Every object and array in a value (to show which ones the adopted instance kept). */
function containers(value: unknown, into: Set<unknown> = new Set()): Set<unknown> {
  if (typeof value !== 'object' || value === null || value instanceof Date) return into;
  into.add(value);
  for (const key of Object.keys(value)) containers((value as Record<string, unknown>)[key], into);
  return into;
}

describe('DTO instantiation by adopting the parsed object (issue 26)', () => {
  it('adopts owned plain objects as the instances the plain statement describes (3,000 random objects, fixed seed)', () => {
    const instantiate = instantiatorFor(plainOuter, PlainOuter);
    let adoptedNested = 0;
    fc.assert(
      fc.property(
        outerPlain.map((plain) => ({ ...plain, built: plain['inner'] })),
        (plain) => {
          const owned = JSON.parse(JSON.stringify(plain)) as Record<string, unknown>;
          const before = containers(owned);
          const adopted = instantiate(owned, true) as Record<string, unknown>;
          const built = instantiate(JSON.parse(JSON.stringify(plain)) as Record<string, unknown>);
          const expected = expectedInstance(plainOuter, PlainOuter, JSON.parse(JSON.stringify(plain)));
          expect(adopted).toBe(owned);
          expect(adopted).toBeInstanceOf(PlainOuter);
          expect(adopted).toBeInstanceOf(PlainBase);
          expect(describe_(adopted)).toEqual(describe_(expected));
          expect(describe_(built)).toEqual(describe_(expected));
          expect(built).not.toBe(owned);
          // Adopted nested DTOs are the parsed objects; the one that may not adopt is a new instance.
          if (typeof adopted['inner'] === 'object' && adopted['inner'] !== null && !Array.isArray(adopted['inner'])) {
            expect(before.has(adopted['inner'])).toBe(true);
            expect(adopted['inner']).toBeInstanceOf(PlainInner);
            adoptedNested++;
          }
          if (typeof adopted['built'] === 'object' && adopted['built'] !== null && !Array.isArray(adopted['built'])) {
            expect(before.has(adopted['built'])).toBe(false);
            expect(adopted['built']).toBeInstanceOf(Leaf);
          }
        },
      ),
      { seed: 26_0026, numRuns: 3_000 },
    );
    expect(adoptedNested).toBeGreaterThan(500);
    expect(describeInstantiator(instantiate)).toBe(
      'new PlainOuter(), each key assigned in its order; "at" as a Date, "day" as a Date, "inner" built, "people" built, "built" built, ' +
        HOSTILE_NAMES.map((name, index) => `${JSON.stringify(name)} ${index === 0 ? 'as a Date' : 'built'}`).join(
          ', ',
        ) +
        '; or the parsed object adopted as a PlainOuter when the pipeline owns it',
    );
  });

  it('never adopts an object the caller may hold: the instance is a new object, the plain one is unchanged', () => {
    const instantiate = instantiatorFor(plainOuter, PlainOuter);
    const plain = { name: 'n', at: '2026-01-31T09:00:00Z', people: [{ email: 'p' }], inner: { email: 'e' } };
    const copy = JSON.parse(JSON.stringify(plain)) as unknown;
    const instance = instantiate(plain) as Record<string, unknown>;
    expect(instance).not.toBe(plain);
    expect(plain).toEqual(copy);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(plain.people[0])).toBe(Object.prototype);
    expect(instance['people']).not.toBe(plain.people);
  });

  it('builds the instance (never adopts) whenever constructing may do more than make an empty object', () => {
    const builtLike = (dto: Constructor, names: string[] = ['a']) => {
      const schema = objectNode(
        dto,
        names.map((name) => property(name, { kind: 'string' }, false)),
      );
      const instantiate = instantiatorFor(schema, dto);
      const owned = { a: 'x' };
      const instance = instantiate(owned, true);
      return { adopted: instance === owned, instance, description: describeInstantiator(instantiate) };
    };
    // Fields as `useDefineForClassFields` emits them: own keys, undefined until assigned, in declaration order.
    const Defined = new Function('return class Defined { b; a; }')() as Constructor;
    const defined = builtLike(Defined);
    expect(defined.adopted).toBe(false);
    expect(Object.keys(defined.instance)).toEqual(['b', 'a']);
    expect(defined.description).toContain('never adopted: new Defined() makes own fields');
    class WithConstructor {
      constructor() {
        constructed.push('WithConstructor');
      }
    }
    const constructed: string[] = [];
    expect(builtLike(WithConstructor).description).toContain('WithConstructor may have a constructor of its own');
    class Child extends WithConstructor {}
    const child = builtLike(Child);
    expect(child.adopted).toBe(false);
    expect(child.description).toContain('WithConstructor may have a constructor of its own');
    // Constructed once per instance built, never to find out whether it may adopt.
    expect(constructed).toEqual(['WithConstructor', 'WithConstructor']);
    const WithPrivate = new Function(
      'return class WithPrivate { #secret = 1; get secret() { return this.#secret; } }',
    )() as Constructor;
    const withPrivate = builtLike(WithPrivate);
    expect(withPrivate.adopted).toBe(false);
    expect((withPrivate.instance as { secret: number }).secret).toBe(1);
    expect(withPrivate.description).toContain('may have private fields');
    class WithAccessor {
      stored: string[] = [];
    }
    class WithSetter {
      set a(value: string) {
        seen.push(value);
      }
    }
    const seen: string[] = [];
    const withSetter = builtLike(WithSetter);
    expect(withSetter.adopted).toBe(false);
    expect(seen).toEqual(['x']);
    expect(withSetter.description).toContain('"a" is an accessor or read-only on its prototype chain');
    expect(builtLike(WithAccessor).adopted).toBe(false);
    class ReadOnly {}
    Object.defineProperty(ReadOnly.prototype, 'a', { value: 'fixed', writable: false });
    // Assigning fails, as it does when building (the executor reports it as an issue): no adopted object hides it.
    expect(() => builtLike(ReadOnly)).toThrow(TypeError);
    expect(
      describeInstantiator(instantiatorFor(objectNode(ReadOnly, [property('a', { kind: 'string' })]), ReadOnly)),
    ).toContain('"a" is an accessor or read-only');
    function Legacy(this: object) {}
    expect(builtLike(Legacy as unknown as Constructor).description).toContain('Legacy is not class syntax');
    class Throws {
      static fail = true;
    }
    const Thrower = new Proxy(Throws, {
      construct() {
        throw new Error('no');
      },
    });
    // A proxy's source is not the class's: never adopted (and constructing it throws, as it does when building).
    expect(() => builtLike(Thrower)).toThrow('no');
    expect(describeInstantiator(instantiatorFor(objectNode(Thrower, []), Thrower))).toContain('is not class syntax');
    // A method of the same name on the prototype is shadowed by the own value either way: adopted.
    class WithMethod {
      a(): string {
        return 'method';
      }
    }
    const withMethod = builtLike(WithMethod);
    expect(withMethod.adopted).toBe(true);
    expect(Object.keys(withMethod.instance)).toEqual(['a']);
    expect(withMethod.instance).toBeInstanceOf(WithMethod);
  });
});

// Classes of their own for the hot tier's tests: specializing an instantiator changes it for the whole process.
class HotLeaf {
  note = 'leaf initializer';
}
class HotInner {}
class HotOuter {}
const hotTree = dtoTree(HotLeaf, HotInner, HotOuter, [property('built', leaf, false)]);
class ColdOuter {}
const coldTree = dtoTree(HotLeaf, HotInner, ColdOuter, []);

describe("DTO instantiation with the hot tier's code (decision 0031, amended)", () => {
  it('builds, owned or not, the instances the plain statement describes (3,000 random objects, fixed seed)', () => {
    // The 10,000-character hostile name is twice in the outer class's source: a budget for it.
    const instantiate = instantiatorFor(hotTree.outer, HotOuter);
    expect(hotInstantiatorSources(instantiate, 'hot_tool')!.running).toBe(false);
    expect(specializeInstantiator(instantiate, 'hot_tool', 100_000)).toBe(true);
    const sources = hotInstantiatorSources(instantiate, 'hot_tool')!;
    expect(sources.running).toBe(true);
    // One source per class of the tree (HotInner and HotLeaf are nested in several places: once each).
    expect(sources.sources.map((code) => code.source.split('\n')[0])).toEqual([
      '// toolwright: hot instantiator of hot_tool (HotOuter)',
      '// toolwright: hot instantiator of hot_tool (HotInner)',
      '// toolwright: hot instantiator of hot_tool (HotLeaf)',
      '// toolwright: hot instantiator of hot_tool (Leaf)',
    ]);
    let nestedInstances = 0;
    fc.assert(
      fc.property(
        outerPlain.map((plain) => ({ ...plain, built: plain['inner'] })),
        (plain) => {
          const owned = JSON.parse(JSON.stringify(plain)) as Record<string, unknown>;
          const callers = JSON.parse(JSON.stringify(plain)) as Record<string, unknown>;
          const callersCopy = JSON.parse(JSON.stringify(callers)) as unknown;
          const expected = describe_(expectedInstance(hotTree.outer, HotOuter, JSON.parse(JSON.stringify(plain))));
          const fromOwned = instantiate(owned, true) as Record<string, unknown>;
          const fromCallers = instantiate(callers) as Record<string, unknown>;
          expect(fromOwned).toBeInstanceOf(HotOuter);
          expect(describe_(fromOwned)).toEqual(expected);
          expect(describe_(fromCallers)).toEqual(expected);
          // Built, never adopted: the caller's object is unchanged (and so is an owned one's prototype).
          expect(fromCallers).not.toBe(callers);
          expect(callers).toEqual(callersCopy);
          expect(Object.getPrototypeOf(owned)).toBe(Object.prototype);
          if (fromOwned['inner'] instanceof HotInner) nestedInstances++;
        },
      ),
      { seed: 31_0032, numRuns: 3_000 },
    );
    expect(nestedInstances).toBeGreaterThan(500);
  });

  it('reads own keys only, treats untrusted property names as data, and keeps a class-transformer class to it', () => {
    const instantiate = instantiatorFor(coldTree.outer, ColdOuter);
    expect(specializeInstantiator(instantiate, '"));globalThis.pwned=1;//', 100_000)).toBe(true);
    const source = hotInstantiatorSources(instantiate, 'x')!.sources[0]!.source;
    expect(source.split('\n').at(-1)).toBe('//# sourceURL=toolwright/hot/x.ColdOuter.instantiate.js');
    const plain: Record<string, unknown> = { [HOSTILE_NAMES[0]!]: '2026-01-31T09:00:00Z' };
    for (const name of HOSTILE_NAMES.slice(1)) plain[name] = { email: name };
    const instance = instantiate(plain) as Record<string, unknown>;
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(instance[HOSTILE_NAMES[0]!]).toEqual(new Date('2026-01-31T09:00:00Z'));
    for (const name of HOSTILE_NAMES.slice(1)) expect(instance[name]).toBeInstanceOf(HotInner);
    expect(Object.keys(instance)).toEqual(HOSTILE_NAMES);
    const inherited = { name: 'inherited', unknownInherited: 1 };
    const withInherited = Object.assign(Object.create(inherited) as Record<string, unknown>, { at: 'x', 1: 'one' });
    expect(describe_(instantiate(withInherited))).toEqual(
      describe_(expectedInstance(coldTree.outer, ColdOuter, { ...withInherited })),
    );
    const { node, Node } = recursiveNode();
    const recursive = instantiatorFor(node, Node);
    // The outer class gets code of its own; the recursion stays class-transformer's.
    expect(specializeInstantiator(recursive, 'tree', DEFAULT_HOT_TIER.maxSourceLength)).toBe(true);
    expect(hotInstantiatorSources(recursive, 'tree')!.sources).toHaveLength(1);
    const tree = recursive({ child: { child: null } }) as { child: unknown };
    expect(tree).toBeInstanceOf(Node);
    expect(tree.child).toBeInstanceOf(Node);
  });

  it('keeps every instantiator shared in a process that compiles no code from strings', () => {
    // A real Node process with code generation from strings disallowed (as a content security policy would).
    const script = `
      require('reflect-metadata');
      const { instantiatorFor } = require('./src/pipeline/instantiate');
      const { specializeInstantiator, hotInstantiatorSources } = require('./src/compile/hot-instantiate');
      class Item {}
      const schema = { kind: 'object', additionalProperties: false, dto: Item, properties: [
        { name: 'a', required: true, aliases: [], schema: { kind: 'string' } }] };
      const instantiate = instantiatorFor(schema, Item);
      const specialized = specializeInstantiator(instantiate, 'csp', 16384);
      const instance = instantiate(JSON.parse('{"a":"x"}'), true);
      console.log(JSON.stringify({ specialized, running: hotInstantiatorSources(instantiate, 'csp').running,
        item: instance instanceof Item, a: instance.a }));`;
    const output = execFileSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '-r', 'ts-node/register/transpile-only', '-e', script],
      { cwd: path.join(__dirname, '../../..'), encoding: 'utf8' },
    );
    expect(JSON.parse(output)).toEqual({ specialized: false, running: false, item: true, a: 'x' });
  }, 120_000);

  it('keeps an instantiator whose source is beyond the budget on the shared builder', () => {
    class Big {}
    const big = objectNode(Big, [property('a', { kind: 'string' })]);
    const instantiate = instantiatorFor(big, Big);
    expect(specializeInstantiator(instantiate, 'big', 100)).toBe(false);
    expect(hotInstantiatorSources(instantiate, 'big')!.running).toBe(false);
    expect(instantiate({ a: 'x' })).toEqual(Object.assign(new Big(), { a: 'x' }));
  });
});

/** A DTO whose one property is an instance of itself: `Node { child?: Node }`. */
function recursiveNode() {
  class Node {}
  const node: { -readonly [K in keyof ObjectSchema]: ObjectSchema[K] } = {
    kind: 'object',
    properties: [],
    additionalProperties: false,
    dto: Node,
  };
  node.properties = [property('child', node, false)];
  return { node: node as ObjectSchema, Node };
}
