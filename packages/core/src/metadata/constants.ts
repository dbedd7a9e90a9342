/**
 * Every metadata key toolwright writes or reads, declared once. Toolwright's own keys are `Symbol.for`, so two
 * installed copies of the package share them; the `design:*` keys are the ones TypeScript's
 * `emitDecoratorMetadata` writes.
 */

/** The raw `@Command(...)` record, on the command class. */
export const COMMAND_METADATA = Symbol.for('toolwright:command');

/** The raw parameter records (`@ToolParam`, `@ArrayOf`, `@DateTime`, `@DateOnly`, `@FromContext`), own to each DTO class. */
export const PARAM_METADATA = Symbol.for('toolwright:params');

/** TypeScript's property type (`String`, `Number`, `Boolean`, `Array`, `Object`, a class). */
export const DESIGN_TYPE = 'design:type';

/** TypeScript's method parameter types (only emitted for a method that carries a decorator). */
export const DESIGN_PARAMTYPES = 'design:paramtypes';

/**
 * The property name of the `@Allow()` rule a DTO without parameters carries: class-validator's `forbidUnknownValues`
 * rejects an instance of a class with no rule at all, so `{}` would fail for a parameterless tool. Never a parameter.
 */
export const EMPTY_DTO_SENTINEL = '__toolwright_no_parameters__';

/** tsyringe's `@inject(token)` records, own to a class: `{ [parameterIndex]: token | descriptor }` (tsyringe's own key). */
export const TSYRINGE_INJECTION_TOKENS = 'injectionTokens';
