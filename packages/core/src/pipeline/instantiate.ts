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
 *
 * `owned`: the plain object, and everything in it, is the pipeline's own (JSON.parse made it for this call) and
 * nothing reads it afterwards but as the instance. Then a class whose construction is provably nothing but an empty
 * object of its prototype ({@link adoptionBlocker}) adopts the plain object as its instance
 * (`Object.setPrototypeOf`, nested DTOs and arrays of them in place, dates replaced in place): the same class, own
 * keys in the same order and the same values as the built instance, without a store per key.
 *
 * A hot tool's instantiators get code of their own (the hot tier, docs/decisions/0031-hot-tier.md: `specializeInstantiator` in `compile/hot-instantiate.ts`):
 * the same building with one literal store per declared property, which costs less than adopting.
 */
export type Instantiator = (plain: Record<string, unknown>, owned?: boolean) => object;

const instantiators = new WeakMap<ObjectSchema, Instantiator>();

/** Builds a property's value (`owned`: as {@link Instantiator}'s; an owned array is filled in place). */
export type ValueBuilder = (value: unknown, owned: boolean) => unknown;

/**
 * One class's instantiator as the hot tier and the printing see it: the class and its schema,
 * the properties built from their value and their builders (two lists of one length, in declaration order; one shared
 * empty list for a class that has none, most of them), the nested DTO classes'
 * instantiators, why it may not adopt (`undefined`: it may), and the one slot the shared builder defers to: the code of
 * its own the tier gave it (`compile/hot-instantiate.ts`, emitted from this record, the builders bound as they are),
 * `undefined` until then. Written only there.
 */
export interface InstantiatorRecord {
  readonly dto: Constructor;
  readonly schema: ObjectSchema;
  readonly builtKeys: readonly string[];
  readonly builders: readonly ValueBuilder[];
  readonly nested: readonly Instantiator[];
  readonly blocker: string | undefined;
  own: Instantiator | undefined;
}

/** Each instantiator's record; an instantiator built by class-transformer has its description instead. */
const records = new WeakMap<Instantiator, InstantiatorRecord | string>();

const NO_NESTED: readonly Instantiator[] = Object.freeze([]);
const NO_KEYS: readonly string[] = Object.freeze([]);
const NO_BUILDERS: readonly ValueBuilder[] = Object.freeze([]);

/** The builder of `key` in `record` (`undefined`: its value is assigned as it is). */
function builderOf(record: InstantiatorRecord, key: string): ValueBuilder | undefined {
  const index = record.builtKeys.indexOf(key);
  return index === -1 ? undefined : record.builders[index];
}

/** How an instantiator from {@link instantiatorFor} builds its instance, in words (`toolwright inspect --code`). */
export function describeInstantiator(instantiator: Instantiator): string {
  const record = records.get(instantiator);
  if (record === undefined) return 'not described';
  if (typeof record === 'string') return record;
  const { dto, builtKeys, builders, blocker } = record;
  const built = builtKeys.map(
    (name, index) => `${JSON.stringify(name)} ${builders[index] === toDate ? 'as a Date' : 'built'}`,
  );
  const assigned = `new ${dto.name}(), each key assigned in its order${built.length === 0 ? '' : `; ${built.join(', ')}`}`;
  return blocker === undefined
    ? `${assigned}; or the parsed object adopted as a ${dto.name} when the pipeline owns it`
    : `${assigned} (never adopted: ${blocker})`;
}

export function instantiatorFor(schema: ObjectSchema, dto: Constructor): Instantiator {
  let instantiator = instantiators.get(schema);
  if (!instantiator) {
    instantiator = compile(schema, dto, new Set());
    instantiators.set(schema, instantiator);
  }
  return instantiator;
}

/**
 * The record of an instantiator from {@link instantiatorFor} (what the hot tier emits its code from and sets its
 * `own` code in: `compile/hot-instantiate.ts`); its description instead for one built by class-transformer.
 */
export function instantiatorRecord(instantiator: Instantiator): InstantiatorRecord | string | undefined {
  return records.get(instantiator);
}

function byClassTransformer(dto: Constructor, reason: string): Instantiator {
  const instantiator = transformerInstantiator(dto);
  records.set(instantiator, `plainToInstance(${dto.name}) (${reason})`);
  return instantiator;
}

// The functions below return their closures as expressions, never through a named `const`: the bundle's `keepNames`
// (packages/core/scripts/bundle.mjs) gives a closure stored in a named binding its name as an own property, which costs
// every closure a property array (decision 0033, amended 2026-11-27). Nothing reads these closures' names.

function transformerInstantiator(dto: Constructor): Instantiator {
  return (plain) => plainToInstance(dto, plain, { enableImplicitConversion: false }) as object;
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as hasOwnProperty.call(object, key)
const hasOwnProperty = Object.prototype.hasOwnProperty;
// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as functionSource.call(constructor)
const functionSource = Function.prototype.toString;
const getPrototypeOf = Object.getPrototypeOf;
const setPrototypeOf = Object.setPrototypeOf;
const isArray = Array.isArray;

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
  const builtKeys: string[] = [];
  const builders: ValueBuilder[] = [];
  const nestedInstantiators: Instantiator[] = [];
  for (const property of schema.properties) {
    const builder = dateProperties.has(property.name)
      ? toDate
      : valueBuilder(property.schema, compiling, nestedInstantiators);
    if (builder === undefined) continue;
    builtKeys.push(property.name);
    builders.push(builder);
  }
  compiling.delete(schema);
  const record: InstantiatorRecord = {
    dto,
    schema,
    builtKeys: builtKeys.length === 0 ? NO_KEYS : builtKeys.slice(),
    builders: builders.length === 0 ? NO_BUILDERS : builders.slice(),
    nested: nestedInstantiators.length === 0 ? NO_NESTED : [...nestedInstantiators],
    blocker: adoptionBlocker(dto, names),
    own: undefined,
  };
  const instantiator = sharedInstantiator(record);
  records.set(instantiator, record);
  return instantiator;
}

