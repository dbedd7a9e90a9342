import { Inject } from '@nestjs/common';
import { TOOL_CONTEXT, TOOL_INVOCATION } from './constants';

/**
 * Injects the trusted `ExecutionContext` of the current tool call (session id, persona, time zone, ...). The provider
 * becomes request-scoped: Nest builds it per call, through `ModuleRef.resolve` with the call's own context id.
 */
export function InjectToolContext(): PropertyDecorator & ParameterDecorator {
  return Inject(TOOL_CONTEXT);
}

/** Injects the current call's `ToolInvocationContext` (call id, tool, context, AbortSignal, logger); request-scoped. */
export function InjectToolInvocation(): PropertyDecorator & ParameterDecorator {
  return Inject(TOOL_INVOCATION);
}
