/**
 * The provider spec: what every provider module implements, once, as one object (`defineProvider({...})`), in the
 * manner of the AI SDK's `LanguageModelV2`. Four concerns, each typed with the provider's own shapes:
 *   tools    definitions out (`createToolSet`), what the lint reads of a lowered tool, and the reverse import
 *   calls    calls in, whole (`parse`) and streamed (`createStreamAccumulator`)
 *   results  results back (`toMessage`, and `toMessages` when parallel results travel together)
 * `defineProvider` derives the rest (`toTools`, the default `toMessages`, and `lower`, which lowers a tool set and
 * returns its lint findings in the same pass), so no provider writes them by hand.
 */
import type { ToolDefinition, ToolResult } from '@toolwright/core';
import type { ParsedToolCall } from './calls';
import type { ToolSource } from './definitions';
import type { ImportOptions } from './import-definition';
import type { JsonSchema } from './json-schema';
import { loweredSchemaFindings } from './lowering-findings';
import type {
  LintFinding,
  LoweredTool,
  LoweringResult,
  ProviderDescriptor,
  ProviderInfo,
  ProviderLintOptions,
} from './provider';
import { toolsAlone, type ToolSet } from './tool-set';
import type { ToolCallAccumulator } from './streaming';

/** Definitions out, and back in. */
export interface ProviderToolsSpec<TTool, TToolOptions> {
  /** Lowers the tools for the provider, keeping the name codec and canonical schemas to read calls with. */
  createToolSet(this: void, source: ToolSource, options?: TToolOptions): ToolSet<TTool>;
  /** The lowered parameters of one of its tools (what the lint checks). */
  parametersOf(this: void, tool: TTool): JsonSchema | undefined;
  /** The tool's name as the provider sees it. */
  nameOf(this: void, tool: TTool): string;
  /** Checks only this provider makes (strict-mode limits, property names, ...), on the lowered tools. */
  lint?(this: void, lowered: readonly LoweredTool<TTool>[], options: ProviderLintOptions): LintFinding[];
  /** The reverse import: one of its tools into the IR, undoing this package's lowering where it is reversible. */
  fromTool(this: void, tool: NoInfer<TTool>, options?: ImportOptions): ToolDefinition;
}

/** Calls in. */
export interface ProviderCallsSpec<TResponse, TEvent, TParseOptions> {
  /** The calls of one whole response. */
  parse(this: void, response: TResponse, options?: TParseOptions): ParsedToolCall[];
  /** An accumulator for the provider's stream events; absent when calls never arrive streamed (MCP requests are whole). */
  createStreamAccumulator?(this: void, options?: TParseOptions): ToolCallAccumulator<TEvent>;
}

/** Results back. */
export interface ProviderResultsSpec<TMessage, TResultOptions> {
  /** One result as the message (or block) that answers its call. */
  toMessage(this: void, result: ToolResult, options?: TResultOptions): TMessage;
  /** Parallel results; default one message per result, in order. */
  toMessages?(this: void, results: readonly ToolResult[], options?: TResultOptions): TMessage[];
}

/** What a provider module writes. */
export interface ProviderSpec<
  TTool,
  TToolOptions,
  TResponse,
  TEvent,
  TParseOptions,
  TMessage,
  TResultOptions,
> extends ProviderInfo {
  readonly tools: ProviderToolsSpec<TTool, TToolOptions>;
  readonly calls: ProviderCallsSpec<TResponse, TEvent, TParseOptions>;
  readonly results: ProviderResultsSpec<TMessage, TResultOptions>;
}

/** A provider: its spec, plus what `defineProvider` derives from it. */
export interface Provider<TTool, TToolOptions, TResponse, TEvent, TParseOptions, TMessage, TResultOptions>
  extends
    ProviderSpec<TTool, TToolOptions, TResponse, TEvent, TParseOptions, TMessage, TResultOptions>,
    ProviderDescriptor<TTool, TToolOptions> {
  readonly results: Required<ProviderResultsSpec<TMessage, TResultOptions>>;
  /** The provider's tool definitions alone (`createToolSet(...).tools`). */
  toTools(this: void, source: ToolSource, options?: TToolOptions): TTool[];
}

/** The provider's types, read back from its object (`ToolOf<typeof openai.provider>` is `OpenAIChatTool`). */
export type ToolOf<TProvider> = TProvider extends ProviderToolsView<infer TTool, infer _TToolOptions> ? TTool : never;
export type ToolOptionsOf<TProvider> =
  TProvider extends ProviderToolsView<infer _TTool, infer TToolOptions> ? TToolOptions : never;

/** The part of a provider the provider-neutral API needs to adapt and import tools. */
export interface ProviderToolsView<TTool, TToolOptions> {
  readonly tools: ProviderToolsSpec<TTool, TToolOptions>;
}

/**
 * Defines a provider from its spec. The tool type is read from `createToolSet` alone (`fromTool` may accept more
 * shapes than it produces, and takes what it produces).
 */
export function defineProvider<TTool, TToolOptions, TResponse, TEvent, TParseOptions, TMessage, TResultOptions>(
  spec: ProviderSpec<TTool, TToolOptions, TResponse, TEvent, TParseOptions, TMessage, TResultOptions>,
): Provider<TTool, TToolOptions, TResponse, TEvent, TParseOptions, TMessage, TResultOptions> {
  const { tools, calls, results } = spec;
  const toMessages =
    results.toMessages ??
    ((list: readonly ToolResult[], options?: TResultOptions) =>
      list.map((result) => results.toMessage(result, options)));
  const lower = (
    source: ToolSource,
    options?: TToolOptions,
    lintOptions: ProviderLintOptions = { strict: false },
  ): LoweringResult<TTool> => {
    const toolSet = tools.createToolSet(source, options);
    const lowered = toolSet.tools.map((tool: TTool, index: number): LoweredTool<TTool> => ({
      tool,
      name: toolSet.definitions[index]?.name ?? tools.nameOf(tool),
      parameters: tools.parametersOf(tool),
    }));
    const findings = lowered.flatMap(({ name, parameters }) =>
      parameters ? loweredSchemaFindings(spec, name, parameters) : [],
    );
    if (tools.lint) findings.push(...tools.lint(lowered, lintOptions));
    return { toolSet, findings };
  };
  return Object.freeze({
    id: spec.id,
    label: spec.label,
    module: spec.module,
    nameProfile: spec.nameProfile,
    limits: spec.limits,
    argumentsEncoding: spec.argumentsEncoding,
    errorChannel: spec.errorChannel,
    supportsStrict: spec.supportsStrict,
    tools,
    calls,
    results: Object.freeze({ toMessage: results.toMessage, toMessages }),
    createToolSet: tools.createToolSet,
    parametersOf: tools.parametersOf,
    nameOf: tools.nameOf,
    lower,
    toTools: (source: ToolSource, options?: TToolOptions) =>
      toolsAlone(tools.createToolSet(source, options), 'toTools'),
  });
}
