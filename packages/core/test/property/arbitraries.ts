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

/** What a family of property tests draws its scalar schemas from; every option off gives {@link scalarSchema}. */
export interface ScalarSchemaOptions {
  /** The members a string enum picks from. */
  readonly enumMembers: readonly string[];
  /** A ten-member string enum (long enough for the enum refusal to list a prefix). */
  readonly wideEnum?: boolean;
  /** `exclusiveMaximum` on integers. */
  readonly integerExclusiveMaximum?: boolean;
  /** `multipleOf` on numbers, integer enums, email strings, an `anyOf` union and the free-form `{}`. */
  readonly extended?: boolean;
  /** `enum: [true]` on booleans now and then. */
  readonly booleanEnum?: boolean;
}

export function scalarSchemaWith(options: ScalarSchemaOptions): fc.Arbitrary<JsonSchema> {
  const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
  return fc.oneof(
    fc.record(
      {
        type: fc.constant('string'),
        minLength: optional(fc.integer({ min: 0, max: 3 })),
        maxLength: optional(fc.integer({ min: 3, max: 8 })),
        pattern: optional(fc.constantFrom('^[a-z]+$', '\\d', '^x')),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      type: fc.constant('string'),
      enum: fc.uniqueArray(fc.constantFrom(...options.enumMembers), { minLength: 1, maxLength: 3 }),
    }),
    ...(options.wideEnum
      ? [
          fc.record({
            type: fc.constant('string'),
            enum: fc.constant(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'Ten']),
          }),
        ]
      : []),
    fc.record(
      {
        type: fc.constant('integer'),
        minimum: optional(fc.integer({ min: -5, max: 5 })),
        maximum: optional(fc.integer({ min: 5, max: 50 })),
        exclusiveMinimum: optional(fc.integer({ min: -10, max: -6 })),
        ...(options.integerExclusiveMaximum ? { exclusiveMaximum: optional(fc.integer({ min: 51, max: 60 })) } : {}),
        multipleOf: optional(fc.constantFrom(2, 5)),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('number'),
        minimum: optional(fc.double({ min: -5, max: 0, noNaN: true })),
        exclusiveMaximum: optional(fc.double({ min: 1, max: 100, noNaN: true })),
        ...(options.extended ? { multipleOf: optional(fc.constantFrom(0.5, 0.1)) } : {}),
      },
      { requiredKeys: ['type'] },
    ),
    ...(options.extended
      ? [
          fc.record({
            type: fc.constant('integer'),
            enum: fc.uniqueArray(fc.constantFrom(1, 2, 3, 10), { minLength: 1, maxLength: 3 }),
          }),
        ]
      : []),
    options.booleanEnum
      ? fc.record({ type: fc.constant('boolean'), enum: optional(fc.constant([true])) })
      : fc.constant({ type: 'boolean' }),
    fc.constant({ type: 'string', format: 'date' }),
    fc.constant({ type: 'string', format: 'date-time' }),
    ...(options.extended
      ? [
          fc.constant({ type: 'string', format: 'email' }),
          fc.constant({ anyOf: [{ type: 'string' }, { type: 'integer' }] }),
          fc.constant({}),
        ]
      : []),
  );
}

export const scalarSchema: fc.Arbitrary<JsonSchema> = scalarSchemaWith({ enumMembers: ['low', 'High', 'MEDIUM', 'x'] });

export const arraySchema = (items: fc.Arbitrary<JsonSchema>, maxItemsUpTo = 4): fc.Arbitrary<JsonSchema> =>
  fc.record(
    {
      type: fc.constant('array'),
      items,
      minItems: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      maxItems: fc.option(fc.integer({ min: 2, max: maxItemsUpTo }), { nil: undefined }),
      uniqueItems: fc.option(fc.boolean(), { nil: undefined }),
    },
    { requiredKeys: ['type', 'items'] },
  );

/** How {@link objectSchemaWith} builds its tools; every option left out gives {@link objectSchema}. */
export interface ObjectSchemaOptions {
  readonly names?: readonly string[];
  readonly scalar?: fc.Arbitrary<JsonSchema>;
  /** Relative weights of a scalar property and of an array of objects (an array of scalars and an object weigh 1). */
  readonly scalarWeight?: number;
  readonly objectArrayWeight?: number;
  readonly maxProperties?: number;
  /** The highest `maxItems` an array schema draws. */
  readonly maxItemsUpTo?: number;
  /** Whether a property gets `null` added to its type (object properties too when `nullableObjects`). */
  readonly nullable?: fc.Arbitrary<boolean>;
  readonly nullableObjects?: boolean;
  /** The `additionalProperties` values to pick from (`undefined`: left out); without it the key is never set. */
  readonly additionalProperties?: ReadonlyArray<boolean | JsonSchema | undefined>;
}

