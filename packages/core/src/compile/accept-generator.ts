import { constraintChecks } from '../pipeline/constraints';
import { imitatedContextName } from '../pipeline/context-impostors';
import { minNumberLength, NOT_ACCEPTED } from '../pipeline/information-loss';
import { beyondSafeInteger } from '../pipeline/json-text-rules';
import type { PipelineLimits } from '../pipeline/limits';
import { DANGEROUS_KEYS } from '../pipeline/sanitize';
import { isCanonicalDate, isCanonicalDateTime } from '../pipeline/value-rules';
import type { ArraySchema, ObjectSchema, ParamSchema } from '../types/schema';
import { compileFunction } from './compile-function';

/**
 * "Already valid and canonical?" for one tool's arguments, in one pass with no allocation: `true` only when the arguments
 * (parsed from text, so the pipeline's own) would come out of sanitizing, normalizing (with every IR constraint) and the
 * context-impostor scan exactly as they went in, with no transformation, no issue and no security event. Then the
 * executor skips those steps and uses the object as it is; on `false` the normalizer runs as the reference for repairs,
 * transformations and messages.
 *
 * Sound by construction: anything the generator does not model (unions, free-form values, extra keys, aliases,
 * recursion, nodes nested deeper than the depth limit) answers `false` for that node, never `true`.
 */
export type AcceptFunction = (value: unknown) => boolean;

/**
 * The generated form of {@link AcceptFunction}, which also measures what the parse step needs to know whether
 * JSON.parse lost anything (decision 0019's walk, folded into this one): {@link NOT_ACCEPTED} for `false`; otherwise
 * the value's `minTextLength` (the lower bound of the length of any JSON text that JSON.parse reads as this value,
 * exactly as `inspectParsedValue` counts it; escapes only lengthen a literal), or `NaN` when the value holds a number
 * beyond +-(2^53 - 1) (an integer literal JSON.parse may have rounded: the parse step's own checks decide). An accepted
 * value has no prototype key, no array beyond the item limit and no container beyond the depth limit, so the walk's
 * other facts are known.
 */
export type BoundedAcceptFunction = (value: unknown, facts: AcceptedFacts) => number;

/**
 * Where a {@link BoundedAcceptFunction} leaves, when it accepts, the number of keys and strings in the value (slot 0:
 * the walk's `keys + strings`: text without a backslash that lost nothing holds twice as many `"`) and whether the
 * value's keys came in declaration order (slot 1: `1` when every object in it had its keys, as its key loop visits
 * them, in the order its properties are declared; always `0` for a function generated without `trackOrder`).
 * `compile/instantiate-generator.ts`'s in-order instantiator relies on slot 1.
 */
export type AcceptedFacts = Float64Array;

/** The length of an {@link AcceptedFacts} array. */
export const ACCEPTED_FACTS_LENGTH = 2;

export { NOT_ACCEPTED };

/** Gives up on schemas whose generated code would be larger than this (the normalizer serves them). */
const MAX_GENERATED_CHARACTERS = 200_000;

/** `return false`, in the generated code (every refusal of a node). */
const REFUSE = `return ${NOT_ACCEPTED};`;

const REJECT_ALL: BoundedAcceptFunction = () => NOT_ACCEPTED;

/** The facts of the boolean {@link generateAcceptFunction}, which reads none. */
const UNREAD_FACTS: AcceptedFacts = new Float64Array(ACCEPTED_FACTS_LENGTH);

/**
 * A string literal for generated code: JSON's escaping (quotes, backslashes, control characters, lone surrogates) plus
 * the two line terminators JSON leaves as they are. Every schema-controlled text enters generated code through this
 * (property names from a remote MCP schema are untrusted); identifiers are always generated (`v3`, `i2`), never names.
 */
export function stringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The generated accumulator of the bound (one per function; other identifiers are numbered, so it never clashes). */
const BOUND = 'b';
/** The generated count of keys and strings. */
const QUOTED = 'q';
/** The generated "every key so far in declaration order" flag (only when tracking the order). */
const ORDERED = 'd';
/** The generated parameter that receives it. */
const FACTS = 'o';

/** A finite number's share of the bound: {@link minNumberLength}, or `NaN` beyond +-(2^53 - 1). */
function floatLength(value: number): number {
  return beyondSafeInteger(value) ? Number.NaN : minNumberLength(value);
}

/**
 * The checks of one schema node's constraints as generated code: each check runs `refuse` (a statement that leaves the
 * generated function) when the value in the named variable breaks a constraint. Values the
 * checks need (functions, sets, bounds that are not finite literals) go into the constants array `k`.
 */
export class ConstraintCode {
  protected readonly constants: unknown[] = [];
  private variables = 0;

  constructor(protected readonly refuse: string) {}

  constant(value: unknown): string {
    this.constants.push(value);
    return `k[${this.constants.length - 1}]`;
  }

