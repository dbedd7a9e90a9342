import type { ExecutionContext } from './execution';
import type { Logger } from '../logging/logger';
import type { ToolDefinition } from './definition';
import type { Constructor } from './schema';

/** What a handler receives besides its parameters. */
export interface ToolInvocationContext {
  readonly callId: string;
  /** The resolved registry name. */
  readonly tool: string;
  /** The trusted execution context of this call. */
  readonly context: ExecutionContext;
  /** Aborted on timeout or when the caller cancels. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/** A function handler (JSON Schema and compact tools). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- public default: a handler typed with its own params must stay assignable (parameters are contravariant)
export type ToolHandler<P = any, R = unknown> = (params: P, invocation: ToolInvocationContext) => R | Promise<R>;

/** What a `@Command` class implements. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- public default: a handler typed with its own params must stay assignable (parameters are contravariant)
export interface CommandHandler<P = any, R = unknown> {
  execute(params: P, invocation: ToolInvocationContext): R | Promise<R>;
}

/** How a tool runs: a DI-resolved `@Command` class, or a function (JSON Schema, compact, MCP and built-in tools). */
export type ToolImplementation =
  | { readonly kind: 'class'; readonly command: Constructor<CommandHandler> }
  | { readonly kind: 'function'; readonly handler: ToolHandler };

/** One registry entry. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly implementation: ToolImplementation;
}

/**
 * How the executor gets the instance that runs a `@Command` class for one call (type-graphql's
 * `container.get(cls, resolverData)` is the model). The call's trusted context is `invocation.context`; a resolver
 * for another container (Nest, inversify, ...) hands it to the command however that container injects per-call values.
 * A resolver may return a promise (Nest's `ModuleRef.resolve`). Whatever it throws becomes the call's HANDLER_ERROR.
 */
export type CommandResolver = (
  commandClass: Constructor<CommandHandler>,
  invocation: ToolInvocationContext,
) => CommandHandler | Promise<CommandHandler>;
