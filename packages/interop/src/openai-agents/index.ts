/**
 * @toolwright/interop/openai-agents: a registry's commands as OpenAI Agents SDK function tools, with the
 * PersonaToolExecutor as each tool's `invoke` and the run context mapped to the execution context. Imports
 * `@openai/agents` (a peer) and core only.
 */
import {
  tool,
  type AgentOutputItem,
  type FunctionTool,
  type Model,
  type ModelResponse,
  type RunContext,
  type StreamEvent,
} from '@openai/agents';
import type {
  CoercionPolicy,
  ExecutionContext,
  PersonaToolExecutor,
  ToolCall,
  ToolDefinition,
  ToolResult,
  Transformation,
} from '@toolwright/core';
import { DEFAULT_LIMITS, toJsonSchema, ToolContent, ToolwrightError } from '@toolwright/core';
import { isTextOnly, parseArguments, partsText } from '@toolwright/core/internal';
import {
  frameworkToolNames,
  pickExecutionContext,
  resolveContext,
  resultParts,
  selectDefinitions,
  withSignal,
  type ContextSource,
} from '../shared';

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
export function toAgentsTools<TContext = unknown>(
  executor: PersonaToolExecutor,
  options: AgentsToolsOptions<TContext> = {},
): FunctionTool<TContext>[] {
  const definitions = selectDefinitions(executor.tools(), options.include, 'toAgentsTools');
  return [...frameworkToolNames(definitions, 'toAgentsTools')].map(([name, definition]) =>
    agentsTool(executor, definition, name, options),
  );
}

type NonStrictParameters = {
  type: 'object';
  properties: Record<string, never>;
  required: never[];
  additionalProperties: true;
};

function agentsTool<TContext>(
  executor: PersonaToolExecutor,
  definition: ToolDefinition,
  name: string,
  options: AgentsToolsOptions<TContext>,
): FunctionTool<TContext> {
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
  const contextOf = (runContext: RunContext<TContext>) =>
    resolveContext(options.context, runContext, (run) => pickExecutionContext(run.context));
  // A tool with `approval`: the Agents SDK asks the person (a run interruption, approved or rejected on the RunState);
  // toolwright validates first, so an invalid call is never put to a person (it goes on to invoke, which refuses it).
  const approval = definition.options.approval !== undefined;
  const needsApproval: FunctionTool<TContext>['needsApproval'] = async (runContext, input, callId) => {
    const context = await contextOf(runContext as RunContext<TContext>);
    const arguments_ = (typeof input === 'string' || typeof input === 'object' ? input : null) as ToolCall['arguments'];
    const prepared = await executor.prepare(
      { id: callId ?? '', name: definition.name, arguments: arguments_ },
      context,
    );
    return prepared.ok && (await executor.approvals.needsApproval(prepared, context));
  };
  const invoke: FunctionTool<TContext>['invoke'] = async (runContext, input, details) => {
    const context = withSignal(await contextOf(runContext), details?.signal);
    const callId = details?.toolCall?.callId ?? '';
    const repairs = takeRepair(executor, callId);
    const call: ToolCall = {
      id: callId,
      name: definition.name,
      arguments: input,
      ...(repairs === undefined ? {} : { transformations: repairs }),
    };
    // The SDK invokes a tool with `approval` only once a person approved it (or needsApproval said none is needed): a
    // permit for this one call, used up by it (a call the handler makes itself is asked about again).
    const result = approval
      ? await executor.executeBound(
          call,
          context satisfies ExecutionContext,
          executor.approvals.bind({ callId, tool: definition.name, approved: true }),
        )
      : await executor.execute(call, context satisfies ExecutionContext);
    options.onResult?.(result);
    return result.ok ? agentsOutput(result) : result.error.message;
  };
  return approval ? { ...created, invoke, needsApproval } : { ...created, invoke };
}

/**
 * Text repairs made by `withArgumentRepair`, waiting for the `invoke` of the same call (keyed by executor, then by
 * call id) so that they are reported first in its ToolResult. Bounded like the AI SDK adapter's.
 */
const pendingRepairs = new WeakMap<PersonaToolExecutor, Map<string, readonly Transformation[]>>();
const MAXIMUM_PENDING_REPAIRS = 1_000;

