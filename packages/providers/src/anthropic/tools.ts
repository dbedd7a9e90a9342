/**
 * anthropic: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §3).
 */
import { DefinitionError, type ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { isPlainObject, type JsonSchema } from '../shared/json-schema';
import { lowerByPolicy } from '../shared/lowering/keyword-policy';
import { ANTHROPIC_STRICT_POLICY, withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE, withMaxLength } from '../shared/name-profiles';
import { includes, notInVersion, resolveApiVersion } from '../shared/api-versions';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export interface AnthropicInputSchema {
  type: 'object';
  properties?: unknown;
  required?: string[];
  [keyword: string]: unknown;
}

/** `Tool` (custom tool) of the Messages API. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
  strict?: boolean;
  input_examples?: Array<Record<string, unknown>>;
  /** Left out of the prompt until the tool search tool returns a reference to it. */
  defer_loading?: boolean;
}

/** Anthropic's server-side tool search tool, natural-language queries (`ToolSearchToolBm25_20251119`). */
export interface AnthropicBm25ToolSearchTool {
  type: 'tool_search_tool_bm25_20251119';
  name: 'tool_search_tool_bm25';
}

/** Anthropic's server-side tool search tool, regular-expression queries (`ToolSearchToolRegex20251119`). */
export interface AnthropicRegexToolSearchTool {
  type: 'tool_search_tool_regex_20251119';
  name: 'tool_search_tool_regex';
}

export type AnthropicToolSearchTool = AnthropicBm25ToolSearchTool | AnthropicRegexToolSearchTool;

export interface AnthropicToolsOptions extends ToolSetOptions {
  /** Strict tool use: the strict subset, `strict: true` on every tool. Default false. */
  readonly strict?: boolean;
  /**
   * The longest tool name to produce. Default 64 (older API versions and error messages); the current docs
   * allow 128.
   */
  readonly maxNameLength?: 64 | 128;
  /**
   * Tool search: `defer_loading: true` on every tool but the `except` ones (registry names: the core set, always
   * loaded). Send the set with `anthropicToolSearchTool()`: the model searches the deferred tools on Anthropic's side
   * and loads the ones it needs. From API version 2025-11-19.
   */
  readonly deferLoading?: { readonly except?: readonly string[] };
}

/** The portable name rule (§3.1: 64 in older docs and errors, 128 in the current docs). */
export const ANTHROPIC_NAME_PROFILE = Object.freeze({ ...OPENAI_NAME_PROFILE, id: 'anthropic' });

/** The `input_schema` for a canonical schema. Root `examples` (argument objects) become `input_examples`. */
export function lowerParameters(
  canonical: JsonSchema,
  options: { readonly strict?: boolean } = {},
): AnthropicInputSchema {
  const parameters = withoutDocumentKeywords(canonical);
  const lowered = options.strict ? lowerByPolicy(parameters, ANTHROPIC_STRICT_POLICY) : parameters;
  return { ...lowered, type: 'object' };
}

/** Strict tool use and `input_examples` arrived with the structured-outputs beta. */
const STRICT_SINCE = '2025-11-13';
/** The tool search tool and `defer_loading`. */
const TOOL_SEARCH_SINCE = '2025-11-19';

/**
 * Anthropic's tool search tool, to send beside a tool set made with `deferLoading`: `'bm25'` (default) takes natural
 * language queries, `'regex'` patterns. It is never deferred itself.
 */
