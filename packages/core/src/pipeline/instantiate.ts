import { plainToInstance } from 'class-transformer';
import { getDesignType } from '../metadata/design-metadata';
import { hasClassTransformerCustomizations } from '../metadata/validator-metadata';
import type { Constructor, ObjectSchema, ParamSchema } from '../types/schema';

/**
 * The DTO instance a class command receives, built from the validated plain parameters. What `plainToInstance` does
 * for a toolwright DTO (construct the class, so field initializers run; assign each property; build nested DTOs and
 * arrays of them; turn date strings into `Date` where the property is typed `Date`) compiled once per class, without
 * class-transformer's per-call metadata lookups. A class whose properties class-transformer customizes beyond that
 * (`@Expose`, `@Exclude`, its own `@Transform`, a discriminated `@Type`) is built by `plainToInstance` itself.
 */
export type Instantiator = (plain: Record<string, unknown>) => object;

const instantiators = new WeakMap<ObjectSchema, Instantiator>();

/** What each instantiator does, in words (`toolwright inspect --code` prints it). */
const descriptions = new WeakMap<Instantiator, string>();

/** How an instantiator from {@link instantiatorFor} builds its instance, in words. */
export function describeInstantiator(instantiator: Instantiator): string {
  return descriptions.get(instantiator) ?? 'not described';
}

export function instantiatorFor(schema: ObjectSchema, dto: Constructor): Instantiator {
  let instantiator = instantiators.get(schema);
  if (!instantiator) {
    instantiator = compile(schema, dto, new Set());
    instantiators.set(schema, instantiator);
  }
  return instantiator;
}

type ValueBuilder = (value: unknown) => unknown;

function byClassTransformer(dto: Constructor, reason: string): Instantiator {
  const instantiator: Instantiator = (plain) =>
    plainToInstance(dto, plain, { enableImplicitConversion: false }) as object;
  descriptions.set(instantiator, `plainToInstance(${dto.name}) (${reason})`);
  return instantiator;
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as hasOwnProperty.call(object, key)
const hasOwnProperty = Object.prototype.hasOwnProperty;

function compile(schema: ObjectSchema, dto: Constructor, compiling: Set<ObjectSchema>): Instantiator {
  if (compiling.has(schema)) return byClassTransformer(dto, 'a recursive DTO');
  compiling.add(schema);
  const names = schema.properties.map((property) => property.name);
  const dateProperties = new Set(
    schema.properties
      .filter(
        (property) =>
          (property.schema.kind === 'date' || property.schema.kind === 'datetime') &&
          getDesignType(dto.prototype, property.name) === Date,
      )
      .map((property) => property.name),
  );
  if (hasClassTransformerCustomizations(dto, names, dateProperties))
    return byClassTransformer(dto, 'class-transformer customizes the class');
  // Only the properties built from their value (nested DTOs, arrays of them, dates) have a builder.
  const builders = new Map<string, ValueBuilder>();
  const built: string[] = [];
  for (const property of schema.properties) {
    const builder = dateProperties.has(property.name) ? toDate : valueBuilder(property.schema, compiling);
    if (builder === undefined) continue;
    builders.set(property.name, builder);
    built.push(`${JSON.stringify(property.name)} ${dateProperties.has(property.name) ? 'as a Date' : 'built'}`);
  }
  compiling.delete(schema);
  const instantiator: Instantiator = (plain) => {
    const instance = new dto() as Record<string, unknown>;
    // `for...in` with `hasOwnProperty.call` visits the own enumerable keys in `Object.keys` order without the array.
    for (const key in plain) {
      if (!hasOwnProperty.call(plain, key)) continue;
      const value = plain[key];
      const build = builders.size === 0 ? undefined : builders.get(key);
      instance[key] = build === undefined || value === null || value === undefined ? value : build(value);
    }
    return instance;
  };
  descriptions.set(
    instantiator,
    `new ${dto.name}(), each key assigned in its order${built.length === 0 ? '' : `; ${built.join(', ')}`}`,
  );
  return instantiator;
}

function valueBuilder(schema: ParamSchema, compiling: Set<ObjectSchema>): ValueBuilder | undefined {
  if (schema.kind === 'object' && schema.dto) {
    const nested = compile(schema, schema.dto, compiling);
    return (value) =>
      typeof value === 'object' && !Array.isArray(value) ? nested(value as Record<string, unknown>) : value;
  }
  if (schema.kind === 'array') {
    const item = valueBuilder(schema.items, compiling);
    return item === undefined
      ? undefined
      : (value) =>
          Array.isArray(value)
            ? value.map((entry) => (entry === null || entry === undefined ? entry : item(entry)))
            : value;
  }
  return undefined;
}

function toDate(value: unknown): unknown {
  return typeof value === 'string' ? new Date(value) : value;
}
