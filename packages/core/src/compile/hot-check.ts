import { constraintHolds } from '../pipeline/constraints';
import type { FormatRule } from '../rules/format';
import { lengthWithin } from '../rules/string';
import { numberWithin } from '../rules/number';
import { listedMemberSource } from '../rules/enum';
import { isInteger } from '../rules/integer';
import { minNumberLength, NOT_ACCEPTED } from '../pipeline/information-loss';
import { beyondSafeInteger } from '../pipeline/json-text-rules';
import { Kind, memberList, type CheckNode } from './check-records';

/**
 * The hot tier's code (docs/decisions/0031-hot-tier.md): one tool's canonical check as a function of its own, emitted from the same
 * {@link CheckNode} records the shared walk reads. Each node kind's code is one template below; the records' data
 * (constraints, enum values, date forms, the item limit) are passed in as arguments of the generated function, never
 * written into its text, so every constraint is called through its one definition (`pipeline/constraints.ts`) from one
 * call site per tool, which V8 can inline. Property names are written as JSON string literals (the `case` labels of a
 * switch); the tool's name only as printable ASCII in a comment and as `[A-Za-z0-9._-]` in the `sourceURL`.
 *
 * It answers what the walk answers: {@link NOT_ACCEPTED}, or the value's share of the text-length bound (`NaN` past
 * 2^53), and sets the check's count of keys and strings (`CanonicalCheck.keysAndStrings`).
 */

/**
 * The check with what the parse step needs to know whether JSON.parse lost anything (the information-loss walk, folded into
 * this one): `NOT_ACCEPTED` for `false`; otherwise the value's `minTextLength` (the lower bound of the length of
 * any JSON text that JSON.parse reads as this value, exactly as `inspectParsedValue` counts it; escapes only lengthen a
 * literal), or `NaN` when the value holds a number beyond +-(2^53 - 1) (an integer literal JSON.parse may have rounded:
 * the parse step's own checks decide). An accepted value has no prototype key, no array beyond the item limit and no
 * container beyond the depth limit, so the walk's other facts are known.
 */
export type BoundedAcceptFunction = (value: unknown) => number;

/** The helpers every generated check takes, by the names its source uses. */
const HELPERS = {
  NA: NOT_ACCEPTED,
  minNumberLength,
  beyondSafeInteger,
  lengthWithin,
  numberWithin,
  isSafeInteger: isInteger,
  isFinite: Number.isFinite,
  isArray: Array.isArray,
  getPrototypeOf: Object.getPrototypeOf,
  OBJECT_PROTOTYPE: Object.prototype,
} as const;

/**
 * Generated code of the hot tier (a tool's check, a class's builder): its source and the values bound to the source's
 * free names, in order. A hot check's first name, `done`, is bound when it is compiled.
 */
export interface HotSource {
  readonly source: string;
  readonly names: readonly string[];
  readonly values: readonly unknown[];
}

/** Emits the source of one tool's hot check from its records. */
export function hotCheckSource(root: CheckNode, maxArrayItems: number, tool: string): HotSource {
  const emitter = new Emitter();
  const maxItems = emitter.bind('MAX_ITEMS', maxArrayItems);
  emitter.maxItems = maxItems;
  const body = emitter.value(root, 'v', '  ');
  const lines = [
    `// toolwright: hot check of ${printableName(tool)}`,
    '"use strict";',
    'let q = 0;',
    ...emitter.functions,
    'return function hotCheck(v) {',
    '  q = 0;',
    '  let s;',
    ...body,
    '  done(q);',
    '  return s;',
    '};',
    `//# sourceURL=toolwright/hot/${urlText(tool)}.js`,
  ];
  return {
    source: lines.join('\n'),
    names: ['done', ...Object.keys(HELPERS), ...emitter.names],
    values: [...Object.values(HELPERS), ...emitter.values],
  };
}

/**
 * Compiles generated code (`new Function` over the source, called once with `leading` and then the bound values): the
 * one place the hot tier turns source into a function.
 */
export function compileHotSource<F>(code: HotSource, ...leading: unknown[]): F {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is emitted from records; data is bound
  const factory = new Function(...code.names, code.source) as (...values: unknown[]) => F;
  return factory(...leading, ...code.values);
}

/** Compiles a tool's hot check; `counted.keysAndStrings` receives the count of keys and strings of each value. */
export function compileHotCheck(code: HotSource, counted: { keysAndStrings: number }): BoundedAcceptFunction {
  return compileHotSource<BoundedAcceptFunction>(code, (count: number) => {
    counted.keysAndStrings = count;
  });
}

class Emitter {
  readonly names: string[] = [];
  readonly values: unknown[] = [];
  readonly functions: string[] = [];
  maxItems = '';
  private readonly containers = new Map<CheckNode, string>();

  /** A free name of the source for `value`. */
  bind(prefix: string, value: unknown): string {
    const name = `${prefix}${this.values.length}`;
    this.names.push(name);
    this.values.push(value);
    return name;
  }

  /**
   * The statements that set `s` to the share of the value in variable `x` for `node`, or return {@link NOT_ACCEPTED}
   * (the walk's `share`: `null` first, then the node's kind).
   */
  value(node: CheckNode, x: string, indent: string): string[] {
    if (node.kind === Kind.Refuse) return [`${indent}return NA;`];
    const code = node.kind === Kind.Object || node.kind === Kind.Array ? this.container(node, x) : this.scalar(node, x);
    // Every kind's type test refuses `null`; a nullable node takes it first.
    if (!node.nullable) return code.map((line) => indent + line);
    return [
      `${indent}if (${x} === null) s = 4;`,
      `${indent}else {`,
      ...code.map((line) => `${indent}  ${line}`),
      `${indent}}`,
    ];
  }

