import { constraintChecks } from '../pipeline/constraints';
import { imitatedContextName } from '../pipeline/context-impostors';
import type { PipelineLimits } from '../pipeline/limits';
import { issue } from '../pipeline/messages';
import {
  compileNormalizer,
  INVALID,
  requiredPropertyIssue,
  type Normalizer,
  type NormalizeState,
} from '../pipeline/normalizer';
import { DANGEROUS_KEYS } from '../pipeline/sanitize';
import { isCanonicalDate, isCanonicalDateTime } from '../pipeline/value-rules';
import { patternSubjectTooLong } from '../schema/pattern-engine';
import type { ArraySchema, CoercionPolicy, ObjectSchema, ParamSchema, StringSchema } from '../types/schema';
import { lengthWithin, numberLiteral, stringLiteral } from './accept-generator';
import { compileFunction } from './compile-function';

/**
 * The error path of a refused call, generated per tool (as ajv generates its error reporting): when the canonical check
 * says no, this walks the arguments once, pushes the issues the normalizer would push (same objects, same order) into
 * the normalize state, and answers `true` when the call needs nothing else: every key the exact name of a model-visible
 * property, no repair, no transformation, no security event, at least one issue. Then the arguments stay as they are
 * (the normalizer's output would be an equal copy). Anything else answers `false` and the normalizer, still the
 * reference for repairs, transformations and messages, runs from the start (the executor undoes what was pushed).
 *
 * It checks values with the canonical check's own conditions and hands a value that fails them to the normalizer of
 * that schema node (the closure the full normalizer would call on it): a scalar refused there gets the normalizer's own
 * issue; a repair, or a container that is not the expected one, gives up. Paths are joined only for an issue.
 */
export type IssueFinder = (value: Record<string, unknown>, state: NormalizeState) => boolean;

/** Gives up on schemas whose generated code would be larger than this (the normalizer serves them). */
const MAX_GENERATED_CHARACTERS = 200_000;

/** A schema node's normalizer, compiled on the first value handed to it. */
interface Delegate {
  readonly schema: ParamSchema;
  readonly policy: CoercionPolicy;
  normalize: Normalizer | undefined;
}

/**
 * A value the generated checks refused, through its node's normalizer: `true` when that refused it with issues only
 * (or kept it as it is), `false` when it would change it (the whole call then goes through the normalizer).
 */
function delegate(slot: Delegate, value: unknown, path: string, state: NormalizeState): boolean {
  // Containers of the wrong kind (and integer literals beyond 2^53) are the normalizer's: repairs, copies, scans.
  if (typeof value === 'object' && value !== null) return false;
  const normalize = (slot.normalize ??= compileNormalizer(slot.schema, slot.policy, 'all'));
  const transformations = state.transformations.length;
  const events = state.securityEvents.length;
  const result = normalize(value, path, state);
  return (
    (result === INVALID || result === value) &&
    state.transformations.length === transformations &&
    state.securityEvents.length === events
  );
}

/** A path in generated code: a constant (folded at generation) or an expression joined only when an issue needs it. */
interface PathCode {
  readonly constant: string | undefined;
  readonly code: string;
}

const ROOT: PathCode = { constant: '', code: '""' };

function propertyPath(parent: PathCode, name: string): PathCode {
  if (parent.constant !== undefined) {
    const constant = parent.constant === '' ? name : `${parent.constant}.${name}`;
    return { constant, code: stringLiteral(constant) };
  }
  return { constant: undefined, code: `${parent.code}+${stringLiteral(`.${name}`)}` };
}

function itemPath(parent: PathCode, index: string): PathCode {
  return { constant: undefined, code: `${parent.code}+"["+${index}+"]"` };
}

class Generator {
  private readonly constants: unknown[] = [];
  private variables = 0;
  private readonly visiting = new Set<ParamSchema>();

  constructor(private readonly limits: PipelineLimits) {}