  variable(prefix: string): string {
    return `${prefix}${this.variables++}`;
  }

  /** A copy of the constants of exactly their length (the generated function keeps it for good). */
  constantsArray(): unknown[] {
    return this.constants.slice();
  }

  /** Enum of a scalar: the normalizer keeps a value only when it is one of the allowed values exactly. */
  enumCheck(schema: ParamSchema, value: string): string {
    if (schema.enum === undefined) return '';
    if (schema.enum.length <= 8) {
      const tests = schema.enum.map((allowed) => `${value}===${this.constant(allowed)}`);
      return tests.length === 0 ? this.refuse : `if(!(${tests.join('||')}))${this.refuse}`;
    }
    return `if(!${this.constant(new Set(schema.enum))}.has(${value}))${this.refuse}`;
  }

  /** A date or date-time string's form (the normalizer keeps only the canonical one as it is). */
  dateCheck(schema: ParamSchema & { kind: 'date' | 'datetime' }, value: string): string {
    return `if(!${this.constant(schema.kind === 'date' ? isCanonicalDate : isCanonicalDateTime)}(${value}))${this.refuse}`;
  }

  /**
   * A node's IR constraints (lengths, bounds, patterns, item counts, uniqueness, enums of containers) from their one
   * definition (`pipeline/constraints.ts`): a comparison with a finite bound as its own code, any other rule by calling
   * the normalizer's check itself.
   */
  constraints(schema: ParamSchema, value: string): string {
    let code = '';
    for (const [, check, condition] of constraintChecks(schema))
      code += `if(!${condition === undefined ? `${this.constant(check)}(${value})` : `(${condition(value)})`})${this.refuse}`;
    return code;
  }
}

/**
 * Whether the canonical check may accept a property's key as it is: never a context field, a prototype key
 * (`__proto__`, `constructor`, `prototype`) or a name that imitates a context name (the normalizer drops or reports
 * those even when declared).
 */
export function acceptableKey(property: ObjectSchema['properties'][number]): boolean {
  return !property.context && !DANGEROUS_KEYS.has(property.name) && imitatedContextName(property.name) === undefined;
}

class Generator extends ConstraintCode {
  private readonly visiting = new Set<ParamSchema>();

  constructor(
    private readonly limits: PipelineLimits,
    private readonly trackOrder: boolean,
    private readonly label: string | undefined,
  ) {
    super(REFUSE);
  }

  build(schema: ObjectSchema): BoundedAcceptFunction {
    const root = this.variable('v');
    const order = this.trackOrder;
    const body =
      `let ${BOUND}=0,${QUOTED}=0${order ? `,${ORDERED}=true` : ''};${this.node(schema, root, 1)}` +
      `${FACTS}[0]=${QUOTED};${FACTS}[1]=${order ? `${ORDERED}?1:0` : '0'};return ${BOUND};`;
    if (body.length > MAX_GENERATED_CHARACTERS) return REJECT_ALL;
    const source = `"use strict";return function accept(${root},${FACTS}){${body}};`;
    return compileFunction<BoundedAcceptFunction>(
      source,
      {
        // A copy of exactly its length: the generated function keeps it for good, the grown one has spare room.
        k: this.constantsArray(),
        P: Object.prototype,
        isArray: Array.isArray,
        isSafeInteger: Number.isSafeInteger,
        isFinite: Number.isFinite,
        getPrototypeOf: Object.getPrototypeOf,
        integerLength: minNumberLength,
        floatLength,
      },
      this.label === undefined ? undefined : `accept ${this.label}`,
    );
  }

  /**
   * Statements that `return false` unless the value in variable `value` is accepted for `schema`. `depth` is the
   * container depth the value would have (the arguments object is 1), as the sanitizer counts it.
   */
  node(schema: ParamSchema, value: string, depth: number): string {
    if (schema.kind === 'union' || schema.kind === 'any') return REFUSE;
    const check = this.nonNull(schema, value, depth);
    // `null` takes 4 characters.
    return schema.nullable ? `if(${value}!==null){${check}}else ${BOUND}+=4;` : check;
  }

  private nonNull(schema: Exclude<ParamSchema, { kind: 'union' | 'any' }>, value: string, depth: number): string {
    switch (schema.kind) {
      // Each scalar adds its share of the bound: a string its length and quotes (and one to the count of keys and
      // strings), a number the fewest characters of any literal of it (a safe integer cannot be a rounded one; a number
      // beyond 2^53 makes the bound NaN), `true` 4, `false` 5.
      case 'string':
        return `if(typeof ${value}!=="string")${REFUSE}${this.constraints(schema, value)}${this.enumCheck(schema, value)}${BOUND}+=${value}.length+2;${QUOTED}++;`;
      case 'int':
        return `if(!isSafeInteger(${value}))${REFUSE}${this.constraints(schema, value)}${this.enumCheck(schema, value)}${BOUND}+=integerLength(${value});`;
      case 'float':
        return `if(!isFinite(${value}))${REFUSE}${this.constraints(schema, value)}${this.enumCheck(schema, value)}${BOUND}+=floatLength(${value});`;
      case 'bool':
        return `if(typeof ${value}!=="boolean")${REFUSE}${this.enumCheck(schema, value)}${BOUND}+=${value}?4:5;`;
      case 'date':
      case 'datetime':
        return `if(typeof ${value}!=="string")${REFUSE}${this.dateCheck(schema, value)}${this.enumCheck(schema, value)}${BOUND}+=${value}.length+2;${QUOTED}++;`;
      case 'array':
        return this.array(schema, value, depth);
      case 'object':
        return this.object(schema, value, depth);
    }
  }

