import type { PipelineLimits } from '../pipeline/limits';
import type { ArraySchema, ObjectSchema, ParamSchema } from '../types/schema';
import { acceptableKey, ConstraintCode, stringLiteral, type OrderFact } from './accept-generator';
import { compileFunction } from './compile-function';

/**
 * A tool's generated checked reader of its arguments text (decision 0023): for compact JSON text of the tool's shape
 * whose value the canonical check accepts, exactly the value JSON.parse returns (the same keys in the same order, the
 * same strings and numbers, `-0` included, plain objects and arrays); `undefined` for anything else, where the parse
 * step runs as it did without it. The canonical check's conditions are read along the way (the same generated
 * constraint code), so a value it returns is one the check accepts. It refuses (answers `undefined`) on any white
 * space, a backslash or a control character in a string, a key the schema does not declare (or the canonical check
 * never accepts) and a key written twice in one object, a number that is not an integer of at most 15 digits without a
 * leading zero, a value of another JSON type than its node's, a container beyond the depth or item limit, and text
 * after the top-level object. So a value it returns lost nothing: no duplicate key was dropped and no integer rounded.
 */
export type ArgumentReader = (text: string) => Record<string, unknown> | undefined;

/** Gives up on schemas whose generated code would be larger than this (JSON.parse serves them). */
const MAX_GENERATED_CHARACTERS = 200_000;
/** Keys tracked per mask variable (bits of a small integer). */
const KEYS_PER_MASK = 30;
/** Digits of the longest integer literal read (any integer of 15 digits is exact in a double). */
const MAX_DIGITS = 15;

/** The generated failure: every reading function returns the sentinel `F` (never a JSON value). */
const FAIL = 'return F;';

/** An array index as a property name: objects list such keys first, in numeric order, whatever the text's order. */
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** Characters JSON writes only with an escape: a key holding one is never read (its text has a backslash). */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/**
 * Where the scalar readers below leave the position after what they read (calls never overlap: every reader runs
 * synchronously to its end). One for all generated readers: the scalar readers are shared, not generated per tool.
 */
const END = new Int32Array(1);

/** JSON's `"` `\\` `-` `0` `9` `.` `e` `E`, by code. */
const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;
const POINT = 46;
const LOWER_E = 101;
const UPPER_E = 69;

/**
 * A string literal at `at` without escapes or raw control characters (JSON.parse refuses a raw one below U+0020):
 * its value, with {@link END} after the closing quote; `undefined` for anything else.
 */
export function readPlainString(text: string, at: number): string | undefined {
  if (text.charCodeAt(at) !== QUOTE) return undefined;
  const start = at + 1;
  for (let index = start; ; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      END[0] = index + 1;
      return text.slice(start, index);
    }
    // (`code !== code`: NaN, the end of the text.)
    if (code < 32 || code === BACKSLASH || code !== code) return undefined;
  }
}

/**
 * An integer literal at `at` of at most 15 digits without a leading zero, not followed by a fraction or an exponent:
 * its value (`-0` for `-0`, as JSON.parse reads it; any such integer is exact in a double), with {@link END} after it;
 * `undefined` for anything else.
 */
export function readShortInteger(text: string, at: number): number | undefined {
  let index = at;
  let code = text.charCodeAt(index);
  const negative = code === MINUS;
  if (negative) code = text.charCodeAt(++index);
  let value = 0;
  if (code === ZERO) {
    code = text.charCodeAt(++index);
    if ((code >= ZERO && code <= NINE) || code === POINT || code === LOWER_E || code === UPPER_E) return undefined;
  } else {
    const first = index;
    while (code >= ZERO && code <= NINE) {
      value = value * 10 + (code - ZERO);
      code = text.charCodeAt(++index);
    }
    if (index === first || index - first > MAX_DIGITS || code === POINT || code === LOWER_E || code === UPPER_E)
      return undefined;
  }
  END[0] = index;
  return negative ? -value : value;
}

/** `true` or `false` at `at`, with {@link END} after it; `undefined` for anything else. */
export function readBoolean(text: string, at: number): boolean | undefined {
  const code = text.charCodeAt(at);
  if (code === 116 && text.startsWith('rue', at + 1)) {
    END[0] = at + 4;
    return true;
  }
  if (code === 102 && text.startsWith('alse', at + 1)) {
    END[0] = at + 5;
    return false;
  }
  return undefined;
}

