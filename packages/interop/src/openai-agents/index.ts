/**
 * @toolwright/interop/openai-agents: a registry's commands as OpenAI Agents SDK function tools, with the
 * PersonaToolExecutor as each tool's `invoke` and the run context mapped to the execution context. Imports
 * `@openai/agents` (a peer) and core only.
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import type { ExecutionContext, PersonaToolExecutor, ToolCall, ToolDefinition, ToolResult } from '@toolwright/core';
import { toJsonSchema } from '@toolwright/core';
import { frameworkToolNames, pickExecutionContext, resolveContext, selectDefinitions, withSignal, type ContextSource } from '../shared';

export type { ContextSource } from '../shared/context';

export interface AgentsToolsOptions<TContext = unknown> {
  /**
   * The trusted context of each call: a fixed context, or a function of the Agents SDK's RunContext (its `context`
   * is what the application passed to `run(agent, input, { context })`). Default: the execution-context fields
   * (`sessionId`, `jobId`, ...) of `runContext.context`. The SDK's per-call abort signal becomes the context's `signal`.
   */
  readonly context?: ContextSource<RunContext<TContext>>;
  /** Registry names of the tools to expose; default all of the executor's tools. */
  readonly include?: readonly string[];
  /** Called with every ToolResult (transformations, duration, error code). */
  readonly onResult?: (result: ToolResult) => void;
}

/**
 * The executor's tools as Agents SDK function tools for `new Agent({ tools })`. Each is made by the SDK's own
 * `tool()` (non-strict, with the registry's JSON Schema as `parameters`), then given the executor as its `invoke`:
 * the SDK hands over the model's arguments text untouched, so what its `JSON.parse` (and a zod schema) would refuse
 * is recovered by the pipeline instead. The output is the handler's value; a failed call returns the executor's
 * model-facing message as the tool output, as the SDK's own error function does for its errors, so the model can
 * correct the call.
 */
export function toAgentsTools<TContext = unknown>(executor: PersonaToolExecutor, options: AgentsToolsOptions<TContext> = {}): FunctionTool<TContext>[] {
  const definitions = selectDefinitions(executor.tools(), options.include, 'toAgentsTools');
  return [...frameworkToolNames(definitions, 'toAgentsTools')].map(([name, definition]) => agentsTool(executor, definition, name, options));
}

type NonStrictParameters = { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: true };

function agentsTool<TContext>(executor: PersonaToolExecutor, definition: ToolDefinition, name: string, options: AgentsToolsOptions<TContext>): FunctionTool<TContext> {
  const created = tool({
    name,
    description: definition.description,
    // The SDK types a non-strict schema as `additionalProperties: true`; the registry's own value is sent as it is.
    parameters: toJsonSchema(definition) as unknown as NonStrictParameters,
    strict: false,
    execute: () => {
      // Never reached: `invoke` below replaces the SDK's parse-then-execute with the executor.
      throw new Error(`${name}: toolwright tools run through invoke`);
    },
  }) as unknown as FunctionTool<TContext>;
  const invoke: FunctionTool<TContext>['invoke'] = async (runContext, input, details) => {
    const context = withSignal(await resolveContext(options.context, runContext, (run) => pickExecutionContext(run.context)), details?.signal);
    const call: ToolCall = { id: details?.toolCall?.callId ?? '', name: definition.name, arguments: input };
    const result = await executor.execute(call, context satisfies ExecutionContext);
    options.onResult?.(result);
    return result.ok ? result.value : result.error.message;
  };
  return { ...created, invoke };
}