function takeRepair(executor: PersonaToolExecutor, callId: string): readonly Transformation[] | undefined {
  const pending = pendingRepairs.get(executor);
  const transformations = pending?.get(callId);
  pending?.delete(callId);
  return transformations;
}

export interface ArgumentRepairOptions {
  /** Policy for recovering the arguments text when the command sets none; default `'safe'` (lossless repairs only). */
  readonly policy?: CoercionPolicy;
}

/**
 * Wraps an Agents SDK `Model` so that a toolwright tool's arguments text the runner's `JSON.parse` would refuse
 * (Python literals, single quotes, trailing commas, a fenced block) is recovered before the runner sees it, the
 * analogue of the AI SDK's repair hook: the runner parses every call's text before any tool code runs. The repairs
 * are recorded and reported first in the call's ToolResult. Text that cannot be recovered exactly is passed on as a
 * JSON string, so the executor answers with its model-facing explanation. Other tools' calls are left alone.
 */
export function withArgumentRepair(
  model: Model,
  executor: PersonaToolExecutor,
  options: ArgumentRepairOptions = {},
): Model {
  const repairItems = (output: AgentOutputItem[]): AgentOutputItem[] => {
    const definitions = frameworkToolNames(executor.tools(), 'withArgumentRepair');
    return output.map((item) => {
      if (item.type !== 'function_call' || isJson(item.arguments)) return item;
      const definition = definitions.get(item.name);
      if (definition === undefined) return item;
      try {
        const parsed = parseArguments(
          item.arguments,
          definition.options.coercion ?? options.policy ?? 'safe',
          DEFAULT_LIMITS,
        );
        rememberRepair(executor, item.callId, parsed.transformations);
        return { ...item, arguments: JSON.stringify(parsed.value) };
      } catch (error) {
        if (!ToolwrightError.isInstance(error)) throw error;
        return { ...item, arguments: JSON.stringify(item.arguments) };
      }
    });
  };
  const wrapped: Model = {
    getResponse: async (request): Promise<ModelResponse> => {
      const response = await model.getResponse(request);
      return { ...response, output: repairItems(response.output) };
    },
    getStreamedResponse: (request): AsyncIterable<StreamEvent> => ({
      async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
        for await (const event of model.getStreamedResponse(request)) {
          if (event.type !== 'response_done') yield event;
          // The runner builds its items from the final response: its function calls are repaired there.
          else
            yield {
              ...event,
              response: { ...event.response, output: repairItems(event.response.output) },
            } as StreamEvent;
        }
      },
    }),
  };
  if (model.supportsPromptModelSelection !== undefined)
    Object.defineProperty(wrapped, 'supportsPromptModelSelection', {
      value: model.supportsPromptModelSelection,
      enumerable: true,
    });
  if (model.getRetryAdvice !== undefined) wrapped.getRetryAdvice = model.getRetryAdvice.bind(model);
  return wrapped;
}

function rememberRepair(
  executor: PersonaToolExecutor,
  callId: string,
  transformations: readonly Transformation[],
): void {
  if (transformations.length === 0) return;
  let pending = pendingRepairs.get(executor);
  if (pending === undefined) pendingRepairs.set(executor, (pending = new Map()));
  if (pending.size >= MAXIMUM_PENDING_REPAIRS) pending.delete(pending.keys().next().value!);
  pending.set(callId, transformations);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the Agents SDK sends the model for a successful call (docs/results.md): the value as it is when the model reads
 * it so (the SDK serializes it), else the model view: one text, or text and image outputs (`{ type: 'image', image }`).
 */
function agentsOutput(result: Extract<ToolResult, { ok: true }>): unknown {
  if (result.modelOutput === undefined && !ToolContent.isInstance(result.value)) return result.value;
  const parts = resultParts(result);
  if (isTextOnly(parts) || !parts.some((part) => part.type === 'image')) return partsText(parts);
  return parts.map((part) =>
    part.type === 'image'
      ? { type: 'image', image: 'data' in part ? { data: part.data, mediaType: part.mimeType } : { url: part.url } }
      : { type: 'text', text: partsText([part]) },
  );
}
