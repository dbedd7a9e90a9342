/** Every injection token and metadata key of @toolwright/nestjs, declared once. */

/** The module's options (`forRoot` value or `forRootAsync` factory result). */
export const TOOLWRIGHT_MODULE_OPTIONS = Symbol.for('toolwright:nestjs:module-options');

/** The trusted `ExecutionContext` of the current tool call; inject with `@InjectToolContext()`. Request-scoped. */
export const TOOL_CONTEXT = Symbol.for('toolwright:nestjs:tool-context');

/** The current call's `ToolInvocationContext` (call id, tool, context, signal, logger); `@InjectToolInvocation()`. */
export const TOOL_INVOCATION = Symbol.for('toolwright:nestjs:tool-invocation');

/** The toolwright `Logger` the module uses (the Nest logger adapter unless `forRoot({ logger })` says otherwise). */
export const TOOLWRIGHT_LOGGER = Symbol.for('toolwright:nestjs:logger');

/** Nest's own metadata keys this package reads (from @nestjs/common's constants, which are not a public entry). */
export const NEST_SELF_DECLARED_DEPS = 'self:paramtypes';

/**
 * The executor's approval store (docs/approval.md): where calls of tools with `approval` wait for a person. Set it with
 * `forRoot({ executor: { approvals: { store } } })` (e.g. `@toolwright/queue`'s RedisApprovalStore); inject it to list
 * or look up pending approvals; decide them with `executor.resolveApproval`.
 */
export const TOOLWRIGHT_APPROVAL_STORE = Symbol.for('toolwright:nestjs:approval-store');
