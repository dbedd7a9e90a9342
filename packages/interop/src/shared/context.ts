import type { ExecutionContext } from '@toolwright/core';

/**
 * Where a framework adapter gets the trusted execution context of one call: a fixed context (tools built per
 * request), or a function of what the framework passes the tool (the AI SDK's execution options, LangChain's
 * RunnableConfig, the Agents SDK's RunContext). Both come from the application, never from the model: the model's
 * arguments are not an input of this function, and context fields the model sends are dropped by the executor.
 */
export type ContextSource<FrameworkCall> =
  ExecutionContext | ((call: FrameworkCall) => ExecutionContext | Promise<ExecutionContext>);

/** The ExecutionContext keys an adapter copies from an application object (never anything else). */
const EXECUTION_CONTEXT_KEYS: readonly (keyof ExecutionContext)[] = Object.freeze([
  'sessionId',
  'jobId',
  'flowStepId',
  'sourceUrl',
  'imageUrl',
  'handlerConfig',
  'persona',
  'dataPackets',
  'timeZone',
  'now',
  'signal',
  'model',
]);

/**
 * The execution-context fields of an application object (a framework's run context, `configurable`, or tool
 * context): own properties with an ExecutionContext name only, so nothing else the object carries leaks in.
 */
export function pickExecutionContext(value: unknown): ExecutionContext {
  if (typeof value !== 'object' || value === null) return {};
  const picked: Record<string, unknown> = {};
  for (const key of EXECUTION_CONTEXT_KEYS) {
    if (Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] !== undefined)
      picked[key] = (value as Record<string, unknown>)[key];
  }
  return picked;
}

/** Resolves a ContextSource for one call; `fallback` is used when the adapter was given none. */
export async function resolveContext<FrameworkCall>(
  source: ContextSource<FrameworkCall> | undefined,
  call: FrameworkCall,
  fallback: (call: FrameworkCall) => ExecutionContext,
): Promise<ExecutionContext> {
  if (source === undefined) return fallback(call);
  if (typeof source === 'function') return (await source(call)) ?? {};
  return source;
}

/** Adds the framework's abort signal to a context that has none of its own. */
export function withSignal(context: ExecutionContext, signal: AbortSignal | undefined): ExecutionContext {
  return signal === undefined || context.signal !== undefined ? context : { ...context, signal };
}
