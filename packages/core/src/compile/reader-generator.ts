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

/** Shared by every generated reader: the text (`s`), its reading position (`i`), the order flag and the scalar readers. */
const PRELUDE =
  'let s="",i=0,d=true;' +
  // A string literal without escapes or control characters (JSON.parse refuses a raw one below U+0020).
  'function str(){if(s.charCodeAt(i)!==34)return F;const a=++i;' +
  'for(;;){const c=s.charCodeAt(i);if(c===34)break;if(c<32||c===92||c!==c)return F;i++;}return s.slice(a,i++);}' +
  // An integer literal of at most 15 digits, no leading zero (`-0` is -0, as JSON.parse reads it).
  'function int(){let c=s.charCodeAt(i),g=false;if(c===45){g=true;c=s.charCodeAt(++i);}' +
  'if(c===48){c=s.charCodeAt(++i);if(c>=48&&c<=57||c===46||c===101||c===69)return F;return g?-0:0;}' +
  `const a=i;let v=0;while(c>=48&&c<=57){v=v*10+(c-48);c=s.charCodeAt(++i);}` +
  `if(i===a||i-a>${MAX_DIGITS}||c===46||c===101||c===69)return F;return g?-v:v;}` +
  'function bool(){const c=s.charCodeAt(i);' +
  'if(c===116&&s.charCodeAt(i+1)===114&&s.charCodeAt(i+2)===117&&s.charCodeAt(i+3)===101){i+=4;return true;}' +
  'if(c===102&&s.charCodeAt(i+1)===97&&s.charCodeAt(i+2)===108&&s.charCodeAt(i+3)===115&&s.charCodeAt(i+4)===101){i+=5;return false;}' +
  'return F;}' +
  'function nul(){if(s.charCodeAt(i)===110&&s.charCodeAt(i+1)===117&&s.charCodeAt(i+2)===108&&s.charCodeAt(i+3)===108){i+=4;return true;}return false;}';

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
    return compileFunction<ArgumentReader>(source, { F: Object.freeze({}), k: this.constantsArray() });
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
    return schema.nullable ? `if(s.charCodeAt(i)===110)return nul()?null:F;${value}` : value;
  }

  private nonNull(schema: Exclude<ParamSchema, { kind: 'union' | 'any' }>, depth: number): string {
    switch (schema.kind) {
      case 'string':
        return `const v=str();if(v===F)return F;${this.stringConstraints(schema, 'v')}${this.enumCheck(schema, 'v')}return v;`;
      case 'date':
      case 'datetime':
        return `const v=str();if(v===F)return F;${this.dateCheck(schema, 'v')}${this.enumCheck(schema, 'v')}return v;`;
      // An integer literal of at most 15 digits is a safe integer (and a finite number for a float node).
      case 'int':
      case 'float':
        return `const v=int();if(v===F)return F;${this.numberConstraints(schema, 'v')}${this.enumCheck(schema, 'v')}return v;`;
      case 'bool':
        return `const v=bool();if(v===F)return F;${this.enumCheck(schema, 'v')}return v;`;
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        throw new Unsupported();
    }
  }

  private array(schema: ArraySchema, depth: number): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return FAIL;
    this.visiting.add(schema);
    const item = this.reader(schema.items, depth + 1);
    this.visiting.delete(schema);
    return (
      'if(s.charCodeAt(i)!==91)return F;i++;const a=[];' +
      'if(s.charCodeAt(i)===93)i++;else ' +
      `for(;;){if(a.length>=${this.limits.maxArrayItems})return F;const v=${item}();if(v===F)return F;a.push(v);` +
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
      const item = this.reader(property.schema, depth + 1);
      // The text from the key's first character: `name":` (i is at the opening quote).
      const literal = `${property.name}":`;
      const rest = Array.from({ length: literal.length - 1 }, (_, offset) => {
        return `s.charCodeAt(i+${offset + 2})===${literal.charCodeAt(offset + 1)}`;
      }).join('&&');
      const read =
        `{i+=${literal.length + 1};if((${mask}&${bit})!==0)return F;${mask}|=${bit};if(l>${position})d=false;l=${position};` +
        `const v=${item}();if(v===F)return F;o[${stringLiteral(property.name)}]=v;${requiredFromModel ? 'n++;' : ''}}`;
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
