/**
 * openai: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §1).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { lowerOpenAIParameters } from '../shared/lowering/openai-strict';
import { undoLowering } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import { includes, notInVersion, resolveApiVersion } from '../shared/api-versions';
import { buildToolSet, type ToolRestriction, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export interface OpenAIFunctionDefinition {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict?: boolean | null;
}

/** `ChatCompletionFunctionTool`. */
export interface OpenAIChatTool {
  type: 'function';
  function: OpenAIFunctionDefinition;
}

export interface OpenAIToolsOptions extends ToolSetOptions {
  /**
   * Strict mode (Structured Outputs): every property required, optional ones nullable, `additionalProperties:
   * false` everywhere, unsupported keywords moved into descriptions. Default false (Chat Completions' default).
   */
  readonly strict?: boolean;
}

/** `ChatCompletionAllowedToolChoice`: the calls restricted to some of the tools sent. */
export interface OpenAIAllowedToolsChoice {
  type: 'allowed_tools';
  allowed_tools: { mode: 'auto' | 'required'; tools: Array<{ type: 'function'; function: { name: string } }> };
}

/**
 * The `tool_choice` that restricts the calls to a tool set's `allow` (set with `allow`, while every tool is sent), or
 * `undefined` when the set has no such restriction (no `allow`, or the subset was sent instead).
 */
export function allowedToolsChoice(toolSet: {
  readonly restriction?: ToolRestriction;
}): OpenAIAllowedToolsChoice | undefined {
  const restriction = toolSet.restriction;
  if (restriction?.by !== 'provider') return undefined;
  return {
    type: 'allowed_tools',
    allowed_tools: {
      mode: restriction.mode,
      tools: restriction.providerNames.map((name) => ({ type: 'function', function: { name } })),
    },
  };
}

/** The limits of §1.1 (🧪 observed API errors). */
export const OPENAI_LIMITS = Object.freeze({
  maxTools: 128,
  maxDescriptionLength: 1024,
  rootUnionsRejected: true,
});

/** The `parameters` OpenAI gets for a canonical schema. */
export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  return lowerOpenAIParameters(canonical, options);
}

export function createToolSet(source: ToolSource, options: OpenAIToolsOptions = {}): ToolSet<OpenAIChatTool> {
  const strict = options.strict ?? false;
  const version = resolveApiVersion('openai', options.version);
  if (!includes(version, TOOLS_SINCE)) {
    throw notInVersion(
      'openai',
      options.version,
      '`tools`',
      TOOLS_SINCE,
      'that API takes the legacy `functions` field: send openai.toFunctions(registry, { version }) as `functions`, or pin a later version.',
    );
  }
  if (strict && !includes(version, STRICT_SINCE)) {
    throw notInVersion(
      'openai',
      options.version,
      '`strict: true` (Structured Outputs)',
      STRICT_SINCE,
      `leave strict off, or pin ${STRICT_SINCE} or later.`,
    );
  }
  return buildToolSet({
    provider: 'openai',
    source,
    profile: OPENAI_NAME_PROFILE,
    options,
    strict,
    restriction: { maxTools: OPENAI_LIMITS.maxTools },
    lower: ({ name, description, parameters }) => {
      const definition: OpenAIFunctionDefinition = { name };
      if (description !== undefined) definition.description = description;
      definition.parameters = lowerParameters(parameters, { strict });
      if (strict) definition.strict = true;
      return { type: 'function', function: definition };
    },
  });
}

/** OpenAI's `functions` era ended with `tools` on this date; Structured Outputs (`strict`) came later. */
const TOOLS_SINCE = '2023-11-06';
const STRICT_SINCE = '2024-08-06';

export type OpenAIFunctionsOptions = ToolSetOptions;

/**
 * The legacy `functions` request field (`ChatCompletionCreateParams.Function[]`: `{name, description, parameters}`,
 * no `strict`), for APIs pinned before `tools` (2023-06-13 to 2023-11-05). OpenAI still accepts it, deprecated.
 */
export function createFunctionSet(
  source: ToolSource,
  options: OpenAIFunctionsOptions = {},
): ToolSet<OpenAIFunctionDefinition> {
  return buildToolSet({
    provider: 'openai',
    source,
    profile: OPENAI_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => ({
      name,
      ...(description !== undefined ? { description } : {}),
      parameters: lowerParameters(parameters),
    }),
  });
}

/** The `functions` of a Chat Completions request pinned to the functions era (see `createFunctionSet`). */
export function toFunctions(source: ToolSource, options: OpenAIFunctionsOptions = {}): OpenAIFunctionDefinition[] {
  return createFunctionSet(source, options).tools;
}

/**
 * Imports an OpenAI function tool into the IR, undoing this package's lowering (strict optionals, description
 * notes). Pass the tool set's codec to get the registry name back.
 */
export function fromTool(tool: OpenAIChatTool | OpenAIFunctionDefinition, options: ImportOptions = {}): ToolDefinition {
  const definition = 'function' in tool ? tool.function : tool;
  const parameters: JsonSchema = definition.parameters ?? { type: 'object', properties: {} };
  return importToolDefinition(
    definition.name,
    definition.description,
    undoLowering(parameters, { strict: definition.strict === true }),
    options,
  );
}
