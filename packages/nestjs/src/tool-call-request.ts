import type { ExecutionContext, ToolInvocationContext } from '@toolwright/core';
import { nestMessages } from './messages';

/**
 * What Nest's `REQUEST` is for one tool call: each call gets its own context id, and this object is registered as
 * that context's request, so request-scoped providers (`@InjectToolContext()`) see only their call.
 */
export class ToolCallRequest {
  constructor(readonly invocation: ToolInvocationContext) {}

  get context(): ExecutionContext {
    return this.invocation.context;
  }
}

/** The call's context from Nest's `REQUEST`; an error naming the fix when a provider is resolved outside a tool call. */
export function toolCallRequestOf(request: unknown, token: string): ToolCallRequest {
  if (request instanceof ToolCallRequest) return request;
  throw nestMessages.outsideToolCall(token);
}
