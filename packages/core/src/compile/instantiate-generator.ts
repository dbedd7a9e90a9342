import { getDesignType } from '../metadata/design-metadata';
import { hasClassTransformerCustomizations } from '../metadata/validator-metadata';
import type { Constructor, ObjectSchema, ParamSchema } from '../types/schema';
import { stringLiteral } from './accept-generator';
import { compileFunction } from './compile-function';

/**
 * A class command's DTO instantiation as generated code, one function per DTO node: the same result as the closure
 * instantiator of `pipeline/instantiate.ts` (construct the class so field initializers run; assign every key of the
 * plain object in its order; nested DTOs and arrays of them built; a string turned into a `Date` where the property is
 * typed `Date`), without a `Map` lookup and a closure call per key.
 *
 * `undefined` when the closure instantiator has to serve the schema: a recursive DTO, a class class-transformer
 * customizes (`@Expose`, `@Exclude`, `@Transform`, a discriminated `@Type`; `plainToInstance` builds those), generated
 * code larger than the limit, or a runtime without code generation. Property names enter the code only through
 * `stringLiteral`, as `case` labels; classes are passed in a constants array; identifiers are generated counters.
 */
export type GeneratedInstantiator = (plain: Record<string, unknown>) => object;

/**
 * Both generated forms of one DTO's instantiation. `inOrder` is the same result as `any` for arguments the tool's
 * generated accept function accepted and found in declaration order (every object's keys a subsequence of its
 * declared properties, in their order: slot 1 of `AcceptedFacts`): straight-line assignments, one per declared property, without
 * the key loop. An accepted value holds no `undefined` and only declared keys, so `p[name] !== undefined` is "an own
 * key" unless `Object.prototype` answers for that name: `inOrder` checks that first (every declared name of every node
 * reads `undefined` on it) and otherwise hands the value to `any`.
 */
export interface GeneratedInstantiators {
  readonly any: GeneratedInstantiator;
  readonly inOrder: GeneratedInstantiator;
}

const MAX_GENERATED_CHARACTERS = 100_000;

class GiveUp {}

class InstantiatorGenerator {
  private readonly constants: unknown[] = [];
  private readonly declarations: string[] = [];
  private readonly functions: string[] = [];
  private readonly visiting = new Set<ObjectSchema>();
  /** Every declared property name of every node, as generated literals (the in-order form's guard reads them). */
  private readonly names = new Set<string>();
  private counter = 0;
  private size = 0;

  build(schema: ObjectSchema, dto: Constructor): GeneratedInstantiators {
    const root = this.objectFunction(schema, dto, false);
    const ordered = this.objectFunction(schema, dto, true);
    // The in-order form's guard: no declared name inherited from Object.prototype (then `p[name]` reads own keys only).
    const guard = [...this.names].map((name) => `P[${name}]!==undefined`).join('||');
    const inOrder = this.name('inOrder');
    const entry = `function ${inOrder}(p){return ${guard === '' ? '' : `${guard}?${root}(p):`}${ordered}(p);}`;
    this.size += entry.length;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- GiveUp is a stackless sentinel caught by the generator
    if (this.size > MAX_GENERATED_CHARACTERS) throw new GiveUp();
    const source =
      `"use strict";${this.declarations.join('')}${this.functions.join('')}${entry}` +
      `return {any:${root},inOrder:${inOrder}};`;
    const bindings = {
      // A copy of exactly its length: the generated functions keep it for good, the grown one has spare room.
      k: this.constants.slice(),
      // `hasOwnProperty.call(p, key)` in a for-in loop is a pattern V8 optimizes (Object.hasOwn is not: twice the cost).
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called as hasOwn.call(p, key) by the generated code
      hasOwn: Object.prototype.hasOwnProperty,
      isArray: Array.isArray,
      P: Object.prototype,
    };
    return compileFunction<GeneratedInstantiators>(source, bindings, `instantiate ${dto.name}`);
  }