/** Whether `null` is at `at`. */
export function isNullAt(text: string, at: number): boolean {
  return text.charCodeAt(at) === 110 && text.startsWith('ull', at + 1);
}

/** What a generated reading function returns when it refuses (never a JSON value; one for all readers). */
const FAILED = Object.freeze({});

/** Shared by every generated reader: the text (`s`), its reading position (`i`) and the order flag (`d`). */
const PRELUDE = 'let s="",i=0,d=true;';

class Unsupported extends Error {}

class Generator extends ConstraintCode {
  private readonly functions: string[] = [];
  private readonly visiting = new Set<ParamSchema>();

  constructor(
    private readonly limits: PipelineLimits,
    private readonly order: OrderFact | undefined,
  ) {
    super(FAIL);
  }

  build(schema: ObjectSchema): ArgumentReader | undefined {
    const root = this.reader(schema, 1);
    const order = this.order === undefined ? '' : `${this.constant(this.order)}.root=d?v:undefined;`;
    const source =
      `"use strict";${PRELUDE}${this.functions.join('')}` +
      `return function read(t){s=t;i=0;d=true;const v=${root}();s="";if(v===F||i!==t.length)return undefined;${order}return v;};`;
    if (source.length > MAX_GENERATED_CHARACTERS) return undefined;
    return compileFunction<ArgumentReader>(source, {
      F: FAILED,
      k: this.constantsArray(),
      E: END,
      S: readPlainString,
      N: readShortInteger,
      B: readBoolean,
      Z: isNullAt,
    });
  }

  /** The name of a generated function that reads one value of `schema` at `i` (or returns `F`). */
  private reader(schema: ParamSchema, depth: number): string {
    const name = `r${this.functions.length}`;
    const index = this.functions.push('') - 1;
    this.functions[index] = `function ${name}(){${this.body(schema, depth)}}`;
    return name;
  }

  private body(schema: ParamSchema, depth: number): string {
    // The canonical check refuses these nodes: so does the reader.
    if (schema.kind === 'union' || schema.kind === 'any') return FAIL;
    const value = this.nonNull(schema, depth);
    // `null` where the schema admits it; anywhere else the check refuses it.
    return schema.nullable ? `if(s.charCodeAt(i)===110){if(!Z(s,i))return F;i+=4;return null;}${value}` : value;
  }

  private nonNull(schema: Exclude<ParamSchema, { kind: 'union' | 'any' }>, depth: number): string {
    switch (schema.kind) {
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        return `${this.scalar(schema, 'v')}return v;`;
    }
  }

  /**
   * Statements that read one value of `schema` at `i` into a new constant `target`, or leave the enclosing reading
   * function with `F` (every one returns `F` on failure). A scalar that cannot be `null` is read in place (fewer
   * functions: less memory per tool, fewer calls); anything else through its own function.
   */
  private valueInto(schema: ParamSchema, depth: number, target: string): string {
    if (
      !schema.nullable &&
      schema.kind !== 'array' &&
      schema.kind !== 'object' &&
      schema.kind !== 'union' &&
      schema.kind !== 'any'
    )
      return this.scalar(schema, target);
    return `const ${target}=${this.reader(schema, depth)}();if(${target}===F)return F;`;
  }

  /** A shared scalar reader's call: its value in a new constant `target` and `i` after it, or `return F`. */
  private read(reader: 'S' | 'N' | 'B', target: string): string {
    return `const ${target}=${reader}(s,i);if(${target}===undefined)return F;i=E[0];`;
  }

  /** A scalar read into a new constant `target` with its checks, or `return F`. */
  private scalar(schema: ParamSchema, target: string): string {
    switch (schema.kind) {
      case 'string':
        return `${this.read('S', target)}${this.stringConstraints(schema, target)}${this.enumCheck(schema, target)}`;
      case 'date':
      case 'datetime':
        return `${this.read('S', target)}${this.dateCheck(schema, target)}${this.enumCheck(schema, target)}`;
      // An integer literal of at most 15 digits is a safe integer (and a finite number for a float node).
      case 'int':
      case 'float':
        return `${this.read('N', target)}${this.numberConstraints(schema, target)}${this.enumCheck(schema, target)}`;
      case 'bool':
        return `${this.read('B', target)}${this.enumCheck(schema, target)}`;
      default:
        throw new Unsupported();
    }
  }

