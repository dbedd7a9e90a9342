/**
 * @toolwright/interop/ai-sdk: a registry's commands as Vercel AI SDK tools (`generateText`, `streamText`, agents),
 * every call run by the PersonaToolExecutor, and toolwright's argument recovery as the AI SDK's repair hook.
 * Imports `ai` (a peer) and core only.
 */
import {
  jsonSchema,
  InvalidToolInputError,
  NoSuchToolError,
  type JSONSchema7,
  type Tool,
  type ToolCallRepairFunction,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import {
  DEFAULT_LIMITS,
  toJsonSchema,
  ToolwrightError,
  type CoercionPolicy,
  type ContentPart,
  type ExecutionContext,
  type PersonaToolExecutor,
  type ToolCall,
  type ToolDefinition,
  type ToolResult,
  type Transformation,
} from '@toolwright/core';
import { parseArguments, resolveToolName } from '@toolwright/core/internal';
import {
  frameworkToolNames,
  pickExecutionContext,
  RecentModelViews,
  resolveContext,
  selectDefinitions,
  withSignal,
  type ContextSource,
} from '../shared';
import { ToolResultError } from '../shared/errors';

export { ToolResultError } from '../shared/errors';
export type { ContextSource } from '../shared/context';

export interface AISDKToolsOptions {
  /**
   * The trusted context of each call: a fixed context (build the tools per request), or a function of the AI SDK's
   * execution options (`toolCallId`, `messages`, `abortSignal`, and `context`, the tool's entry of `toolsContext`).
   * Default: the execution-context fields (`sessionId`, `jobId`, ...) of the AI SDK's `context`. The AI SDK's
   * `abortSignal` becomes the context's `signal` unless the context has one.
   */
  readonly context?: ContextSource<ToolExecutionOptions<ExecutionContext>>;
  /** Registry names of the tools to expose; default all of the executor's tools. */
  readonly include?: readonly string[];
  /** Called with every ToolResult (transformations, duration, error code): the place for telemetry. */
  readonly onResult?: (result: ToolResult) => void;
}

export interface AISDKRepairOptions {
  /** Policy for recovering the arguments text when the command sets none; default `'safe'` (lossless repairs only). */
  readonly policy?: CoercionPolicy;
}

/** What a tool of this adapter carries in the AI SDK's `metadata` (reaches every tool-call and result part as `toolMetadata`). */
export interface ToolwrightToolMetadata {
  readonly toolwright: { readonly tool: string };
  readonly [key: string]: unknown;
}

/**
 * Text repairs made in the repair hook, waiting for the `execute` of the same call (keyed by executor, then by the
 * AI SDK's tool-call id) so that they are reported first in that call's ToolResult. Bounded: a repaired call whose
 * tool is never executed cannot grow it past MAXIMUM_PENDING_REPAIRS.
 */
const pendingRepairs = new WeakMap<PersonaToolExecutor, Map<string, readonly Transformation[]>>();
const MAXIMUM_PENDING_REPAIRS = 1_000;

function rememberRepair(
  executor: PersonaToolExecutor,
  toolCallId: string,
  transformations: readonly Transformation[],
): void {
  let pending = pendingRepairs.get(executor);
  if (pending === undefined) pendingRepairs.set(executor, (pending = new Map()));
  if (pending.size >= MAXIMUM_PENDING_REPAIRS) pending.delete(pending.keys().next().value!);
  pending.set(toolCallId, transformations);
}

function takeRepair(executor: PersonaToolExecutor, toolCallId: string): readonly Transformation[] | undefined {
  const pending = pendingRepairs.get(executor);
  const transformations = pending?.get(toolCallId);
  pending?.delete(toolCallId);
  return transformations;
}

/**
 * The executor's tools as the AI SDK's `tools` object. Each tool's `inputSchema` is the registry's JSON Schema
 * (context fields left out; toolwright's export uses only keywords JSON Schema draft-07, the AI SDK's dialect,
 * shares) with no validator: the AI SDK parses the JSON and hands the value over as sent, and `execute` runs the whole
 * pipeline (normalize, drop model-sent context, inject the trusted context, validate, run with a timeout). A failed
 * call throws a ToolResultError whose message is the executor's model-facing text, which the AI SDK sends to the
 * model as the tool error. Tool names that do not fit `^[a-zA-Z0-9_-]{1,64}$` get `_` for each other character.
 */
export function toAISDKTools(executor: PersonaToolExecutor, options: AISDKToolsOptions = {}): AISDKToolSet {
  const definitions = selectDefinitions(executor.tools(), options.include, 'toAISDKTools');
  const tools: AISDKToolSet = {};
  const views = new RecentModelViews();
  for (const [name, definition] of frameworkToolNames(definitions, 'toAISDKTools')) {
    Object.defineProperty(tools, name, {
      value: aiSdkTool(executor, definition, options, views),
      enumerable: true,
      writable: false,
      configurable: false,
    });
  }
  return tools;
}

/**
 * The tools `toAISDKTools` returns. Each declares the execution context as its AI SDK context, so
 * `generateText({ toolsContext: { schedule_meeting: { sessionId } } })` type-checks and reaches the executor.
 */
export type AISDKToolSet = Record<string, Tool<unknown, unknown, ExecutionContext>>;

/** The AI SDK validates `toolsContext` against this; the executor reads only ExecutionContext fields of it. */
const EXECUTION_CONTEXT_SCHEMA = jsonSchema<ExecutionContext>({ type: 'object', additionalProperties: true });

function aiSdkTool(
  executor: PersonaToolExecutor,
  definition: ToolDefinition,
  options: AISDKToolsOptions,
  views: RecentModelViews,
): Tool<unknown, unknown, ExecutionContext> {
  const contextOf = (execution: ToolExecutionOptions<ExecutionContext>) =>
    resolveContext(options.context, execution, (call) => pickExecutionContext(call.context));
  // A tool with `approval`: the AI SDK asks the person (its tool-approval-request / -response parts); toolwright
  // validates first, so an invalid call is never put to a person (it runs on to execute, which refuses it).
  const approval = definition.options.approval !== undefined;
  return {
    description: definition.description,
    inputSchema: jsonSchema<unknown>(toJsonSchema(definition) as JSONSchema7),
    contextSchema: EXECUTION_CONTEXT_SCHEMA,
    metadata: { toolwright: { tool: definition.name } },
    ...(approval
      ? {
          needsApproval: async (input: unknown, asked: { toolCallId: string; context?: ExecutionContext }) => {
            const execution = asked as ToolExecutionOptions<ExecutionContext>;
            const context = await contextOf(execution);
            const call = { id: asked.toolCallId, name: definition.name, arguments: input as ToolCall['arguments'] };
            const prepared = await executor.prepare(call, context);
            return prepared.ok && (await executor.approvals.needsApproval(prepared, context));
          },
        }
      : {}),
    execute: async (input: unknown, execution: ToolExecutionOptions<ExecutionContext>) => {
      const context = withSignal(await contextOf(execution), execution.abortSignal);
      const repairs = takeRepair(executor, execution.toolCallId);
      const call: ToolCall = {
        id: execution.toolCallId,
        name: definition.name,
        arguments: input as ToolCall['arguments'],
        ...(repairs === undefined ? {} : { transformations: repairs }),
      };
      // The AI SDK ran `execute` after its own approval (or after needsApproval said no person is needed): a permit for
      // this one call, used up by it (a call the handler makes itself is asked about again).
      const result = approval
        ? await executor.executeBound(
            call,
            context satisfies ExecutionContext,
            executor.approvals.bind({ callId: execution.toolCallId, tool: definition.name, approved: true }),
          )
        : await executor.execute(call, context satisfies ExecutionContext);
      options.onResult?.(result);
      if (!result.ok) throw new ToolResultError(result);
      views.remember(result);
      return result.value;
    },
    // The application gets the handler's value (`execute`'s output); the model reads toolwright's view of it: the
    // tool's `toModelOutput`, its content parts, or the value cut to the result budget (docs/results.md).
    toModelOutput: ({ toolCallId, output }) => toToolResultOutput(views.partsFor(definition, toolCallId, output)),
  };
}

/** The AI SDK's `ToolResultOutput` (what a tool's `toModelOutput` returns). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool<unknown, unknown, ExecutionContext>['toModelOutput']>>>;

/** The model's view as the AI SDK's `ToolResultOutput`: one text, one JSON value, or a content list with files. */
function toToolResultOutput(parts: readonly ContentPart[]): ToolResultOutput {
  if (parts.length === 1 && parts[0]!.type === 'text') return { type: 'text', value: parts[0]!.text };
  if (parts.length === 1 && parts[0]!.type === 'json') return { type: 'json', value: jsonValue(parts[0]!.value) };
  return {
    type: 'content',
    value: parts.map((part) => {
      switch (part.type) {
        case 'text':
          return { type: 'text', text: part.text };
        case 'json':
          return { type: 'text', text: JSON.stringify(jsonValue(part.value)) };
        case 'image':
          return 'data' in part
            ? { type: 'file', mediaType: part.mimeType, data: { type: 'data', data: part.data } }
            : { type: 'file', mediaType: part.mimeType ?? 'image/*', data: { type: 'url', url: new URL(part.url) } };
        case 'audio':
          return { type: 'file', mediaType: part.mimeType, data: { type: 'data', data: part.data } };
        case 'resource':
          return 'text' in part.resource
            ? { type: 'text', text: part.resource.text }
            : {
                type: 'file',
                mediaType: part.resource.mimeType ?? 'application/octet-stream',
                data: { type: 'data', data: part.resource.blob },
                filename: part.resource.uri.split('/').pop() ?? 'file',
              };
        case 'resource_link':
          return {
            type: 'text',
            text: `[file link: ${part.name} (${part.uri})${part.description ? `: ${part.description}` : ''}]`,
          };
      }
    }),
  };
}

/** A value as JSON data (what `JSON.stringify` keeps; a bigint as its digits). */
function jsonValue(value: unknown): Extract<ToolResultOutput, { type: 'json' }>['value'] {
  const text = JSON.stringify(value ?? null, (_key, item: unknown) =>
    typeof item === 'bigint' ? item.toString() : item,
  );
  return JSON.parse(text ?? 'null') as Extract<ToolResultOutput, { type: 'json' }>['value'];
}

/**
 * The AI SDK's `repairToolCall` (formerly `experimental_repairToolCall`) backed by toolwright's recovery instead of a
 * second model call:
 * - arguments text the AI SDK's JSON parse refused (Python literals, a fenced block, trailing commas, single quotes)
 *   is recovered losslessly under the tool's policy; the repairs are recorded and reported first in the call's
 *   ToolResult. Text that cannot be recovered exactly (cut off, two readings) is handed to `execute` as it is, so the
 *   model gets toolwright's explanation of what is wrong instead of a parse exception;
 * - a tool name the AI SDK does not know (`functions.schedule_meeting`, `Schedule-Meeting`, an alias) is resolved
 *   by toolwright's name resolution when the answer is unique.
 * Anything else is left to the AI SDK (`null`).
 */
export function createRepairToolCall(
  executor: PersonaToolExecutor,
  options: AISDKRepairOptions = {},
): ToolCallRepairFunction<ToolSet> {
  return async ({ toolCall, tools, error }) => {
    const names = registryNamesOf(tools);
    const repairs: Transformation[] = [];
    let toolName = toolCall.toolName;
    let definition = definitionFor(executor, names.get(toolName));
    if (NoSuchToolError.isInstance(error)) {
      const definitions = executor.tools().filter((candidate) => [...names.values()].includes(candidate.name));
      const resolution = resolveToolName(
        {
          version: 0,
          get: (name) => definitions.find((candidate) => candidate.name === name),
          list: () => definitions,
        },
        toolCall.toolName,
      );
      if (!resolution.found) return null;
      const frameworkName = [...names].find(([, registryName]) => registryName === resolution.name)?.[0];
      if (frameworkName === undefined) return null;
      repairs.push({ path: '', rule: 'tool-name', from: toolCall.toolName, to: resolution.name });
      toolName = frameworkName;
      definition = definitionFor(executor, resolution.name);
    } else if (!InvalidToolInputError.isInstance(error)) {
      return null;
    }
    if (definition === undefined) return null;
    const repaired = (input: string) => {
      if (repairs.length > 0) rememberRepair(executor, toolCall.toolCallId, repairs);
      return { ...toolCall, toolName, input };
    };
    if (NoSuchToolError.isInstance(error) && validJson(toolCall.input)) return repaired(toolCall.input);
    const policy = definition.options.coercion ?? options.policy ?? 'safe';
    try {
      const parsed = parseArguments(toolCall.input, policy, DEFAULT_LIMITS);
      repairs.push(...parsed.transformations);
      return repaired(JSON.stringify(parsed.value));
    } catch (parseError) {
      if (!ToolwrightError.isInstance(parseError)) throw parseError;
      // Not recoverable exactly: `execute` gets the text itself and answers with the executor's model-facing error.
      return repaired(JSON.stringify(toolCall.input));
    }
  };
}

function registryNamesOf(tools: ToolSet): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, candidate] of Object.entries(tools)) {
    const registryName = (candidate.metadata as Partial<ToolwrightToolMetadata> | undefined)?.toolwright?.tool;
    if (typeof registryName === 'string') names.set(name, registryName);
  }
  return names;
}

function definitionFor(executor: PersonaToolExecutor, registryName: string | undefined): ToolDefinition | undefined {
  return registryName === undefined
    ? undefined
    : executor.tools().find((definition) => definition.name === registryName);
}

function validJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