  private name(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /**
   * Emits the function that builds one DTO node and returns its name: the key loop, or (`inOrder`) one assignment per
   * declared property in declaration order, for a value whose keys came in that order (see `GeneratedInstantiators`).
   */
  private objectFunction(schema: ObjectSchema, dto: Constructor, inOrder: boolean): string {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- GiveUp is a stackless sentinel caught by the generator, never seen outside
    if (this.visiting.has(schema)) throw new GiveUp();
    this.visiting.add(schema);
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
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- GiveUp is a stackless sentinel caught by the generator
    if (hasClassTransformerCustomizations(dto, names, dateProperties)) throw new GiveUp();
    const cases: string[] = [];
    for (const property of schema.properties) {
      const built = dateProperties.has(property.name)
        ? '(typeof v==="string"?new Date(v):v)'
        : this.valueExpression(property.schema, 'v', inOrder);
      // The name as a literal member key too (`key` equals it in this arm): a named store, not a keyed one (a keyed
      // store of many names goes megamorphic), also for the properties assigned as they are.
      const name = stringLiteral(property.name);
      this.names.add(name);
      const assign = built === undefined ? `o[${name}]=v;` : `o[${name}]=v===null||v===undefined?v:${built};`;
      cases.push(inOrder ? `v=p[${name}];if(v!==undefined){${assign}}` : `case ${name}:${assign}break;`);
    }
    this.visiting.delete(schema);
    const fn = this.name('build');
    const body = inOrder
      ? `function ${fn}(p){const o=new ${this.constant(dto)}();let v;${cases.join('')}return o;}`
      : `function ${fn}(p){const o=new ${this.constant(dto)}();` +
        // `Object.keys(p)` without the array: for-in visits own enumerable keys in the same order, then inherited ones,
        // which `hasOwn` skips (about half the cost of a node in a microbenchmark).
        `for(const key in p){if(!hasOwn.call(p,key))continue;const v=p[key];` +
        (cases.length > 0 ? `switch(key){${cases.join('')}default:o[key]=v;}` : 'o[key]=v;') +
        `}return o;}`;
    this.size += body.length;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- GiveUp is a stackless sentinel caught by the generator
    if (this.size > MAX_GENERATED_CHARACTERS) throw new GiveUp();
    this.functions.push(body);
    return fn;
  }

  /** The expression building a non-null `value` of this schema, or `undefined` when it is assigned as it is. */
  private valueExpression(schema: ParamSchema, value: string, inOrder: boolean): string | undefined {
    if (schema.kind === 'object' && schema.dto) {
      const fn = this.objectFunction(schema, schema.dto, inOrder);
      return `(typeof ${value}==="object"&&!isArray(${value})?${fn}(${value}):${value})`;
    }
    if (schema.kind === 'array') {
      const entry = this.name('e');
      const item = this.valueExpression(schema.items, entry, inOrder);
      if (item === undefined) return undefined;
      // One function per array node, declared once (not a closure per call); `map` keeps holes as holes.
      const mapItem = this.name('item');
      const body = `function ${mapItem}(${entry}){return ${entry}===null||${entry}===undefined?${entry}:${item};}`;
      this.size += body.length;
      this.functions.push(body);
      return `(isArray(${value})?${value}.map(${mapItem}):${value})`;
    }
    return undefined;
  }

  /** A constant bound once to a `const` of the factory (the generated functions read a context slot, not `k[i]`). */
  private constant(value: unknown): string {
    const name = this.name('c');
    this.constants.push(value);
    this.declarations.push(`const ${name}=k[${this.constants.length - 1}];`);
    return name;
  }
}

export function generateInstantiator(schema: ObjectSchema, dto: Constructor): GeneratedInstantiator | undefined {
  return generateInstantiators(schema, dto)?.any;
}

/** Both forms (`GeneratedInstantiators`), or `undefined` when the closure instantiator has to serve the schema. */
export function generateInstantiators(schema: ObjectSchema, dto: Constructor): GeneratedInstantiators | undefined {
  try {
    return new InstantiatorGenerator().build(schema, dto);
  } catch (error) {
    // GiveUp, or EvalError under --disallow-code-generation-from-strings: the closure instantiator serves the schema.
    if (error instanceof GiveUp || error instanceof EvalError) return undefined;
    throw error;
  }
}