  private array(schema: ArraySchema, depth: number): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return FAIL;
    this.visiting.add(schema);
    const item = this.valueInto(schema.items, depth + 1, 'v');
    this.visiting.delete(schema);
    return (
      'if(s.charCodeAt(i)!==91)return F;i++;const a=[];' +
      'if(s.charCodeAt(i)===93)i++;else ' +
      `for(;;){if(a.length>=${this.limits.maxArrayItems})return F;${item}a.push(v);` +
      'const c=s.charCodeAt(i++);if(c===93)break;if(c!==44)return F;}' +
      `${this.containerConstraints(schema, 'a')}return a;`
    );
  }

  private object(schema: ObjectSchema, depth: number): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return FAIL;
    this.visiting.add(schema);
    let declared = 0;
    let required = 0;
    // Objects list array-index keys first whatever the text's order, and the canonical check's order flag follows the
    // object's order: an object of such a node never counts as in order (the flag's safe answer).
    let indexKeys = false;
    // The keys read, by the code of their first character: the test of the rest of `name":` and what follows it.
    const byFirst = new Map<number, string[]>();
    for (const [position, property] of schema.properties.entries()) {
      // Keys the canonical check never accepts as they are (context fields, the prototype keys, impostor names) are
      // not read: a text with one goes the old way. So no generated assignment ever writes `__proto__`. Nor does it
      // assign a name Object.prototype has (`toString`, ...): a frozen or altered prototype could refuse or intercept
      // it. A name JSON writes only with an escape (a quote, a backslash, a control character) never matches raw text.
      // (The registry refuses names Object.prototype has; this holds without it.) A required key the reader does not
      // read still counts: a text without it is refused as the check refuses it, a text with it is not read.
      if (!acceptableKey(property)) continue;
      const requiredFromModel = property.required && !property.extract;
      if (requiredFromModel) required++;
      if (property.name in Object.prototype || NEEDS_ESCAPE.test(property.name)) continue;
      if (ARRAY_INDEX.test(property.name)) indexKeys = true;
      const mask = `m${Math.floor(declared / KEYS_PER_MASK)}`;
      const bit = 1 << (declared % KEYS_PER_MASK);
      declared++;
      const item = this.valueInto(property.schema, depth + 1, 'v');
      // The text from the key's first character: `name":` (i is at the opening quote).
      const literal = `${property.name}":`;
      const rest = Array.from({ length: literal.length - 1 }, (_, offset) => {
        return `s.charCodeAt(i+${offset + 2})===${literal.charCodeAt(offset + 1)}`;
      }).join('&&');
      const read =
        `{i+=${literal.length + 1};if((${mask}&${bit})!==0)return F;${mask}|=${bit};if(l>${position})d=false;l=${position};` +
        `${item}o[${stringLiteral(property.name)}]=v;${requiredFromModel ? 'n++;' : ''}}`;
      const first = literal.charCodeAt(0);
      const tests = byFirst.get(first) ?? [];
      tests.push(`if(${rest})${read}else `);
      byFirst.set(first, tests);
    }
    this.visiting.delete(schema);
    let cases = '';
    for (const [first, tests] of byFirst) cases += `case ${first}:${tests.join('')}return F;break;`;
    const masks = Array.from({ length: Math.ceil(declared / KEYS_PER_MASK) }, (_, index) => `,m${index}=0`).join('');
    return (
      `if(s.charCodeAt(i)!==123)return F;i++;const o={};let n=0,l=-1${masks};${indexKeys ? 'd=false;' : ''}` +
      'if(s.charCodeAt(i)===125)i++;else ' +
      `for(;;){if(s.charCodeAt(i)!==34)return F;switch(s.charCodeAt(i+1)){${cases}default:return F;}` +
      'const c=s.charCodeAt(i++);if(c===125)break;if(c!==44)return F;}' +
      `if(n!==${required})return F;${this.containerConstraints(schema, 'o')}return o;`
    );
  }
}

/**
 * The generated checked reader of one tool's arguments for these limits ({@link ArgumentReader}); with `order`, it
 * leaves there, each time it returns a value, whether every object's keys came in declaration order (as the canonical
 * check made with the same fact would). `undefined` when a node kind is not supported, the code would be too large,
 * or code generation is unavailable (then JSON.parse reads every call).
 */
export function generateArgumentReader(
  schema: ObjectSchema,
  limits: PipelineLimits,
  order?: OrderFact,
): ArgumentReader | undefined {
  try {
    return new Generator(limits, order).build(schema);
  } catch {
    return undefined;
  }
}