  private container(node: CheckNode, x: string): string[] {
    let name = this.containers.get(node);
    if (name === undefined) {
      name = `${node.kind === Kind.Object ? 'object' : 'array'}${this.containers.size}`;
      this.containers.set(node, name);
      this.functions.push(...(node.kind === Kind.Object ? this.object(node, name) : this.array(node, name)));
    }
    return [`s = ${name}(${x});`, 'if (s === NA) return NA;'];
  }

  private scalar(node: CheckNode, x: string): string[] {
    const lines: string[] = [];
    switch (node.kind) {
      case Kind.String:
      case Kind.Date:
        lines.push(`if (typeof ${x} !== 'string') return NA;`);
        if (node.dateForm !== undefined) lines.push(`if (!${this.bind('dateForm', node.dateForm)}(${x})) return NA;`);
        lines.push(...this.bounds(node, 'lengthWithin', x), ...this.passes(node, x), 'q++;', `s = ${x}.length + 2;`);
        break;
      case Kind.Int:
        lines.push(
          `if (!isSafeInteger(${x})) return NA;`,
          ...this.bounds(node, 'numberWithin', x),
          ...this.passes(node, x),
          `s = minNumberLength(${x});`,
        );
        break;
      case Kind.Float:
        lines.push(
          `if (!isFinite(${x})) return NA;`,
          ...this.bounds(node, 'numberWithin', x),
          ...this.passes(node, x),
          `s = beyondSafeInteger(${x}) ? NaN : minNumberLength(${x});`,
        );
        break;
      default:
        lines.push(`if (typeof ${x} !== 'boolean') return NA;`, ...this.passes(node, x), `s = ${x} ? 4 : 5;`);
        break;
    }
    return lines;
  }

  /** The node's plain bounds, when it states one, checked by their definition (the walk's, from the same fields). */
  private bounds(node: CheckNode, within: 'lengthWithin' | 'numberWithin', x: string): string[] {
    if (node.lower === undefined && node.upper === undefined) return [];
    const count = within === 'lengthWithin' ? `, ${this.bind('count', node.count)}` : '';
    return [
      `if (!${within}(${x}, ${this.bind('lower', node.lower)}, ${this.bind('upper', node.upper)}${count})) return NA;`,
    ];
  }

  /** The node's other constraints (one call site each), then a scalar's enum: the walk's `passes`. */
  private passes(node: CheckNode, x: string): string[] {
    const lines = node.constraints.map((constraint) =>
      // A format's record holds its rule: its test is bound as it is (the value is a string: the kind's test ran).
      constraint.rule === 'format'
        ? `if (!${this.bind('format', (constraint.limit as FormatRule).test)}(${x})) return NA;`
        : `if (!${this.bind('constraint', (value: unknown) => constraintHolds(constraint, value))}(${x})) return NA;`,
    );
    if (node.listedEnum !== undefined) {
      const members = node.listedEnum.map((value) => this.bind('member', value));
      lines.push(`if (!(${listedMemberSource(x, members)})) return NA;`);
    }
    if (node.enumSet !== undefined) lines.push(`if (!${this.bind('members', node.enumSet)}.has(${x})) return NA;`);
    return lines;
  }

  private object(node: CheckNode, name: string): string[] {
    const cases: string[] = [];
    for (const property of memberList(node)) {
      cases.push(
        `      case ${JSON.stringify(property.name)}: {`,
        '        const x = v[k];',
        ...this.value(property.node, 'x', '        '),
        `        b += ${property.name.length + 4} + s;`,
        ...(property.required ? ['        r++;'] : []),
        '        break;',
        '      }',
      );
    }
    return [
      `function ${name}(v) {`,
      "  if (typeof v !== 'object' || v === null || getPrototypeOf(v) !== OBJECT_PROTOTYPE) return NA;",
      '  let b = 1, m = 0, r = 0, s;',
      '  for (const k in v) {',
      '    switch (k) {',
      ...cases,
      '      default:',
      '        return NA;',
      '    }',
      '    q++;',
      '    m++;',
      '  }',
      `  if (r !== ${node.required}) return NA;`,
      '  if (m === 0) b++;',
      ...this.passes(node, 'v').map((line) => `  ${line}`),
      '  return b;',
      '}',
    ];
  }

  private array(node: CheckNode, name: string): string[] {
    return [
      `function ${name}(v) {`,
      `  if (!isArray(v) || v.length > ${this.maxItems}) return NA;`,
      ...this.bounds(node, 'numberWithin', 'v.length').map((line) => `  ${line}`),
      '  let b = v.length === 0 ? 2 : v.length + 1, s;',
      '  for (let i = 0; i < v.length; i++) {',
      '    const x = v[i];',
      ...this.value(node.items!, 'x', '    '),
      '    b += s;',
      '  }',
      ...this.passes(node, 'v').map((line) => `  ${line}`),
      '  return b;',
      '}',
    ];
  }
}

/** A tool name as one line of printable ASCII (a remote MCP tool's name is untrusted). */
export function printableName(tool: string): string {
  return tool.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

/** A tool name as the file name of a `sourceURL`. */
export function urlText(tool: string): string {
  return tool.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200);
}