  private array(schema: ArraySchema, value: string, depth: number): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return REFUSE;
    this.visiting.add(schema);
    const index = this.variable('i');
    const item = this.variable('v');
    const itemCheck = this.node(schema.items, item, depth + 1);
    this.visiting.delete(schema);
    return (
      `if(!isArray(${value})||${value}.length>${this.limits.maxArrayItems})${REFUSE}` +
      // The brackets and a comma per item, one fewer than items (`[]` is 2).
      `${BOUND}+=${value}.length===0?2:${value}.length+1;` +
      `for(let ${index}=0;${index}<${value}.length;${index}++){const ${item}=${value}[${index}];${itemCheck}}` +
      this.constraints(schema, value)
    );
  }

  private object(schema: ObjectSchema, value: string, depth: number): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return REFUSE;
    this.visiting.add(schema);
    const key = this.variable('key');
    const before = this.variable('b');
    const seen = this.variable('n');
    const last = this.trackOrder ? this.variable('l') : undefined;
    let required = 0;
    let cases = '';
    for (const [position, property] of schema.properties.entries()) {
      // Keys the normalizer would drop or report (context fields, the prototype keys) and names that imitate a context
      // name (the impostor scan reports them even when declared) are never accepted as they are.
      if (!acceptableKey(property)) continue;
      const child = this.variable('v');
      const requiredFromModel = property.required && !property.extract;
      if (requiredFromModel) required++;
      // `null` for a property that is not nullable is refused or dropped as absent: a change either way.
      const check = this.node(property.schema, child, depth + 1);
      const nullCheck =
        property.schema.nullable || property.schema.kind === 'union' || property.schema.kind === 'any'
          ? ''
          : `if(${child}===null)${REFUSE}`;
      // The member's comma (one fewer than members), quotes and colon, and the key (its length is the name's).
      // Tracking the order: a key declared before the one visited last clears the flag.
      const ordered = last === undefined ? '' : `if(${last}>${position})${ORDERED}=false;${last}=${position};`;
      cases += `case ${stringLiteral(property.name)}:{${ordered}${BOUND}+=${property.name.length + 4};${QUOTED}++;const ${child}=${value}[${key}];${nullCheck}${check}${requiredFromModel ? `${seen}++;` : ''}break;}`;
    }
    this.visiting.delete(schema);
    return (
      `if(typeof ${value}!=="object"||${value}===null||getPrototypeOf(${value})!==P)${REFUSE}` +
      // The braces, one comma fewer than members (`{}` is 2: every member adds at least 4).
      `let ${seen}=0;${last === undefined ? '' : `let ${last}=-1;`}${BOUND}++;const ${before}=${BOUND};` +
      `for(const ${key} in ${value}){switch(${key}){${cases}default:${REFUSE}}}` +
      `if(${seen}!==${required})${REFUSE}` +
      `if(${BOUND}===${before})${BOUND}++;` +
      this.constraints(schema, value)
    );
  }
}

/** Generates the accept function of one tool's parameters for these limits; `() => false` if code generation is unavailable. */
export function generateAcceptFunction(schema: ObjectSchema, limits: PipelineLimits): AcceptFunction {
  const accept = generateBoundedAcceptFunction(schema, limits);
  return (value) => accept(value, UNREAD_FACTS) !== NOT_ACCEPTED;
}

/**
 * The generated accept function with the parse step's bound ({@link BoundedAcceptFunction}); `() => NOT_ACCEPTED` if
 * code generation is unavailable. With `trackOrder`, it also leaves whether an accepted value's keys came in
 * declaration order ({@link AcceptedFacts}, slot 1). `label` (the tool's name) names the generated source.
 */
export function generateBoundedAcceptFunction(
  schema: ObjectSchema,
  limits: PipelineLimits,
  trackOrder = false,
  label?: string,
): BoundedAcceptFunction {
  try {
    return new Generator(limits, trackOrder, label).build(schema);
  } catch {
    // Code generation disabled (--disallow-code-generation-from-strings, a CSP) or a schema it cannot read: the
    // normalizer serves every call.
    return REJECT_ALL;
  }
}
