import type { CrossFieldRule } from '../types/cross-field';
import type { ToolOptions } from '../types/definition';
import type { CoercionPolicy, Constructor, EnumValue, ExtractionSource, ScalarKind } from '../types/schema';

/** A DTO class given lazily, so class order never matters: `() => Address`. */
export type ClassThunk = () => Constructor;

/**
 * A parameter's type: a scalar kind, `'object'` (a free-form map) or `'any'`, a compact-grammar expression
 * (`'array<datetime>'`, `'int[]'`), or a nested DTO as a thunk (`() => Address`).
 */
export type ParamTypeReference = ScalarKind | 'object' | 'any' | (string & {}) | ClassThunk;

/** A TypeScript enum object (`enum Color { Red = 'red' }`) or a list of allowed values. */
export type EnumOption = readonly EnumValue[] | Readonly<Record<string, string | number>>;

/** Options every model-visible parameter decorator takes. */
export interface ParamBaseOptions {
  readonly description?: string;
  /** Default `true`; a parameter with a `default` or an `extract` source defaults to `false`. */
  readonly required?: boolean;
  /** Documented default (the handler applies it; the normalizer never fills it in). */
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  /** Other keys the model may use for this parameter. */
  readonly aliases?: readonly string[];
  /** Values are redacted in logs. */
  readonly sensitive?: boolean;
  /** Per-parameter coercion policy (overrides the command's and the executor's `coercion`). */
  readonly coercion?: CoercionPolicy;
  /** @deprecated Renamed `coercion` (the name the command and executor options use); `coercion` wins when both are given. */
  readonly policy?: CoercionPolicy;
  /** `null` is a legal value of its own. */
  readonly nullable?: boolean;
  /** Filled from the latest data packet's `content.body` / `content.title` when the model gave none. */
  readonly extract?: ExtractionSource;
  readonly title?: string;
}

/** Constraints on a value; on an array parameter they apply to each element. */
export interface ValueConstraintOptions {
  readonly enum?: EnumOption;
  /** Inclusive lower bound (JSON Schema `minimum`). */
  readonly min?: number;
  /** Inclusive upper bound (JSON Schema `maximum`). */
  readonly max?: number;
  readonly exclusiveMin?: number;
  readonly exclusiveMax?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript regular expression, unanchored as in JSON Schema; a `RegExp` may carry no flag but `u`. */
  readonly pattern?: string | RegExp;
  /** A JSON Schema string format (`email`, `uri`, `uuid`, ...): an annotation, not checked. */
  readonly format?: string;
}

/** Constraints on an array. */
export interface ArrayConstraintOptions {
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
}

/** What `@ToolParam(...)` takes. */
export interface ToolParamOptions extends ParamBaseOptions, ValueConstraintOptions, ArrayConstraintOptions {
  /** Inferred only from `design:type` `String` (string) and `Boolean` (bool); say it for everything else. */
  readonly type?: ParamTypeReference;
}

/** What `@ArrayOf(items, ...)` takes: the array's own options, and value constraints for each element. */
export interface ArrayOfOptions extends ParamBaseOptions, ValueConstraintOptions, ArrayConstraintOptions {}

/** What `@DateTime(...)` and `@DateOnly(...)` take. */
export interface DateParamOptions extends ParamBaseOptions {
  readonly enum?: readonly string[];
}

/** What `@FromContext(key, ...)` takes. */
export interface FromContextOptions {
  readonly description?: string;
  /** Default `false`: when the engine's context has no value, the property stays `undefined`. */
  readonly required?: boolean;
}

/** What `@Command(...)` takes. */
export interface CommandOptions extends ToolOptions {
  /** The tool name, kept exactly (`decision/propose`, `math.factorial`). */
  readonly name: string;
  readonly description: string;
  /** The parameter DTO; read from `execute`'s first parameter type when omitted and metadata exists. */
  readonly params?: Constructor;
  /**
   * Declarative cross-field rules (`crossField.exactlyOne('path', 'content')`, ...): checked like `validate`, and also
   * exported as JSON Schema (`oneOf`/`anyOf` of `required`, `not`, `dependentRequired`) and said in words to providers.
   */
  readonly crossFieldRules?: readonly CrossFieldRule[];
  /**
   * What `execute` returns: a class decorated like a parameter DTO (`@ToolParam`, `@ArrayOf`, ...). Each result is
   * checked against it (`RESULT_INVALID` on a mismatch) and MCP lists it as the tool's `outputSchema`.
   */
  readonly returns?: Constructor;
}