  constant(value: unknown): string {
    this.constants.push(value);
    return `k[${this.constants.length - 1}]`;
  }

  variable(prefix: string): string {
    return `${prefix}${this.variables++}`;
  }

  build(schema: ObjectSchema, policy: CoercionPolicy, label: string | undefined): IssueFinder | undefined {
    const root = this.variable('v');
    const body = this.node(schema, root, ROOT, 1, policy);
    if (body.length > MAX_GENERATED_CHARACTERS) return undefined;
    const source = `"use strict";return function findIssues(${root},s){const I=s.issues;${body}return true;};`;
    const bindings = {
      k: this.constants.slice(), // a copy of exactly its length (kept for good)
      P: Object.prototype,
      isArray: Array.isArray,
      isSafeInteger: Number.isSafeInteger,
      isFinite: Number.isFinite,
      getPrototypeOf: Object.getPrototypeOf,
      hasOwn: Object.hasOwn,
      D: delegate,
      issue,
      required: requiredPropertyIssue,
    };
    return compileFunction<IssueFinder>(source, bindings, label === undefined ? undefined : `issues ${label}`);
  }

  /**
   * Statements that check the value in variable `value` for `schema`, push its issues, and `return false` when the call
   * needs the normalizer. `depth` is the container depth the value would have (the arguments object is 1).
   */
  node(schema: ParamSchema, value: string, path: PathCode, depth: number, inherited: CoercionPolicy): string {
    if (schema.kind === 'union' || schema.kind === 'any') return 'return false;';
    const policy = schema.policy ?? inherited;
    const check = this.nonNull(schema, value, path, depth, policy);
    return schema.nullable ? `if(${value}!==null){${check}}` : check;
  }

  /**
   * A scalar: nothing to do when the canonical check's tests pass. Otherwise, for a value of the right type (which the
   * type rule keeps as it is), the normalizer's next steps written out: the enum (a refusal, or a repair of the case when
   * coercing), then the constraints, the first failing one the issue; any other value goes to the node's normalizer.
   */
  private scalar(
    schema: ParamSchema,
    value: string,
    path: PathCode,
    policy: CoercionPolicy,
    typeTest: string,
    canonicalTests: readonly string[],
  ): string {
    const slot = this.constant({ schema, policy, normalize: undefined } satisfies Delegate);
    const enumTests = this.enumTest(schema, value);
    const checks = constraintChecks(schema);
    const delegated = `if(!D(${slot},${value},${path.code},s))return false;`;
    const test = [typeTest, ...canonicalTests, ...enumTests].join('&&');
    // Dates and date-times (rare with an enum, never with constraints) and anything unusual: the normalizer's.
    if (canonicalTests.length > 0 && (schema.kind === 'date' || schema.kind === 'datetime'))
      return `if(!(${test})){${delegated}}`;
    const node = this.constant(schema);
    const branches: string[] = [];
    if (enumTests.length > 0) {
      let repair = '';
      if (policy !== 'strict' && schema.kind === 'string') {
        // matchEnum: a string that matches exactly one allowed string ignoring case and surrounding white space is repaired.
        const lowerCase = new Map<string, number>();
        for (const allowed of schema.enum!)
          if (typeof allowed === 'string')
            lowerCase.set(allowed.toLowerCase(), (lowerCase.get(allowed.toLowerCase()) ?? 0) + 1);
        repair = `if(${this.constant(lowerCase)}.get(${value}.trim().toLowerCase())===1)return false;`;
      }
      branches.push(`if(!(${enumTests.join('&&')})){${repair}I.push(issue(${path.code},"enum",${node},${value}));}`);
    }
    for (const [rule, check] of checks) {
      const detail = rule === 'pattern' ? `,${this.constant(patternSubjectTooLong)}(${path.code},${value})` : '';
      branches.push(
        `if(!${this.constant(check)}(${value}))I.push(issue(${path.code},${stringLiteral(rule)},${node},${value}${detail}));`,
      );
    }
    const refused = branches.length > 0 ? `if(${typeTest}){${branches.join('else ')}}else ${delegated}` : delegated;
    return `if(!(${test})){${refused}}`;
  }

