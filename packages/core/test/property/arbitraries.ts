import fc from 'fast-check';

/** Generators shared by the property tests: JSON Schema tool shapes (as MCP servers and BFCL send them) and inputs for them. */
export type JsonSchema = Record<string, unknown>;

export const NAMES = [
  'title',
  'count',
  'ratio',
  'enabled',
  'tags',
  'when',
  'day',
  'address',
  'items',
  'userName',
  'level',
];

export const scalarSchema: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      maxLength: fc.option(fc.integer({ min: 3, max: 8 }), { nil: undefined }),
      pattern: fc.option(fc.constantFrom('^[a-z]+$', '\\d', '^x'), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({
    type: fc.constant('string'),
    enum: fc.uniqueArray(fc.constantFrom('low', 'High', 'MEDIUM', 'x'), { minLength: 1, maxLength: 3 }),
  }),
  fc.record(
    {
      type: fc.constant('integer'),
      minimum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      maximum: fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }),
      exclusiveMinimum: fc.option(fc.integer({ min: -10, max: -6 }), { nil: undefined }),
      multipleOf: fc.option(fc.constantFrom(2, 5), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('number'),
      minimum: fc.option(fc.double({ min: -5, max: 0, noNaN: true }), { nil: undefined }),
      exclusiveMaximum: fc.option(fc.double({ min: 1, max: 100, noNaN: true }), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'string', format: 'date' }),
  fc.constant({ type: 'string', format: 'date-time' }),
);

export const arraySchema = (items: fc.Arbitrary<JsonSchema>): fc.Arbitrary<JsonSchema> =>
  fc.record(
    {
      type: fc.constant('array'),
      items,
      minItems: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      maxItems: fc.option(fc.integer({ min: 2, max: 4 }), { nil: undefined }),
      uniqueItems: fc.option(fc.boolean(), { nil: undefined }),
    },
    { requiredKeys: ['type', 'items'] },
  );

export const objectSchema = (depth: number): fc.Arbitrary<JsonSchema> => {
  const property: fc.Arbitrary<JsonSchema> =
    depth <= 0
      ? fc.oneof({ weight: 4, arbitrary: scalarSchema }, { weight: 1, arbitrary: arraySchema(scalarSchema) })
      : fc.oneof(
          { weight: 4, arbitrary: scalarSchema },
          { weight: 1, arbitrary: arraySchema(scalarSchema) },
          { weight: 1, arbitrary: objectSchema(depth - 1) },
          { weight: 1, arbitrary: arraySchema(objectSchema(depth - 1)) },
        );
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), property, fc.boolean(), fc.boolean()), {
      minLength: 1,
      maxLength: 4,
      selector: ([name]) => name,
    })
    .map((entries) => {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, schema, isRequired, nullable] of entries) {
        properties[name] =
          nullable && typeof schema['type'] === 'string' && schema['type'] !== 'object'
            ? { ...schema, type: [schema['type'], 'null'] }
            : schema;
        if (isRequired) required.push(name);
      }
      return { type: 'object', properties, required };
    });
};

