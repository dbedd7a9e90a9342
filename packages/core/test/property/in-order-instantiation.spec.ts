import 'reflect-metadata';
import { IsEmail } from 'class-validator';
import { ArrayOf, Command, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry } from '../../src';
import { ACCEPTED_FACTS_LENGTH, generateBoundedAcceptFunction, NOT_ACCEPTED } from '../../src/compile/accept-generator';
import { generateInstantiators } from '../../src/compile/instantiate-generator';
import { DEFAULT_LIMITS } from '../../src/pipeline/limits';
import { instantiatorFor } from '../../src/pipeline/instantiate';
import type { Constructor, ObjectSchema, ParamSchema, PropertyDefinition } from '../../src/types/schema';
import { seededRandom, type SeededRandom } from '../support/seeded-random';

/**
 * The in-order DTO instantiation (a class command's arguments the canonical check accepted with every object's keys in
 * declaration order) against the code it replaces, the generated key-loop instantiator, and the closure instantiator:
 * on thousands of random accepted calls (fixed seed; any key order, optional keys missing, hostile and integer-like
 * property names, nested DTOs, arrays of them, dates, nulls) the order fact the accept function leaves is exactly
 * "every object's keys in declaration order", and when it says so both build the same instances (class and prototype
 * at every level, own keys in order, values, dates by time). Names `Object.prototype` answers for take the key loop.
 */

const HOSTILE = ['"));globalThis.pwned=1;//', 'line\u2028sep', '${x}', 'a"b\\c'];

function property(name: string, schema: ParamSchema, required = true): PropertyDefinition {
  return { name, schema, required, aliases: [] };
}

function objectNode(dto: Constructor, properties: PropertyDefinition[]): ObjectSchema {
  return { kind: 'object', properties, additionalProperties: false, dto };
}

class Leaf {
  note = 'leaf initializer';
}
class Person {
  kind = 'person initializer';
}
class Root {
  count = 7;
}
Reflect.defineMetadata('design:type', Date, Person.prototype, 'when');
Reflect.defineMetadata('design:type', Date, Root.prototype, 'at');

const leaf = objectNode(Leaf, [property('text', { kind: 'string' }), property('2', { kind: 'int' }, false)]);
const person = objectNode(Person, [
  property('email', { kind: 'string' }),
  property('optional', { kind: 'bool' }, false),
  property('when', { kind: 'datetime' }, false),
  property('leaf', { ...leaf, nullable: true }, false),
  property(HOSTILE[1]!, { kind: 'string' }, false),
]);
const root = objectNode(Root, [
  property('priority', { kind: 'string', enum: ['low', 'high'] }),
  property('at', { kind: 'datetime' }),
  property('slots', { kind: 'array', items: { kind: 'datetime' } }, false),
  property('1', { kind: 'string' }, false),
  property('person', person, false),
  property('people', { kind: 'array', items: person }),
  property('leaves', { kind: 'array', items: { kind: 'array', items: leaf } }, false),
  property('session', { kind: 'string' }, false),
  ...HOSTILE.map((name) => property(name, { kind: 'string', nullable: true }, false)),
]);
// A context field: never accepted from the model (the canonical check refuses it), so never in an accepted value.
(root.properties as PropertyDefinition[]).push({
  ...property('sessionId', { kind: 'string' }, false),
  context: 'session_id',
});

/** A comparable description: the class, the own keys in order, dates by time, recursively. */
function described(value: unknown): unknown {
  if (value instanceof Date) return { date: value.getTime() };
  if (Array.isArray(value)) return value.map(described);
  if (typeof value === 'object' && value !== null) {
    return {
      prototype: Object.getPrototypeOf(value) as unknown,
      entries: Reflect.ownKeys(value).map((key) => [key, described((value as Record<string | symbol, unknown>)[key])]),
    };
  }
  return value === undefined ? { undefined: true } : value;
}

/** The instance described, or what it threw. */
function outcome(build: () => object): unknown {
  try {
    return described(build());
  } catch (error) {
    return { threw: String(error) };
  }
}

