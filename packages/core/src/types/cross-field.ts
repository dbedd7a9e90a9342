/**
 * Cross-field validation (custom validators): rules that read several arguments at once. They run after
 * every per-field check passed, on the normalized, context-injected parameters, and fail as ordinary
 * `INVALID_ARGUMENTS` issues the model can fix.
 */

/**
 * A declarative cross-field rule, as JSON Schema says it on the arguments object (imported from `dependentRequired`,
 * `oneOf`/`anyOf` of `required` sets and `not: {required}`; exported back as the same keywords).
 * A property is "present" when the parameters hold a value for it (`undefined` is absent; `null` for an optional
 * parameter was already normalized to absent).
 */
export type CrossFieldRule =
  /** When `property` is present, every name in `requires` must be present too (`dependentRequired`). */
  | { readonly kind: 'dependentRequired'; readonly property: string; readonly requires: readonly string[] }
  /** Exactly one of the sets is complete (`oneOf: [{required: [...]}, ...]`). */
  | { readonly kind: 'oneOf'; readonly sets: readonly (readonly string[])[] }
  /** At least one of the sets is complete (`anyOf: [{required: [...]}, ...]`). */
  | { readonly kind: 'anyOf'; readonly sets: readonly (readonly string[])[] }
  /** Not all of `properties` together (`not: {required: [...]}`): with two names, "not both". */
  | { readonly kind: 'notAll'; readonly properties: readonly string[] };

/** One problem a `validate` function reports. Only `message` is needed; a `ValidationIssue` is one too. */
export interface CrossFieldIssue {
  /** The argument the problem is about (`end`, `options[1].label`); `''` or absent for the arguments as a whole. */
  readonly path?: string;
  /** Every argument involved when the rule spans several (`['start', 'end']`); `path` defaults to the first. */
  readonly paths?: readonly string[];
  /** Text for the model: what is wrong and what to send instead. */
  readonly message: string;
  /** Machine-readable rule name; default `cross-field`. */
  readonly rule?: string;
  /** What was expected, in words; default: the message. */
  readonly expected?: string;
  readonly received?: string;
  readonly example?: string;
}

/** What a `validate` function returns: nothing (valid), one message, or a list of issues. */
export type CrossFieldResult = string | readonly CrossFieldIssue[] | undefined | null | void;

/**
 * A tool's cross-field check: `@Command({ validate })`, the `validate` option of `registerJsonSchemaTool` and
 * `registerCompact`, or a static `validate(params)` method on the command class. `params` are the normalized,
 * context-injected parameters (the DTO instance for a class command), after every per-field check passed.
 * It must not change them; it may be async.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- public default: a handler typed with its own params must stay assignable (parameters are contravariant)
export type CrossFieldValidator<P = any> = (params: P) => CrossFieldResult | Promise<CrossFieldResult>;