export function anthropicToolSearchTool(
  variant?: 'bm25',
  options?: { readonly version?: string },
): AnthropicBm25ToolSearchTool;
export function anthropicToolSearchTool(
  variant: 'regex',
  options?: { readonly version?: string },
): AnthropicRegexToolSearchTool;
export function anthropicToolSearchTool(
  variant: 'bm25' | 'regex' = 'bm25',
  options: { readonly version?: string } = {},
): AnthropicToolSearchTool {
  const version = resolveApiVersion('anthropic', options.version);
  if (!includes(version, TOOL_SEARCH_SINCE))
    throw notInVersion(
      'anthropic',
      options.version,
      'the tool search tool',
      TOOL_SEARCH_SINCE,
      `pin ${TOOL_SEARCH_SINCE} or later.`,
    );
  if (variant === 'regex') return { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
  if (variant === 'bm25') return { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  throw new DefinitionError(`unknown tool search variant ${JSON.stringify(variant)}.`, {
    target: 'anthropicToolSearchTool',
    fix: "use 'bm25' or 'regex'",
  });
}

export function createToolSet(source: ToolSource, options: AnthropicToolsOptions = {}): ToolSet<AnthropicTool> {
  const strict = options.strict ?? false;
  const version = resolveApiVersion('anthropic', options.version);
  const current = includes(version, STRICT_SINCE);
  if (strict && !current)
    throw notInVersion(
      'anthropic',
      options.version,
      'strict tool use',
      STRICT_SINCE,
      `leave strict off, or pin ${STRICT_SINCE} or later.`,
    );
  const deferred = deferredTools(options, version);
  const toolSet = buildToolSet({
    provider: 'anthropic',
    source,
    profile: withMaxLength(ANTHROPIC_NAME_PROFILE, options.maxNameLength ?? 64),
    options,
    // Strict tool use keeps optional properties optional: no nulls to map back.
    strict: false,
    lower: ({ definition, name, description, parameters }) => {
      const inputSchema = lowerParameters(parameters, { strict });
      const examples = inputSchema['examples'];
      // Before input_examples existed, root examples stay in input_schema (plain JSON Schema `examples`).
      const movedExamples =
        current &&
        Array.isArray(examples) &&
        examples.length > 0 &&
        examples.every((example) => isPlainObject(example));
      if (movedExamples) delete inputSchema['examples'];
      const tool: AnthropicTool = {
        name,
        ...(description !== undefined ? { description } : {}),
        input_schema: inputSchema,
      };
      if (movedExamples) tool.input_examples = examples;
      if (strict) tool.strict = true;
      if (deferred?.(definition.name)) tool.defer_loading = true;
      return tool;
    },
  });
  const missing = (options.deferLoading?.except ?? []).filter(
    (name) => !toolSet.definitions.some((definition) => definition.name === name),
  );
  if (missing.length > 0)
    throw new DefinitionError(
      `deferLoading.except names tools the set does not hold: ${missing.map((name) => JSON.stringify(name)).join(', ')}.`,
      { target: 'anthropic', property: 'deferLoading', fix: 'name registered tools of the set (registry names)' },
    );
  return toolSet;
}

/** Which tools `deferLoading` defers (`undefined`: none), checked against the version. */
function deferredTools(
  options: AnthropicToolsOptions,
  version: ReturnType<typeof resolveApiVersion>,
): ((name: string) => boolean) | undefined {
  if (options.deferLoading === undefined) return undefined;
  if (!includes(version, TOOL_SEARCH_SINCE))
    throw notInVersion(
      'anthropic',
      options.version,
      'defer_loading (tool search)',
      TOOL_SEARCH_SINCE,
      `leave deferLoading off, or pin ${TOOL_SEARCH_SINCE} or later.`,
    );
  const except = options.deferLoading.except ?? [];
  if (!Array.isArray(except) || !except.every((name) => typeof name === 'string'))
    throw new DefinitionError('deferLoading.except must be an array of tool names.', {
      target: 'anthropic',
      property: 'deferLoading',
      fix: 'pass the registry names of the tools to load up front',
    });
  const loaded = new Set(except);
  return (name) => !loaded.has(name);
}

/** Imports an Anthropic tool into the IR, undoing this package's lowering (notes, input_examples). */
export function fromTool(tool: AnthropicTool, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema = { ...tool.input_schema };
  if (tool.input_examples && tool.input_examples.length > 0) parameters['examples'] = tool.input_examples;
  return importToolDefinition(tool.name, tool.description, restoreNotes(parameters), options);
}