export function objectSchemaWith(depth: number, options: ObjectSchemaOptions = {}): fc.Arbitrary<JsonSchema> {
  const scalar = options.scalar ?? scalarSchema;
  const scalarWeight = options.scalarWeight ?? 4;
  const array = (items: fc.Arbitrary<JsonSchema>) => arraySchema(items, options.maxItemsUpTo);
  const property: fc.Arbitrary<JsonSchema> =
    depth <= 0
      ? fc.oneof({ weight: scalarWeight, arbitrary: scalar }, { weight: 1, arbitrary: array(scalar) })
      : fc.oneof(
          { weight: scalarWeight, arbitrary: scalar },
          { weight: 1, arbitrary: array(scalar) },
          { weight: 1, arbitrary: objectSchemaWith(depth - 1, options) },
          { weight: options.objectArrayWeight ?? 1, arbitrary: array(objectSchemaWith(depth - 1, options)) },
        );
  const entries = fc.uniqueArray(
    fc.tuple(fc.constantFrom(...(options.names ?? NAMES)), property, fc.boolean(), options.nullable ?? fc.boolean()),
    { minLength: 1, maxLength: options.maxProperties ?? 4, selector: ([name]) => name },
  );
  const build = (
    drawn: ReadonlyArray<[string, JsonSchema, boolean, boolean]>,
    additional: boolean | JsonSchema | undefined,
  ): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [name, schema, isRequired, nullable] of drawn) {
      const type = schema['type'];
      properties[name] =
        nullable && typeof type === 'string' && (options.nullableObjects || type !== 'object')
          ? { ...schema, type: [type, 'null'] }
          : schema;
      if (isRequired) required.push(name);
    }
    return {
      type: 'object',
      properties,
      required,
      ...(additional === undefined ? {} : { additionalProperties: additional }),
    };
  };
  const additional = options.additionalProperties;
  return additional
    ? fc.tuple(entries, fc.constantFrom(...additional)).map(([drawn, chosen]) => build(drawn, chosen))
    : entries.map((drawn) => build(drawn, undefined));
}

export const objectSchema = (depth: number): fc.Arbitrary<JsonSchema> => objectSchemaWith(depth);

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

/**
 * A value that usually satisfies a schema of {@link objectSchemaWith} with the extended scalars: {@link plausibleValueFor}
 * extended to unions, free-form values, emails (valid or not), non-string enums and nulls. `numbers`, when given, are
 * the values a `number` property takes (for schemas whose `multipleOf` a random double would rarely meet).
 */
export function usuallyValidValueFor(schema: JsonSchema, numbers?: readonly number[]): fc.Arbitrary<unknown> {
  const inner = (nested: JsonSchema) => usuallyValidValueFor(nested, numbers);
  if (schema['anyOf']) return fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }));
  if (schema['type'] === undefined) return fc.jsonValue({ maxDepth: 2 });
  if (schema['format'] === 'email') return fc.constantFrom('ana@example.com', 'not-an-email');
  if (schema['type'] === 'object') {
    const properties = schema['properties'] as Record<string, JsonSchema>;
    const required = (schema['required'] as string[] | undefined) ?? [];
    return fc.record(Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, inner(value)])), {
      requiredKeys: required,
    });
  }
  if (schema['type'] === 'array') {
    const minimum = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
    return fc.array(inner(schema['items'] as JsonSchema), {
      minLength: minimum,
      maxLength: Math.max(minimum, typeof schema['maxItems'] === 'number' ? schema['maxItems'] : 3),
    });
  }
  if (Array.isArray(schema['type'])) {
    const nonNull = { ...schema, type: (schema['type'] as string[])[0] };
    return fc.oneof({ weight: 4, arbitrary: inner(nonNull) }, { weight: 1, arbitrary: fc.constant(null) });
  }
  if (schema['enum'] && schema['type'] !== 'string') return fc.constantFrom(...(schema['enum'] as unknown[]));
  if (schema['type'] === 'number' && numbers) return fc.constantFrom(...numbers);
  return plausibleValueFor(schema);
}