/** A value of `schema` (valid, mostly), its object keys in declaration order or (sometimes) shuffled. */
function valueOf(schema: ParamSchema, random: SeededRandom, shuffle: number): unknown {
  if (schema.nullable && random.chance(0.1)) return null;
  switch (schema.kind) {
    case 'string':
      return schema.enum ? random.pick(schema.enum) : random.pick(['x', 'user@example.com', '', 'é']);
    case 'int':
      return random.below(100);
    case 'bool':
      return random.chance(0.5);
    case 'datetime':
      return random.pick(['2026-01-31T09:00:00Z', '2026-02-01T10:15:00+01:00']);
    case 'array':
      return Array.from({ length: random.below(4) }, () => valueOf(schema.items, random, shuffle));
    case 'object': {
      const entries: Array<[string, unknown]> = [];
      for (const child of schema.properties) {
        if (child.context !== undefined) {
          if (random.chance(0.005)) entries.push([child.name, 'from the model']);
          continue;
        }
        if (!child.required && random.chance(/^\d+$/.test(child.name) ? 0.9 : 0.4)) continue;
        entries.push([child.name, valueOf(child.schema, random, shuffle)]);
      }
      if (random.chance(0.01)) entries.push(['unknownKey', 1]);
      if (entries.length > 1 && random.chance(shuffle)) {
        const from = random.below(entries.length);
        const to = random.below(entries.length);
        const [moved] = entries.splice(from, 1);
        entries.splice(to, 0, moved!);
      }
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) object[key] = value;
      return object;
    }
    default:
      return null;
  }
}

