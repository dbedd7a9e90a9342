/**
 * @toolwright/interop/langchain: a registry's commands as LangChain StructuredTools (for `bindTools`, LangGraph's
 * ToolNode and agents), every call run by the PersonaToolExecutor; and LangChain tools imported into a registry, so
 * they run through the same pipeline and appear in every provider's format. Imports `@langchain/core` (a peer) and
 * core only.
 */
import { CallbackManager, parseCallbackConfigArg } from '@langchain/core/callbacks/manager';
import { ToolMessage } from '@langchain/core/messages';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import { toJsonSchema as langChainToJsonSchema } from '@langchain/core/utils/json_schema';
import {
  DefinitionError,
  definitionFromJsonSchema,
  toJsonSchema,
  type ContextKey,
  type ExecutionContext,
  type JsonSchemaObject,
  type JsonSchemaToolOptions,
  type PersonaToolExecutor,
  type PropertyDefinition,
  type ToolCall,
  type ToolDefinition,
  type ToolInvocationContext,
  type ToolRegistry,
  type ToolResult,
} from '@toolwright/core';
import { partsText } from '@toolwright/core/internal';
import {
  frameworkToolNames,
  pickExecutionContext,
  resolveContext,
  resultParts,
  selectDefinitions,
  withSignal,
  type ContextSource,
} from '../shared';
import { ToolResultError } from '../shared/errors';

export { ToolResultError } from '../shared/errors';
export type { ContextSource } from '../shared/context';

export interface LangChainToolsOptions {
  /**
   * The trusted context of each call: a fixed context, or a function of the call's RunnableConfig (what the
   * application passed to `invoke`/`stream`: `configurable`, `metadata`, `signal`). Default: the execution-context
   * fields (`sessionId`, `jobId`, ...) of `config.configurable`. `config.signal` becomes the context's `signal`.
   */
  readonly context?: ContextSource<ToolRunnableConfig>;
  /** Registry names of the tools to expose; default all of the executor's tools. */
  readonly include?: readonly string[];
  /** Called with every ToolResult (transformations, duration, error code). */
  readonly onResult?: (result: ToolResult) => void;
}

/** What a LangChain tool call looks like when ToolNode (or a caller) passes the whole call. */
interface LangChainToolCall {
  readonly type: 'tool_call';
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
}

function isToolCall(value: unknown): value is LangChainToolCall {
  return (
    typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool_call' && 'args' in value
  );
}

/** The artifact of every ToolMessage this adapter returns: the whole ToolResult, transformations included. */
export interface ToolwrightArtifact {
  readonly toolwright: ToolResult;
}

/**
 * A toolwright command as a LangChain StructuredTool. Its `schema` is the registry's JSON Schema (what `bindTools`
 * sends); its `invoke` skips LangChain's own schema check, which would refuse what the executor recovers, and runs
 * the pipeline instead. Input: the arguments object or text, or a whole tool call (`{ type: 'tool_call', id, name,
 * args }`, as ToolNode sends it). Output for a tool call: a ToolMessage (`status: 'error'` with the model-facing
 * message when the call failed, the ToolResult as `artifact`); for plain arguments: the handler's value, or a thrown
 * ToolResultError whose message is the model-facing text.
 */
export class ToolwrightLangChainTool extends StructuredTool {
  static override lc_name(): string {
    return 'ToolwrightLangChainTool';
  }

  name: string;
  description: string;
  schema: JsonSchemaObject;
  /** The registry name the executor runs. */
  readonly registryName: string;

  constructor(
    private readonly executor: PersonaToolExecutor,
    definition: ToolDefinition,
    name: string,
    private readonly options: LangChainToolsOptions = {},
  ) {
    super();
    this.name = name;
    this.description = definition.description;
    this.schema = toJsonSchema(definition);
    this.registryName = definition.name;
  }

