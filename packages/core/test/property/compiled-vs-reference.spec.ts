import 'reflect-metadata';
import fc from 'fast-check';
import { PersonaToolExecutor, silentLogger, ToolRegistry, type PrepareResult } from '@toolwright/core';

/**
 * Issue 4's differential test: for generated DTO shapes and generated valid, invalid and malformed inputs, the compiled
 * path (default) and the reference path (normalizer + plainToInstance + class-validator) agree on ok/error, on the
 * value, and on the failing paths. class-validator reports some failures at a container where the compiled path names
 * the element (`{ each: true }` rules at the array, union and nullable-element checks at the property: `tags` vs
 * `tags[2].name`), and the reference path folds such a container issue into the normalizer's precise one. So paths
 * agree when both sides fail the same root properties and every path the reference names is one the compiled path
 * names, or lies inside or around one; the compiled path may name more precise paths inside those roots.
 */
type JsonSchema = Record<string, unknown>;

const NAMES = ['title', 'count', 'ratio', 'enabled', 'tags', 'when', 'day', 'address', 'items', 'userName', 'level'];

const scalarSchema: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), maxLength: fc.option(fc.integer({ min: 3, max: 8 }), { nil: undefined }), pattern: fc.option(fc.constantFrom('^[a-z]+$', '\\d', '^x'), { nil: undefined }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(fc.constantFrom('low', 'High', 'MEDIUM', 'x'), { minLength: 1, maxLength: 3 }) }),
  fc.record({ type: fc.constant('integer'), minimum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), maximum: fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }), exclusiveMinimum: fc.option(fc.integer({ min: -10, max: -6 }), { nil: undefined }), multipleOf: fc.option(fc.constantFrom(2, 5), { nil: undefined }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('number'), minimum: fc.option(fc.double({ min: -5, max: 0, noNaN: true }), { nil: undefined }), exclusiveMaximum: fc.option(fc.double({ min: 1, max: 100, noNaN: true }), { nil: undefined }) }, { requiredKeys: ['type'] }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'string', format: 'date' }),
  fc.constant({ type: 'string', format: 'date-time' }),
);

const arraySchema = (items: fc.Arbitrary<JsonSchema>): fc.Arbitrary<JsonSchema> =>
  fc.record({ type: fc.constant('array'), items, minItems: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), maxItems: fc.option(fc.integer({ min: 2, max: 4 }), { nil: undefined }), uniqueItems: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: ['type', 'items'] });

const objectSchema = (depth: number): fc.Arbitrary<JsonSchema> => {
  const property: fc.Arbitrary<JsonSchema> = depth <= 0
    ? fc.oneof({ weight: 4, arbitrary: scalarSchema }, { weight: 1, arbitrary: arraySchema(scalarSchema) })
    : fc.oneof({ weight: 4, arbitrary: scalarSchema }, { weight: 1, arbitrary: arraySchema(scalarSchema) }, { weight: 1, arbitrary: objectSchema(depth - 1) }, { weight: 1, arbitrary: arraySchema(objectSchema(depth - 1)) });
  return fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), property, fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 4, selector: ([name]) => name }).map((entries) => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [name, schema, isRequired, nullable] of entries) {
      properties[name] = nullable && typeof schema['type'] === 'string' && schema['type'] !== 'object' ? { ...schema, type: [schema['type'], 'null'] } : schema;
      if (isRequired) required.push(name);
    }
    return { type: 'object', properties, required };
  });
};

