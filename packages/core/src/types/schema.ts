import type { CrossFieldRule } from './cross-field';

/**
 * The internal tool definition (IR). Every source (decorated classes, JSON Schema, the compact grammar)
 * compiles to these immutable shapes; every consumer (JSON Schema export, providers, the executor) reads only these.
 */

/** How much the normalizer may repair: see docs/normalization.md. */
export type CoercionPolicy = 'strict' | 'safe' | 'lenient';

/** The scalar kinds of the compact grammar. */
export type ScalarKind = 'string' | 'int' | 'float' | 'bool' | 'date' | 'datetime';

export type EnumValue = string | number | boolean | null;

/** Constraints and annotations every schema node may carry. */
export interface SchemaBase {
  readonly description?: string;
  /** `null` is a legal value of its own (JSON Schema `type: [T, 'null']`), not just "absent". */
  readonly nullable?: boolean;
  /** Documented default; the normalizer never fills it in (it is the handler's to apply). */
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  /** Allowed values (JSON Schema `enum`, or `const` as an enum of one). */
  readonly enum?: readonly EnumValue[];
  /** Per-parameter override of the coercion policy. */
  readonly policy?: CoercionPolicy;
  /** A title from JSON Schema, kept for round trips. */
  readonly title?: string;
}

export interface NumericBounds {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
}

/**
 * How a string's length is counted against `minLength` and `maxLength`, by the meaning of the source that stated them:
 * `code-points` (JSON Schema's count, the default) or `class-validator` (validator.js's `isLength`: code points less
 * variation selectors), for a decorated class.
 */
export type LengthCount = 'code-points' | 'class-validator';

export interface StringSchema extends SchemaBase {
  readonly kind: 'string';
  readonly minLength?: number;
  readonly maxLength?: number;
  /** How the lengths are counted (absent: `code-points`). */
  readonly lengthCount?: LengthCount;
  readonly pattern?: string;
  /**
   * A format toolwright enforces (email, uri, uuid, ipv4, ipv6, hostname, date, time, date-time): checked on every path,
   * and advertised to the model. date and date-time on a JSON Schema string are their own kinds.
   */
  readonly format?: string;
  /**
   * A format the source stated that toolwright does not enforce (a remote tool's `phone`): not a format, only a hint
   * in the description (`Format: phone.`); kept so that lint can say so. Nothing checks it.
   */
  readonly unenforcedFormat?: string;
}

export interface IntegerSchema extends SchemaBase, NumericBounds {
  readonly kind: 'int';
}

export interface FloatSchema extends SchemaBase, NumericBounds {
  readonly kind: 'float';
}

export interface BooleanSchema extends SchemaBase {
  readonly kind: 'bool';
}

/** A calendar date, `YYYY-MM-DD`. */
export interface DateSchema extends SchemaBase {
  readonly kind: 'date';
}

/** An ISO-8601 date-time with a UTC offset (`2026-11-21T09:00:00+01:00`). */
export interface DateTimeSchema extends SchemaBase {
  readonly kind: 'datetime';
}

export interface ArraySchema extends SchemaBase {
  readonly kind: 'array';
  readonly items: ParamSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
}

/** A reserved name of the trusted execution context (`@FromContext`). */
export type ContextKey =
  'session_id' | 'job_id' | 'flow_step_id' | 'source_url' | 'image_url' | 'handler_config' | 'persona';

/** What an extracted property is filled from when the model gave none. */
export type ExtractionSource = 'content' | 'title';

export interface PropertyDefinition {
  /** The property name on the DTO and the canonical key the model sees. */
  readonly name: string;
  readonly schema: ParamSchema;
  readonly required: boolean;
  /** Other keys the model may use for this property. */
  readonly aliases: readonly string[];
  /** Filled from the trusted execution context only; absent from every model-facing schema. */
  readonly context?: ContextKey;
  /** Model-visible; filled from the context's data packets when the model gave no value. */
  readonly extract?: ExtractionSource;
  /** Values are redacted in logs. */
  readonly sensitive?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any class, whatever its constructor takes
export type Constructor<T = unknown> = new (...args: any[]) => T;

export interface ObjectSchema extends SchemaBase {
  readonly kind: 'object';
  /** The DTO class name or the `$defs` name, when there is one. */
  readonly name?: string;
  /** Declared properties, in declaration order. */
  readonly properties: readonly PropertyDefinition[];
  /**
   * What other keys may hold: `false` (unknown keys are dropped and recorded, rejected under `strict`),
   * `true` (a free-form map of any values) or a schema every extra value must match.
   */
  readonly additionalProperties: boolean | ParamSchema;
  /** The decorated DTO class this object came from (absent for JSON Schema and compact tools until synthesized). */
  readonly dto?: Constructor;
  /**
   * Cross-field rules on the arguments object (the root only), imported from JSON Schema's `dependentRequired`,
   * `oneOf`/`anyOf` of `required` sets and `not: {required}`; checked after the per-field checks.
   */
  readonly crossFieldRules?: readonly CrossFieldRule[];
}

/** `anyOf`/`oneOf` (or a JSON Schema `type` array): the value must match one variant. */
export interface UnionSchema extends SchemaBase {
  readonly kind: 'union';
  readonly variants: readonly ParamSchema[];
}

/** Any JSON value (JSON Schema `{}`, BFCL `any`): depth- and size-limited, otherwise unchecked. */
export interface AnySchema extends SchemaBase {
  readonly kind: 'any';
}

export type ParamSchema =
  | StringSchema
  | IntegerSchema
  | FloatSchema
  | BooleanSchema
  | DateSchema
  | DateTimeSchema
  | ArraySchema
  | ObjectSchema
  | UnionSchema
  | AnySchema;

export type ParamKind = ParamSchema['kind'];
