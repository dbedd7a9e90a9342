import type { ValidatorConstraintInterface } from 'class-validator';
import type { ValidatorMetadata } from '../metadata/types';
import type { ParamSchema } from '../types/schema';
import type { ValidationIssue } from '../types/execution';
import { stringLiteral } from './accept-generator';
import { compileFunction } from './compile-function';

/**
 * A class command's developer-rules plan (`pipeline/developer-rules.ts`) as generated code, one function per plan node:
 * the same walk as the plan's interpreter (`runPlan`), in the same order, reading the same properties, calling the same
 * rules, with the layers between taken out. A rule that has an exact fast implementation and no `each` is called
 * inline and costs nothing more on success (its issue is built only when it fails); every other rule goes through the
 * interpreter's own `runRule`, so Promises, `each` and custom constraints keep their one implementation.
 *
 * ADR 0013's escaping rule: property names enter the code only through `stringLiteral` (as member keys); rules,
 * constraints, names for paths and fast functions are passed in a constants array; identifiers are generated counters.
 * `undefined` (the interpreter serves the plan) for code over the size limit and runtimes without code generation.
 */

/** One constraint of one rule, resolved when the plan is built: the function to call and what its failure renders. */
export interface ResolvedConstraint {
  /** The exact fast implementation of a validator.js rule with class-validator's default options, when there is one. */
  readonly fast: ((value: unknown) => boolean) | undefined;
  readonly instance: ValidatorConstraintInterface;
  readonly name: string | undefined;
}

export interface ResolvedRule {
  readonly rule: ValidatorMetadata;
  readonly constraints: readonly ResolvedConstraint[];
}

export interface PropertyRules {
  readonly name: string;
  readonly rules: readonly ResolvedRule[];
  readonly optional: boolean;
  readonly schema?: ParamSchema;
}

export interface NestedProperty {
  readonly name: string;
  readonly plan: CheckPlan;
}

export interface CheckPlan {
  readonly targetName: string;
  readonly ownRules: readonly PropertyRules[];
  readonly nested: readonly NestedProperty[];
}

export type RuleOutcome = ValidationIssue | undefined | Promise<ValidationIssue | undefined>;

/**
 * Where one call's issues go: straight into `issues` until a rule answers with a Promise, then in order into `slots`.
 * Made by the first rule that fails (a call whose rules all pass allocates none): the runners pass it along as
 * `undefined` until then and return the one they end with.
 */
export interface Sink {
  readonly issues: ValidationIssue[];
  slots: RuleOutcome[] | undefined;
}

/** The interpreter's functions the generated code calls (passed in: the interpreter imports this module). */
export interface RulesRuntime {
  readonly emit: (sink: Sink | undefined, outcome: RuleOutcome) => Sink | undefined;
  readonly runRule: (
    resolved: ResolvedRule,
    targetName: string,
    property: PropertyRules,
    object: object,
    value: unknown,
    path: string,
    index: number,
  ) => RuleOutcome;
  readonly failure: (
    constraint: ResolvedConstraint,
    rule: ValidatorMetadata,
    targetName: string,
    propertyRules: PropertyRules,
    object: object,
    value: unknown,
    item: unknown,
    path: string,
    index: number,
  ) => ValidationIssue;
  readonly joinPath: (path: string, segment: string | number) => string;
}

/** `runPlan(plan, record, path, index, sink)` as generated code: the sink it ends with (`undefined`: nothing failed). */
export type GeneratedPlanRunner = (
  record: Record<string, unknown>,
  path: string,
  index: number,
  sink: Sink | undefined,
) => Sink | undefined;

const MAX_GENERATED_CHARACTERS = 100_000;

class GiveUp {}

class RulesGenerator {
  private readonly constants: unknown[] = [];
  private readonly declarations: string[] = [];
  private readonly functions: string[] = [];
  private counter = 0;
  private size = 0;

  build(plan: CheckPlan, runtime: RulesRuntime): GeneratedPlanRunner {
    const root = this.planFunction(plan);
    const source = `"use strict";${this.declarations.join('')}${this.functions.join('')}return ${root};`;
    return compileFunction<GeneratedPlanRunner>(source, {
      k: this.constants.slice(), // a copy of exactly its length (kept for good)
      rt: runtime,
      isArray: Array.isArray,
    });
  }

  private name(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** A constant bound once to a `const` of the factory (so the generated functions read a context slot, not `k[i]`). */
  private constant(value: unknown): string {
    const name = this.name('c');
    this.constants.push(value);
    this.declarations.push(`const ${name}=k[${this.constants.length - 1}];`);
    return name;
  }

  /** Emits the function running one plan node (the body of `runPlan`) and returns its name. */
  private planFunction(plan: CheckPlan): string {
    const fn = this.name('run');
    const target = this.constant(plan.targetName);
    let body = `function ${fn}(r,path,index,s){let v;`;
    for (const property of plan.ownRules) {
      const propertyConstant = this.constant(property);
      body += `v=r[${stringLiteral(property.name)}];`;
      if (property.optional) body += 'if(v!==undefined&&v!==null){';
      for (const resolved of property.rules) {
        const only = resolved.constraints.length === 1 ? resolved.constraints[0]! : undefined;
        if (only?.fast !== undefined && !resolved.rule.each) {
          // runRule for one fast constraint and no `each`: `fast(value)`, the failure's issue when it says false.
          const fast = this.constant(only.fast);
          body +=
            `if(!${fast}(v))s=rt.emit(s,rt.failure(${this.constant(only)},${this.constant(resolved.rule)},` +
            `${target},${propertyConstant},r,v,v,path,index));`;
        } else {
          body += `s=rt.emit(s,rt.runRule(${this.constant(resolved)},${target},${propertyConstant},r,v,path,index));`;
        }
      }
      if (property.optional) body += '}';
    }
    if (plan.nested.length > 0) {
      body += 'const recordPath=index<0?path:rt.joinPath(path,index);';
      for (const child of plan.nested) {
        const childFunction = this.planFunction(child.plan);
        const item = this.name('i');
        body +=
          `v=r[${stringLiteral(child.name)}];if(typeof v==="object"&&v!==null){` +
          `const childPath=rt.joinPath(recordPath,${this.constant(child.name)});` +
          `if(isArray(v)){for(let ${item}=0;${item}<v.length;${item}++){const e=v[${item}];` +
          `if(typeof e==="object"&&e!==null)s=${childFunction}(e,childPath,${item},s);}}` +
          `else s=${childFunction}(v,childPath,-1,s);}`;
      }
    }
    body += 'return s;}';
    this.size += body.length;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- GiveUp is a stackless sentinel caught by the generator
    if (this.size > MAX_GENERATED_CHARACTERS) throw new GiveUp();
    this.functions.push(body);
    return fn;
  }
}

export function generatePlanRunner(plan: CheckPlan, runtime: RulesRuntime): GeneratedPlanRunner | undefined {
  try {
    return new RulesGenerator().build(plan, runtime);
  } catch (error) {
    // GiveUp, or EvalError under --disallow-code-generation-from-strings: the interpreter serves the plan.
    if (error instanceof GiveUp || error instanceof EvalError) return undefined;
    throw error;
  }
}