  // The base class validates against `schema` here, before any tool code runs; the executor does that instead.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of LangChain's StructuredTool.call.
  override async call(arg: unknown, configArg?: unknown, tags?: string[]): Promise<any> {
    const config = parseCallbackConfigArg(configArg as ToolRunnableConfig) as ToolRunnableConfig;
    const toolCall = isToolCall(arg) ? arg : (config.toolCall as LangChainToolCall | undefined);
    const input = isToolCall(arg) ? arg.args : arg;
    const callId = toolCall?.id ?? '';
    const callbackManager = CallbackManager.configure(
      config.callbacks,
      this.callbacks,
      config.tags ?? tags,
      this.tags,
      config.metadata,
      this.metadata,
      { verbose: this.verbose },
    );
    const callbackInput = typeof input === 'string' ? input : JSON.stringify(input ?? {});
    const runManager = await callbackManager?.handleToolStart(
      this.toJSON(),
      callbackInput,
      config.runId,
      undefined,
      undefined,
      undefined,
      config.runName ?? this.name,
      toolCall?.id,
    );
    const context = withSignal(
      await resolveContext(this.options.context, config, (runConfig) => pickExecutionContext(runConfig.configurable)),
      config.signal,
    );
    const call: ToolCall = { id: callId, name: this.registryName, arguments: input as ToolCall['arguments'] };
    const result = await this.executor.execute(call, context satisfies ExecutionContext);
    this.options.onResult?.(result);
    if (toolCall?.id === undefined) {
      if (!result.ok) {
        const error = new ToolResultError(result);
        await runManager?.handleToolError(error);
        throw error;
      }
      await runManager?.handleToolEnd(result.value);
      return result.value;
    }
    const message = new ToolMessage({
      content: result.ok ? contentOf(result) : result.error.message,
      tool_call_id: toolCall.id,
      name: this.name,
      status: result.ok ? 'success' : 'error',
      artifact: { toolwright: result } satisfies ToolwrightArtifact,
    });
    await runManager?.handleToolEnd(message);
    return message;
  }

  protected override async _call(): Promise<never> {
    throw new DefinitionError('ToolwrightLangChainTool runs through call(), never _call()', { target: this.name });
  }
}

/**
 * What the model reads (docs/results.md): the result's model view (its `toModelOutput` view, content parts, or the value
 * cut to the budget) as one text, or, with images, as LangChain content blocks (`text` and `image_url`, a data URL for
 * bytes), which LangChain's chat models convert to their provider's form. The whole value stays in the artifact.
 */
function contentOf(
  result: Extract<ToolResult, { ok: true }>,
): string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] {
  const parts = resultParts(result);
  if (!parts.some((part) => part.type === 'image')) return partsText(parts);
  return parts.map((part) =>
    part.type === 'image'
      ? {
          type: 'image_url',
          image_url: { url: 'data' in part ? `data:${part.mimeType};base64,${part.data}` : part.url },
        }
      : { type: 'text', text: partsText([part]) },
  );
}

/**
 * The executor's tools as LangChain StructuredTools, for `model.bindTools(tools)` and `new ToolNode(tools)`. Names
 * that do not fit `^[a-zA-Z0-9_-]{1,64}$` get `_` for each other character; the executor is always called with the
 * registry name.
 */
export function toLangChainTools(
  executor: PersonaToolExecutor,
  options: LangChainToolsOptions = {},
): ToolwrightLangChainTool[] {
  const definitions = selectDefinitions(executor.tools(), options.include, 'toLangChainTools');
  return [...frameworkToolNames(definitions, 'toLangChainTools')].map(
    ([name, definition]) => new ToolwrightLangChainTool(executor, definition, name, options),
  );
}

/** The part of LangChain's tool interface an import needs (any StructuredTool, `tool(...)`, an MCP adapter's tool). */
export interface LangChainToolLike {
  readonly name: string;
  readonly description: string;
  /** A zod schema or a JSON Schema. */
  readonly schema: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- LangChain's own parameter types, structurally.
  invoke(input: any, config?: any): Promise<unknown>;
}

export interface LangChainToolImportOptions extends JsonSchemaToolOptions {
  /**
   * Properties of the tool's schema that hold trusted context, by the context key that fills them. Properties named
   * exactly like a context key (`session_id`, `job_id`, `flow_step_id`, `source_url`, `image_url`, `handler_config`,
   * `persona`) are context fields without being listed. A context field is left out of every model-facing schema;
   * whatever the model sends for it is dropped and logged, and the executor's context fills it.
   */
  readonly contextFields?: Readonly<Record<string, ContextKey>>;
}

