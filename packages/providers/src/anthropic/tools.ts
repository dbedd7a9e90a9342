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
import { assertInVersion, includes, resolveApiVersion, type ApiVersion } from '../shared/api-versions';
import {
  buildToolSet,
  namedTools,
  resolveToolSetDefinitions,
  type ToolSet,
  type ToolSetOptions,
} from '../shared/tool-set';

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
  assertInVersion('anthropic', options.version, resolveApiVersion('anthropic', options.version), {
    name: 'the tool search tool',
    since: TOOL_SEARCH_SINCE,
    fix: `pin ${TOOL_SEARCH_SINCE} or later.`,
  });
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
  if (strict)
    assertInVersion('anthropic', options.version, version, {
      name: 'strict tool use',
      since: STRICT_SINCE,
      fix: `leave strict off, or pin ${STRICT_SINCE} or later.`,
    });
  const definitions = resolveToolSetDefinitions(source, options.only);
  const deferred = deferredTools(options, version, definitions);
  return buildToolSet({
    provider: 'anthropic',
    source: definitions,
    profile: withMaxLength(ANTHROPIC_NAME_PROFILE, options.maxNameLength ?? 64),
    options, // `only` again: the definitions already are the ones it names
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
      if (deferred?.has(definition.name)) tool.defer_loading = true;
      return tool;
    },
  });
}

/** The tools `deferLoading` defers (`undefined`: none): every tool of the set but the `except` ones. */
function deferredTools(
  options: AnthropicToolsOptions,
  version: ApiVersion,
  definitions: readonly ToolDefinition[],
): ReadonlySet<string> | undefined {
  if (options.deferLoading === undefined) return undefined;
  assertInVersion('anthropic', options.version, version, {
    name: 'defer_loading (tool search)',
    since: TOOL_SEARCH_SINCE,
    fix: `leave deferLoading off, or pin ${TOOL_SEARCH_SINCE} or later.`,
  });
  const loaded = namedTools(options.deferLoading.except ?? [], definitions, {
    target: 'anthropic',
    property: 'deferLoading.except',
  });
  return new Set(definitions.map((definition) => definition.name).filter((name) => !loaded.has(name)));
}

/** Imports an Anthropic tool into the IR, undoing this package's lowering (notes, input_examples). */
export function fromTool(tool: AnthropicTool, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema = { ...tool.input_schema };
  if (tool.input_examples && tool.input_examples.length > 0) parameters['examples'] = tool.input_examples;
  return importToolDefinition(tool.name, tool.description, restoreNotes(parameters), options);
}
