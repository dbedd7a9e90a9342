/**
 * openai-responses: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §2).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { lowerOpenAIParameters } from '../shared/lowering/openai-strict';
import { undoLowering } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolRestriction, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

/** `FunctionTool` of the Responses API. */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

export interface OpenAIResponsesToolsOptions extends ToolSetOptions {
  /** Strict mode (see `@toolwright/providers/openai`). Default false; always sent explicitly. */
  readonly strict?: boolean;
}

/** Same limits as Chat Completions; the name length is assumed (§2.1 ⚠️). */
export const OPENAI_RESPONSES_LIMITS = Object.freeze({
  maxTools: 128,
  maxDescriptionLength: 1024,
  rootUnionsRejected: true,
});

/** `ToolChoiceAllowed`: the calls restricted to some of the tools sent. */
export interface OpenAIResponsesAllowedToolsChoice {
  type: 'allowed_tools';
  mode: 'auto' | 'required';
  tools: Array<{ type: 'function'; name: string }>;
}

/**
 * The `tool_choice` that restricts the calls to a tool set's `allow` (set with `allow`, while every tool is sent), or
 * `undefined` when the set has no such restriction (no `allow`, or the subset was sent instead).
 */
export function allowedToolsChoice(toolSet: {
  readonly restriction?: ToolRestriction;
}): OpenAIResponsesAllowedToolsChoice | undefined {
  const restriction = toolSet.restriction;
  if (restriction?.by !== 'provider') return undefined;
  return {
    type: 'allowed_tools',
    mode: restriction.mode,
    tools: restriction.providerNames.map((name) => ({ type: 'function', name })),
  };
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  return lowerOpenAIParameters(canonical, options);
}

export function createToolSet(
  source: ToolSource,
  options: OpenAIResponsesToolsOptions = {},
): ToolSet<OpenAIResponsesFunctionTool> {
  const strict = options.strict ?? false;
  return buildToolSet({
    provider: 'openai-responses',
    source,
    profile: OPENAI_NAME_PROFILE,
    options,
    strict,
    restriction: { maxTools: OPENAI_RESPONSES_LIMITS.maxTools },
    lower: ({ name, description, parameters }) => {
      const tool: OpenAIResponsesFunctionTool = {
        type: 'function',
        name,
        parameters: lowerParameters(parameters, { strict }),
        strict,
      };
      if (description !== undefined) tool.description = description;
      return tool;
    },
  });
}

/** Imports a Responses function tool into the IR, undoing this package's lowering. */
export function fromTool(tool: OpenAIResponsesFunctionTool, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema = tool.parameters ?? { type: 'object', properties: {} };
  return importToolDefinition(
    tool.name,
    tool.description,
    undoLowering(parameters, { strict: tool.strict === true }),
    options,
  );
}