/** A value for a schema: usually valid, sometimes of the wrong type or out of bounds, sometimes malformed the way models send it. */
function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[])[0] : (schema['type'] as string);
  const wrong = fc.oneof(fc.constant(null), fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}));
  let valid: fc.Arbitrary<unknown>;
  switch (type) {
    case 'string':
      if (schema['enum']) valid = fc.constantFrom(...(schema['enum'] as string[])).chain((value) => fc.constantFrom(value, value.toLowerCase(), value.toUpperCase()));
      else if (schema['format'] === 'date') valid = fc.constantFrom('2026-02-28', '2026-02-30', '2026-13-01', 'tomorrow', '2026-02-28T10:00:00Z');
      else if (schema['format'] === 'date-time') valid = fc.constantFrom('2026-11-21T09:00:00+01:00', '2026-11-21 09:00:00Z', '2026-11-21T09:00', 'next week', '2026-11-21');
      else valid = fc.oneof(fc.string({ maxLength: 10 }), fc.stringMatching(/^[a-z]{0,9}$/), fc.integer({ min: -99, max: 999 }));
      break;
    case 'integer':
      valid = fc.oneof(fc.integer({ min: -20, max: 60 }), fc.integer({ min: -20, max: 60 }).map(String), fc.constantFrom(2.5, '10x', '1e1', 9007199254740993));
      break;
    case 'number':
      valid = fc.oneof(fc.double({ min: -10, max: 200, noNaN: true }), fc.double({ min: -10, max: 200, noNaN: true }).map(String), fc.constantFrom('NaN', 'Infinity'));
      break;
    case 'boolean':
      valid = fc.constantFrom(true, false, 'true', 'FALSE', 'yes', 0, 1, 'maybe');
      break;
    case 'array':
      valid = fc.array(valueFor(schema['items'] as JsonSchema, depth + 1), { maxLength: 5 }).chain((items) => fc.constantFrom<unknown>(items, JSON.stringify(items), items[0] ?? []));
      break;
    case 'object': {
      const properties = schema['properties'] as Record<string, JsonSchema>;
      valid = fc.record(Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, valueFor(inner, depth + 1)])), { requiredKeys: [] })
        .chain((object) => fc.constantFrom<unknown>(object, JSON.stringify(object), { ...object, unknownKey: 1 }));
      break;
    }
    default:
      valid = fc.jsonValue();
  }
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: wrong });
}

function failingPaths(result: PrepareResult): string[] {
  return result.ok ? [] : [...new Set(result.error.issues.map((issue) => issue.path))].sort();
}

function rootOf(path: string): string {
  return /^[^.[]*/.exec(path)![0];
}

function related(a: string, b: string): boolean {
  const contains = (outer: string, inner: string) => inner === outer || outer === '' || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return contains(a, b) || contains(b, a);
}

function expectSamePaths(compiled: string[], reference: string[]): void {
  expect([...new Set(compiled.map(rootOf))].sort()).toEqual([...new Set(reference.map(rootOf))].sort());
  for (const path of reference) expect({ path, matched: compiled.some((other) => related(path, other)) }).toEqual({ path, matched: true });
}

describe('compiled validation agrees with the reference path (class-transformer + class-validator)', () => {
  it('on generated DTO shapes and inputs', async () => {
    let compared = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        objectSchema(2).chain((schema) => fc.tuple(fc.constant(schema), fc.array(valueFor(schema), { minLength: 4, maxLength: 4 }))),
        async ([schema, inputs]) => {
          const registry = new ToolRegistry({ logger: silentLogger });
          registry.registerJsonSchemaTool({ name: 'tool', parameters: schema }, async (params) => params);
          const compiled = new PersonaToolExecutor(registry, { logger: silentLogger });
          const reference = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
          for (const input of inputs) {
            const call = { id: 'c', name: 'tool', arguments: typeof input === 'string' ? input : JSON.stringify(input) };
            const fast = await compiled.prepare(call, {});
            const slow = await reference.prepare(call, {});
            compared++;
            expect(fast.ok).toBe(slow.ok);
            expectSamePaths(failingPaths(fast), failingPaths(slow));
            if (fast.ok && slow.ok) {
              accepted++;
              expect(fast.params).toEqual(slow.params);
              expect(fast.transformations).toEqual(slow.transformations);
            }
          }
        },
      ),
      { seed: 20261121, numRuns: Number(process.env['TOOLWRIGHT_PROPERTY_RUNS'] ?? 300), endOnFailure: true },
    );
    expect(compared).toBeGreaterThanOrEqual(1200);
    expect(accepted).toBeGreaterThan(compared / 10);
  });
});