const CONTEXT_KEYS: ReadonlySet<string> = new Set<ContextKey>([
  'session_id',
  'job_id',
  'flow_step_id',
  'source_url',
  'image_url',
  'handler_config',
  'persona',
]);

/**
 * Imports a LangChain tool into a registry: its JSON Schema (converted from zod by LangChain's own `toJsonSchema`)
 * through core's JSON Schema import, its `invoke` as the handler. Calls to it then go through the whole pipeline
 * (name resolution, normalization, context injection, validation, timeout, result handling) and it appears in every
 * provider's tool format like any other registry tool. The handler calls `tool.invoke(params, config)` with the
 * normalized, validated arguments, `config.signal` (timeout and cancellation) and the trusted context's fields in
 * `config.configurable`.
 */
export function registerLangChainTool(
  registry: ToolRegistry,
  tool: LangChainToolLike,
  options: LangChainToolImportOptions = {},
): ToolDefinition {
  const target = `registerLangChainTool(${typeof tool?.name === 'string' ? `"${tool.name}"` : 'tool'})`;
  if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.invoke !== 'function') {
    throw new DefinitionError('the tool is not a LangChain tool (it needs a string `name` and an `invoke` function)', {
      target,
      fix: 'pass a StructuredTool, a tool(...) or an MCP adapter tool',
    });
  }
  let parameters: Record<string, unknown>;
  try {
    parameters = langChainToJsonSchema(tool.schema as Parameters<typeof langChainToJsonSchema>[0]);
  } catch (error) {
    throw new DefinitionError(
      `its schema cannot be converted to JSON Schema (${error instanceof Error ? error.message : String(error)})`,
      { target, fix: 'give the tool a zod object schema or a JSON Schema object' },
      { cause: error },
    );
  }
  const { contextFields = {}, ...importOptions } = options;
  const imported = definitionFromJsonSchema(
    { name: tool.name, description: tool.description, parameters },
    importOptions,
  );
  const definition = withContextFields(imported, contextFields, target);
  const invoke = tool.invoke.bind(tool);
  const handler = (params: Record<string, unknown>, invocation: ToolInvocationContext) => {
    const { signal: _signal, ...configurable } = pickExecutionContext(invocation.context);
    return invoke(
      { ...params },
      {
        signal: invocation.signal,
        configurable,
        runName: tool.name,
        metadata: { toolwrightCallId: invocation.callId },
      },
    );
  };
  return registry.registerDefinition(definition, { kind: 'function', handler });
}

/** Imports several LangChain tools (a collection of MCP and custom tools); returns their definitions. */
export function registerLangChainTools(
  registry: ToolRegistry,
  tools: readonly LangChainToolLike[],
  options: LangChainToolImportOptions = {},
): ToolDefinition[] {
  return tools.map((tool) => registerLangChainTool(registry, tool, options));
}

function withContextFields(
  definition: ToolDefinition,
  contextFields: Readonly<Record<string, ContextKey>>,
  target: string,
): ToolDefinition {
  const declared = new Set(definition.parameters.properties.map((property) => property.name));
  for (const [name, key] of Object.entries(contextFields)) {
    if (!declared.has(name))
      throw new DefinitionError(`contextFields names "${name}", which the tool's schema does not declare`, {
        target,
        fix: `use one of ${[...declared].join(', ')}`,
      });
    if (!CONTEXT_KEYS.has(key))
      throw new DefinitionError(`contextFields maps "${name}" to "${key}", which is not a context key`, {
        target,
        fix: `use one of ${[...CONTEXT_KEYS].join(', ')}`,
      });
  }
  let changed = false;
  const properties = definition.parameters.properties.map((property): PropertyDefinition => {
    const key = Object.hasOwn(contextFields, property.name)
      ? contextFields[property.name]
      : CONTEXT_KEYS.has(property.name)
        ? (property.name as ContextKey)
        : undefined;
    if (key === undefined || property.context === key) return property;
    changed = true;
    return { ...property, context: key };
  });
  if (!changed) return definition;
  return Object.freeze({
    ...definition,
    parameters: Object.freeze({ ...definition.parameters, properties: Object.freeze(properties) }),
  });
}