/** Whether every object in `value` (as `schema` reads it) has its keys, in for-in order, in declaration order. */
function inDeclarationOrder(schema: ParamSchema, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (schema.kind === 'array') return (value as unknown[]).every((item) => inDeclarationOrder(schema.items, item));
  if (schema.kind !== 'object') return true;
  const names = schema.properties.map((child) => child.name);
  let last = -1;
  for (const key in value) {
    const position = names.indexOf(key);
    if (position < last) return false;
    last = position;
    if (!inDeclarationOrder(schema.properties[position]!.schema, (value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

describe('in-order DTO instantiation (issue 12, class3)', () => {
  const accept = generateBoundedAcceptFunction(root, DEFAULT_LIMITS, true);
  const generated = generateInstantiators(root, Root)!;
  const closure = instantiatorFor(root, Root);
  const facts = new Float64Array(ACCEPTED_FACTS_LENGTH);

  it('reports declaration order exactly, and builds the same instances as the key loop on 6,000 accepted calls', () => {
    expect(generated).toBeDefined();
    const random = seededRandom(12_2026);
    let ordered = 0;
    let unordered = 0;
    let refused = 0;
    for (let run = 0; run < 6_000; run++) {
      const text = JSON.stringify(valueOf(root, random, run % 3 === 0 ? 0.3 : 0));
      const parsed = JSON.parse(text) as Record<string, unknown>;
      facts[1] = -1;
      if (accept(parsed, facts) === NOT_ACCEPTED) {
        refused++;
        continue;
      }
      const expected = inDeclarationOrder(root, parsed);
      expect(facts[1]).toBe(expected ? 1 : 0);
      if (!expected) {
        unordered++;
        continue;
      }
      ordered++;
      const fast = generated.inOrder(JSON.parse(text) as Record<string, unknown>);
      const loop = generated.any(JSON.parse(text) as Record<string, unknown>);
      expect(described(fast)).toEqual(described(loop));
      expect(described(fast)).toEqual(described(closure(JSON.parse(text) as Record<string, unknown>)));
    }
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(ordered).toBeGreaterThan(3_000);
    expect(unordered).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(50);
  });

  it('takes the key loop when Object.prototype answers for a declared name (own keys only, as before)', () => {
    const random = seededRandom(2026_12);
    const texts = Array.from({ length: 200 }, () => JSON.stringify(valueOf(root, random, 0)));
    for (const polluted of ['optional', '1', HOSTILE[1]!, 'leaf']) {
      for (const [enumerable, writable] of [
        [false, true],
        [true, true],
        [false, false],
      ]) {
        // (A read-only index on Object.prototype breaks every array write, the test's own included.)
        if (!writable && polluted === '1') continue;
        Object.defineProperty(Object.prototype, polluted, {
          value: 'polluted',
          enumerable,
          writable,
          configurable: true,
        });
        const pairs: Array<[unknown, unknown]> = [];
        try {
          for (const text of texts) {
            pairs.push([
              outcome(() => generated.inOrder(JSON.parse(text) as Record<string, unknown>)),
              outcome(() => generated.any(JSON.parse(text) as Record<string, unknown>)),
            ]);
          }
        } finally {
          delete (Object.prototype as Record<string, unknown>)[polluted];
        }
        // Compared with the prototype clean again (the matcher itself reads the polluted names).
        for (const [fast, loop] of pairs) expect(fast).toEqual(loop);
      }
    }
  });

  it('tracks the order only when asked (no flag, no extra code otherwise; the fact is 0 there)', () => {
    const plainAccept = generateBoundedAcceptFunction(root, DEFAULT_LIMITS);
    expect(plainAccept.toString()).not.toContain('d=false');
    expect(accept.toString()).toContain('d=false');
    const random = seededRandom(7);
    let accepted = 0;
    for (let run = 0; run < 400 && accepted < 20; run++) {
      const value = JSON.parse(JSON.stringify(valueOf(root, random, 0))) as Record<string, unknown>;
      facts[1] = -1;
      if (plainAccept(value, facts) === NOT_ACCEPTED) continue;
      accepted++;
      expect(facts[1]).toBe(0);
    }
    expect(accepted).toBe(20);
  });
});

describe('in-order DTO instantiation in the executor (issue 12, class3)', () => {
  class Guest {
    @IsEmail()
    @ToolParam({ description: 'e-mail' })
    email!: string;

    @ToolParam({ description: 'optional', required: false })
    optional?: boolean;
  }
  class Meeting {
    @ToolParam({ description: 'title' })
    title!: string;

    @ToolParam({ description: 'minutes', type: 'int', min: 1, max: 100 })
    minutes!: number;

    @ArrayOf(() => Guest, { description: 'guests' })
    guests!: Guest[];
  }
  const seen: unknown[] = [];
  @Command({ name: 'in_order_meeting', description: 'Plans a meeting', params: Meeting })
  class MeetingCommand {
    execute(params: Meeting) {
      seen.push(params);
      return 'ok';
    }
  }

  it('hands the handler the same instances for 2,000 random calls, any key order (fixed seed)', async () => {
    const registry = ToolRegistry.from([MeetingCommand], { logger: silentLogger });
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const random = seededRandom(12_3);
    let handled = 0;
    for (let run = 0; run < 2_000; run++) {
      const guests = Array.from({ length: random.below(4) }, () => {
        const entries: Array<[string, unknown]> = [['email', random.pick(['a@example.com', 'not-an-email'])]];
        if (random.chance(0.5)) entries.push(['optional', random.chance(0.5)]);
        if (random.chance(0.3)) entries.reverse();
        return Object.fromEntries(entries);
      });
      const entries: Array<[string, unknown]> = [
        ['title', 'Planning'],
        ['minutes', random.pick([30, 45])],
        ['guests', guests],
      ];
      if (random.chance(0.3)) entries.push(entries.shift()!);
      const text = JSON.stringify(Object.fromEntries(entries));
      seen.length = 0;
      const result = await executor.execute({ id: 'c', name: 'in_order_meeting', arguments: text });
      if (!result.ok) continue;
      expect(seen).toHaveLength(1);
      handled++;
      // The instances the key loop builds from the same arguments (what the handler got before).
      const expected = generateInstantiators(
        registry.getEntry('in_order_meeting')!.definition.parameters,
        Meeting,
      )!.any(JSON.parse(text) as Record<string, unknown>);
      expect(described(seen[0])).toEqual(described(expected));
    }
    expect(handled).toBeGreaterThan(500);
  });
});