/** A value for a schema: usually valid, sometimes of the wrong type or out of bounds, sometimes malformed the way models send it. */
export function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[])[0] : (schema['type'] as string);
  const wrong = fc.oneof(
    fc.constant(null),
    fc.string({ maxLength: 4 }),
    fc.integer(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
  );
  let valid: fc.Arbitrary<unknown>;
  switch (type) {
    case 'string':
      if (schema['enum'])
        valid = fc
          .constantFrom(...(schema['enum'] as string[]))
          .chain((value) => fc.constantFrom(value, value.toLowerCase(), value.toUpperCase()));
      else if (schema['format'] === 'date')
        valid = fc.constantFrom('2026-02-28', '2026-02-30', '2026-13-01', 'tomorrow', '2026-02-28T10:00:00Z');
      else if (schema['format'] === 'date-time')
        valid = fc.constantFrom(
          '2026-11-21T09:00:00+01:00',
          '2026-11-21 09:00:00Z',
          '2026-11-21T09:00',
          'next week',
          '2026-11-21',
        );
      else
        valid = fc.oneof(
          fc.string({ maxLength: 10 }),
          fc.stringMatching(/^[a-z]{0,9}$/),
          fc.integer({ min: -99, max: 999 }),
        );
      break;
    case 'integer':
      valid = fc.oneof(
        fc.integer({ min: -20, max: 60 }),
        fc.integer({ min: -20, max: 60 }).map(String),
        fc.constantFrom(2.5, '10x', '1e1', 9007199254740993),
      );
      break;
    case 'number':
      valid = fc.oneof(
        fc.double({ min: -10, max: 200, noNaN: true }),
        fc.double({ min: -10, max: 200, noNaN: true }).map(String),
        fc.constantFrom('NaN', 'Infinity'),
      );
      break;
    case 'boolean':
      valid = fc.constantFrom(true, false, 'true', 'FALSE', 'yes', 0, 1, 'maybe');
      break;
    case 'array':
      valid = fc
        .array(valueFor(schema['items'] as JsonSchema, depth + 1), { maxLength: 5 })
        .chain((items) => fc.constantFrom<unknown>(items, JSON.stringify(items), items[0] ?? []));
      break;
    case 'object': {
      const properties = schema['properties'] as Record<string, JsonSchema>;
      valid = fc
        .record(
          Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, valueFor(inner, depth + 1)])),
          { requiredKeys: [] },
        )
        .chain((object) => fc.constantFrom<unknown>(object, JSON.stringify(object), { ...object, unknownKey: 1 }));
      break;
    }
    default:
      valid = fc.jsonValue();
  }
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: wrong });
}

/** A value that usually satisfies the schema (types and bounds), for properties that start from valid arguments. */
export function plausibleValueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[])[0] : (schema['type'] as string);
  const number = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
  switch (type) {
    case 'string': {
      if (schema['enum']) return fc.constantFrom(...(schema['enum'] as string[]));
      if (schema['format'] === 'date') return fc.constantFrom('2026-02-28', '2024-02-29', '2026-12-31');
      if (schema['format'] === 'date-time')
        return fc.constantFrom('2026-11-21T09:00:00+01:00', '2026-11-21T08:00:00Z', '2026-03-29T01:30:00.250-04:00');
      const minimum = number('minLength') ?? 0;
      const maximum = Math.max(minimum, number('maxLength') ?? 8);
      const pattern = schema['pattern'] as string | undefined;
      const base =
        pattern === '^x'
          ? fc.stringMatching(/^x[a-z]*$/)
          : pattern === '\\d'
            ? fc.stringMatching(/^[a-z]*\d[a-z]*$/)
            : fc.stringMatching(/^[a-z]*$/);
      return base.filter((text) => text.length >= minimum && text.length <= maximum);
    }
    case 'integer': {
      const low = Math.max(number('minimum') ?? -20, (number('exclusiveMinimum') ?? -21) + 1);
      const high = Math.max(low, Math.min(number('maximum') ?? 60, (number('exclusiveMaximum') ?? 61) - 1));
      const step = number('multipleOf') ?? 1;
      return fc
        .integer({ min: Math.ceil(low / step), max: Math.max(Math.ceil(low / step), Math.floor(high / step)) })
        .map((value) => value * step);
    }
    case 'number': {
      const low = Math.max(number('minimum') ?? -10, number('exclusiveMinimum') ?? -10);
      const high = Math.min(number('maximum') ?? 200, number('exclusiveMaximum') ?? 200);
      return fc
        .double({
          min: low,
          max: Math.max(low, high),
          noNaN: true,
          noDefaultInfinity: true,
          minExcluded: true,
          maxExcluded: true,
        })
        .map((value) => (Object.is(value, -0) ? 0 : value));
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minimum = number('minItems') ?? 0;
      return fc.array(plausibleValueFor(schema['items'] as JsonSchema), {
        minLength: minimum,
        maxLength: Math.max(minimum, number('maxItems') ?? 3),
      });
    }
    case 'object': {
      const properties = schema['properties'] as Record<string, JsonSchema>;
      const required = (schema['required'] as string[] | undefined) ?? [];
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, plausibleValueFor(inner)])),
        { requiredKeys: required },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}
