import fc from 'fast-check';
import { applyOptions } from '../../../src/schema/resolve-param';
import type { ParamSchema } from '../../../src/types/schema';

/**
 * applyOptions builds the schema with a spread and named stores when it can (issue 12, registry build time). The
 * reference is how it built it before: an object literal spreading the target, then a copy without undefined values.
 * Same keys, same order (own keys, symbols included), same values, for valid options on ordinary and odd targets.
 */

function withoutUndefined<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) result[key] = value[key];
  return result as T;
}

function valueTarget(schema: ParamSchema): ParamSchema {
  return schema.kind === 'array' ? valueTarget(schema.items) : schema;
}

function replaceValueTarget(schema: ParamSchema, target: ParamSchema): ParamSchema {
  return schema.kind === 'array' ? { ...schema, items: replaceValueTarget(schema.items, target) } : target;
}

type Options = Record<string, unknown>;

/** The construction before issue 12, for options the checks accept (so each checked value is the option itself). */
function reference(base: ParamSchema, options: Options): ParamSchema {
  const target = valueTarget(base);
  const pattern = options['pattern'] instanceof RegExp ? options['pattern'].source : options['pattern'];
  const constrainedTarget = withoutUndefined({
    ...target,
    enum: options['enum'] !== undefined ? [...(options['enum'] as unknown[])] : undefined,
    minimum: options['min'],
    maximum: options['max'],
    exclusiveMinimum: options['exclusiveMin'],
    exclusiveMaximum: options['exclusiveMax'],
    multipleOf: options['multipleOf'],
    minLength: options['minLength'],
    maxLength: options['maxLength'],
    lengthCount:
      options['minLength'] !== undefined || options['maxLength'] !== undefined ? 'class-validator' : undefined,
    pattern,
    format: options['format'],
  }) as ParamSchema;
  const withTarget = replaceValueTarget(base, constrainedTarget);
  return withoutUndefined({
    ...withTarget,
    description: options['description'],
    title: options['title'],
    nullable: options['nullable'] === true ? true : undefined,
    default: options['default'] !== undefined ? structuredClone(options['default']) : undefined,
    examples: options['examples'] !== undefined ? structuredClone(options['examples']) : undefined,
    policy: options['coercion'] ?? options['policy'],
    ...(withTarget.kind === 'array'
      ? {
          minItems: options['minItems'],
          maxItems: options['maxItems'],
          uniqueItems: options['uniqueItems'] === true ? true : undefined,
        }
      : {}),
  }) as ParamSchema;
}

/** Own keys (symbols too) in order, all the way down, with the values: what toStrictEqual does not compare. */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Reflect.ownKeys(value).map((key) => [String(key), shape((value as Record<PropertyKey, unknown>)[key])]);
}

const SYMBOL = Symbol('odd');

/** Targets: the kinds a type reference gives, and odd ones (a key applyOptions sets, an undefined value, a symbol). */
const scalarTarget = fc.oneof(
  fc.constantFrom<ParamSchema['kind']>('string', 'int', 'float', 'bool').map((kind) => ({ kind }) as ParamSchema),
  fc.constant({ kind: 'string', description: 'kept' } as unknown as ParamSchema),
  fc.constant({ kind: 'string', format: 'email', pattern: '^x' } as unknown as ParamSchema),
  fc.constant({ kind: 'int', minimum: 1, title: undefined } as unknown as ParamSchema),
  fc.constant({ kind: 'bool', note: undefined } as unknown as ParamSchema),
  fc.constant({ kind: 'int', [SYMBOL]: true } as unknown as ParamSchema),
  fc.constant({ kind: 'float', nullable: true, policy: 'strict' } as unknown as ParamSchema),
);
const base: fc.Arbitrary<ParamSchema> = fc.oneof(
  scalarTarget,
  scalarTarget.map((items): ParamSchema => ({ kind: 'array', items })),
  scalarTarget.map((items): ParamSchema => ({ kind: 'array', items: { kind: 'array', items } })),
  scalarTarget.map((items) => ({ kind: 'array', items, description: 'kept', minItems: 2 }) as unknown as ParamSchema),
  scalarTarget.map((items) => ({ kind: 'array', items, note: undefined }) as unknown as ParamSchema),
);

function optionsFor(schema: ParamSchema): fc.Arbitrary<Options> {
  const target = valueTarget(schema);
  const numeric = target.kind === 'int' || target.kind === 'float';
  const text = target.kind === 'string';
  const value: fc.Arbitrary<unknown> = numeric
    ? fc.integer({ min: -5, max: 5 })
    : text
      ? fc.string({ maxLength: 3 })
      : fc.boolean();
  const record: Record<string, fc.Arbitrary<unknown>> = {
    description: fc.string({ maxLength: 4 }),
    title: fc.string({ maxLength: 4 }),
    nullable: fc.boolean(),
    examples: fc.array(fc.integer(), { maxLength: 2 }),
    coercion: fc.constantFrom('strict', 'safe', 'lenient'),
    policy: fc.constantFrom('strict', 'safe', 'lenient'),
    enum: fc.uniqueArray(value, { minLength: 1, maxLength: 3 }),
  };
  if (numeric) {
    record['min'] = fc.integer({ min: -10, max: 0 });
    record['max'] = fc.integer({ min: 0, max: 10 });
    record['exclusiveMin'] = fc.integer({ min: -10, max: 10 });
    record['exclusiveMax'] = fc.integer({ min: -10, max: 10 });
    record['multipleOf'] = fc.integer({ min: 1, max: 5 });
  }
  if (text) {
    record['minLength'] = fc.integer({ min: 0, max: 3 });
    record['maxLength'] = fc.integer({ min: 3, max: 9 });
    record['pattern'] = fc.constantFrom('^[a-z]*$', /^\d+$/, 'x');
    record['format'] = fc.constantFrom('email', 'uri');
  }
  if (schema.kind === 'array') {
    record['minItems'] = fc.integer({ min: 0, max: 2 });
    record['maxItems'] = fc.integer({ min: 2, max: 5 });
    record['uniqueItems'] = fc.boolean();
  }
  return fc.record(record, { requiredKeys: [] });
}

describe('applyOptions: the schema objects it builds', () => {
  it('are the objects the spread-and-copy construction built: keys, order and values (seed 1226, 6,000 cases)', () => {
    const site = { target: 'Params', property: 'field' };
    fc.assert(
      fc.property(
        base.chain((schema) => fc.tuple(fc.constant(schema), optionsFor(schema))),
        ([schema, options]) => {
          const actual = applyOptions(schema, options, site);
          const expected = reference(schema, options);
          expect(actual).toStrictEqual(expected);
          expect(shape(actual)).toStrictEqual(shape(expected));
        },
      ),
      { seed: 1226, numRuns: 6_000 },
    );
  });
});