/**
 * The shared builder of one class, reading its record on each call: the closure keeps only the record (a context of
 * one slot, not one per field read: about 40 bytes less per class).
 */
function sharedInstantiator(record: InstantiatorRecord): Instantiator {
  return (plain, owned = false) => {
    // A hot tool's class builds with code of its own (decision 0031, amended).
    const own = record.own;
    if (own !== undefined) return own(plain, owned);
    const builtKeys = record.builtKeys;
    if (owned && record.blocker === undefined) {
      // Adopted: the values that are built replace their plain value under the same key (its place stays).
      const builders = record.builders;
      for (let index = 0; index < builtKeys.length; index++) {
        const key = builtKeys[index]!;
        if (!hasOwnProperty.call(plain, key)) continue;
        const value = plain[key];
        if (value !== null && value !== undefined) plain[key] = builders[index]!(value, true);
      }
      return setPrototypeOf(plain, record.dto.prototype as object) as object;
    }
    const instance = new record.dto() as Record<string, unknown>;
    // `for...in` with `hasOwnProperty.call` visits the own enumerable keys in `Object.keys` order without the array.
    for (const key in plain) {
      if (!hasOwnProperty.call(plain, key)) continue;
      const value = plain[key];
      const build = builtKeys.length === 0 ? undefined : builderOf(record, key);
      instance[key] = build === undefined || value === null || value === undefined ? value : build(value, owned);
    }
    return instance;
  };
}

/**
 * Why `dto` may not adopt a plain object as its instance, or `undefined` when adopting is provably what constructing
 * and assigning would give: every class of its chain is class syntax with no constructor of its own and no private
 * name (its source says neither `constructor` nor `#`), so constructing runs at most the field initializers; one
 * construction makes an extensible object of `dto.prototype` with no own key (no field is declared: with
 * `useDefineForClassFields`, a declared field is an own key even without an initializer); and no property is an
 * accessor or read-only anywhere on the prototype chain (assigning would call the setter, or fail, where the adopted
 * object keeps its own value).
 */
function adoptionBlocker(dto: Constructor, names: readonly string[]): string | undefined {
  for (let current: unknown = dto; current !== Function.prototype; current = getPrototypeOf(current)) {
    if (typeof current !== 'function') return `${dto.name} extends something that is not a class`;
    const source = functionSource.call(current);
    const name = (current as { name?: unknown }).name;
    if (!source.startsWith('class')) return `${String(name)} is not class syntax`;
    if (source.includes('constructor')) return `${String(name)} may have a constructor of its own`;
    if (source.includes('#')) return `${String(name)} may have private fields`;
  }
  let instance: object;
  try {
    instance = new dto() as object;
  } catch {
    return `new ${dto.name}() throws`;
  }
  if (
    getPrototypeOf(instance) !== dto.prototype ||
    !Object.isExtensible(instance) ||
    Reflect.ownKeys(instance).length > 0
  )
    return `new ${dto.name}() makes own fields`;
  for (const name of names) {
    for (let holder: unknown = dto.prototype; holder !== null; holder = getPrototypeOf(holder)) {
      const descriptor = Object.getOwnPropertyDescriptor(holder, name);
      if (descriptor === undefined) continue;
      if (descriptor.get !== undefined || descriptor.set !== undefined || descriptor.writable !== true)
        return `${JSON.stringify(name)} is an accessor or read-only on its prototype chain`;
      break;
    }
  }
  return undefined;
}

/** A property's builder (`undefined`: its value is assigned as it is); each nested DTO's instantiator goes to `nested`. */
function valueBuilder(
  schema: ParamSchema,
  compiling: Set<ObjectSchema>,
  nestedInstantiators: Instantiator[],
): ValueBuilder | undefined {
  if (schema.kind === 'object' && schema.dto) {
    const nested = compile(schema, schema.dto, compiling);
    nestedInstantiators.push(nested);
    return (value, owned) =>
      typeof value === 'object' && !isArray(value) ? nested(value as Record<string, unknown>, owned) : value;
  }
  if (schema.kind === 'array') {
    const item = valueBuilder(schema.items, compiling, nestedInstantiators);
    if (item === undefined) return undefined;
    return arrayBuilder(item);
  }
  return undefined;
}

/** An array's builder from its items' builder (`null` and `undefined` items are kept as they are). */
function arrayBuilder(item: ValueBuilder): ValueBuilder {
  return (value, owned) => {
    if (!isArray(value)) return value;
    if (!owned) return value.map((entry) => (entry === null || entry === undefined ? entry : item(entry, false)));
    // The pipeline's own array (JSON.parse's: no holes) is filled in place.
    for (let index = 0; index < value.length; index++) {
      const entry: unknown = value[index];
      if (entry !== null && entry !== undefined) value[index] = item(entry, true);
    }
    return value;
  };
}

function toDate(value: unknown): unknown {
  return typeof value === 'string' ? new Date(value) : value;
}