  private nonNull(
    schema: Exclude<ParamSchema, { kind: 'union' | 'any' }>,
    value: string,
    path: PathCode,
    depth: number,
    policy: CoercionPolicy,
  ): string {
    switch (schema.kind) {
      case 'string':
        return this.scalar(
          schema,
          value,
          path,
          policy,
          `typeof ${value}==="string"`,
          this.stringConstraints(schema, value),
        );
      case 'int':
        return this.scalar(
          schema,
          value,
          path,
          policy,
          `isSafeInteger(${value})`,
          this.numberConstraints(schema, value),
        );
      case 'float':
        return this.scalar(schema, value, path, policy, `isFinite(${value})`, this.numberConstraints(schema, value));
      case 'bool':
        return this.scalar(schema, value, path, policy, `typeof ${value}==="boolean"`, []);
      case 'date':
        return this.scalar(schema, value, path, policy, `typeof ${value}==="string"`, [
          `${this.constant(isCanonicalDate)}(${value})`,
        ]);
      case 'datetime':
        return this.scalar(schema, value, path, policy, `typeof ${value}==="string"`, [
          `${this.constant(isCanonicalDateTime)}(${value})`,
        ]);
      case 'array':
        return this.array(schema, value, path, depth, policy);
      case 'object':
        return this.object(schema, value, path, depth, policy);
    }
  }

  /** Enum of a scalar: the normalizer keeps a value as it is only when it is one of the allowed values exactly. */
  private enumTest(schema: ParamSchema, value: string): string[] {
    if (schema.enum === undefined) return [];
    if (schema.enum.length === 0) return ['false'];
    if (schema.enum.length <= 8)
      return [`(${schema.enum.map((allowed) => `${value}===${this.constant(allowed)}`).join('||')})`];
    return [`${this.constant(new Set(schema.enum))}.has(${value})`];
  }

  private stringConstraints(schema: StringSchema, value: string): string[] {
    const tests: string[] = [];
    if (schema.minLength !== undefined || schema.maxLength !== undefined)
      tests.push(
        `${this.constant(lengthWithin)}(${value},${this.constant(schema.minLength)},${this.constant(schema.maxLength)})`,
      );
    for (const [rule, check] of constraintChecks(schema))
      if (rule === 'pattern') tests.push(`${this.constant(check)}(${value})`);
    return tests;
  }

  private numberConstraints(schema: ParamSchema & { kind: 'int' | 'float' }, value: string): string[] {
    const tests: string[] = [];
    const bound = (limit: number | undefined, operator: string) => {
      if (limit !== undefined) tests.push(`${value}${operator}${numberLiteral(limit) ?? this.constant(limit)}`);
    };
    bound(schema.minimum, '>=');
    bound(schema.maximum, '<=');
    bound(schema.exclusiveMinimum, '>');
    bound(schema.exclusiveMaximum, '<');
    if (schema.multipleOf !== undefined)
      for (const [rule, check] of constraintChecks(schema))
        if (rule === 'multipleOf') tests.push(`${this.constant(check)}(${value})`);
    return tests;
  }

  /**
   * The constraints of an array or object, checked as the normalizer checks them on its output (an equal copy here):
   * the first one that fails is the node's issue.
   */
  private containerConstraints(schema: ParamSchema, value: string, path: PathCode): string {
    const checks = constraintChecks(schema);
    if (checks.length === 0) return '';
    const node = this.constant(schema);
    return `${checks
      .map(
        ([rule, check]) =>
          `if(!${this.constant(check)}(${value}))I.push(issue(${path.code},${stringLiteral(rule)},${node},${value}));`,
      )
      .join('else ')}`;
  }

  private array(schema: ArraySchema, value: string, path: PathCode, depth: number, policy: CoercionPolicy): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return 'return false;';
    this.visiting.add(schema);
    const index = this.variable('i');
    const item = this.variable('v');
    const itemCheck = this.node(schema.items, item, itemPath(path, index), depth + 1, policy);
    this.visiting.delete(schema);
    const slot = this.constant({ schema, policy, normalize: undefined } satisfies Delegate);
    return (
      `if(!isArray(${value})||${value}.length>${this.limits.maxArrayItems}){if(!D(${slot},${value},${path.code},s))return false;}` +
      `else{for(let ${index}=0;${index}<${value}.length;${index}++){const ${item}=${value}[${index}];${itemCheck}}` +
      `${this.containerConstraints(schema, value, path)}}`
    );
  }

  private object(schema: ObjectSchema, value: string, path: PathCode, depth: number, policy: CoercionPolicy): string {
    if (depth > this.limits.maxDepth || this.visiting.has(schema)) return 'return false;';
    this.visiting.add(schema);
    const key = this.variable('key');
    const seen = this.variable('n');
    let counted = 0;
    let cases = '';
    let missing = '';
    // A required property whose key is never taken as it is (see below) is missing whenever this walk gets past its keys.
    let alwaysMissing = false;
    for (const property of schema.properties) {
      const requiredFromModel = property.required && !property.context && !property.extract;
      const childPath = propertyPath(path, property.name);
      // Keys the normalizer drops or reports (context fields, prototype keys) and names that imitate a context name
      // (the impostor scan reports them even when declared): the normalizer's, as in the canonical check.
      const taken =
        !property.context && !DANGEROUS_KEYS.has(property.name) && imitatedContextName(property.name) === undefined;
      if (requiredFromModel) {
        const pushed = `I.push(required(${childPath.code},${this.constant(property.schema)}));`;
        if (taken) {
          missing += `if(!hasOwn(${value},${stringLiteral(property.name)}))${pushed}`;
          counted++;
        } else {
          missing += pushed;
          alwaysMissing = true;
        }
      }
      if (!taken) continue;
      const child = this.variable('v');
      // `null` for a property that is not nullable is refused or dropped as absent, and leaves the output without the
      // key: the normalizer's.
      const check = this.node(property.schema, child, childPath, depth + 1, policy);
      const nullCheck =
        property.schema.nullable || property.schema.kind === 'union' || property.schema.kind === 'any'
          ? ''
          : `if(${child}===null)return false;`;
      cases += `case ${stringLiteral(property.name)}:{const ${child}=${value}[${key}];${nullCheck}${check}${requiredFromModel ? `${seen}++;` : ''}break;}`;
    }
    this.visiting.delete(schema);
    const slot = this.constant({ schema, policy, normalize: undefined } satisfies Delegate);
    const missingCheck = missing === '' ? '' : alwaysMissing ? missing : `if(${seen}!==${counted}){${missing}}`;
    return (
      `if(typeof ${value}!=="object"||${value}===null||getPrototypeOf(${value})!==P){if(!D(${slot},${value},${path.code},s))return false;}` +
      `else{let ${seen}=0;` +
      `for(const ${key} in ${value}){switch(${key}){${cases}default:return false;}}` +
      `${missingCheck}${this.containerConstraints(schema, value, path)}}`
    );
  }
}

/**
 * Generates the error path of one tool's parameters (normalized under `policy`, every IR constraint checked) for these
 * limits; `undefined` when code generation is unavailable or the schema too large (the normalizer serves every call).
 */
export function generateIssueFinder(
  schema: ObjectSchema,
  policy: CoercionPolicy,
  limits: PipelineLimits,
  label?: string,
): IssueFinder | undefined {
  try {
    return new Generator(limits).build(schema, policy, label);
  } catch {
    return undefined;
  }
}
