/**
 * bedrock: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §7).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import { type JsonObject, type JsonSchema } from '../shared/json-schema';
import { lowerByPolicy } from '../shared/lowering/keyword-policy';
import { ANTHROPIC_STRICT_POLICY, withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export const BEDROCK_NAME_PROFILE = Object.freeze({ ...OPENAI_NAME_PROFILE, id: 'bedrock' });

/** `ToolSpecification`. */
export interface BedrockToolSpecification {
  name: string;
  description?: string;
  inputSchema: { json: JsonObject };
  strict?: boolean;
}

/** `Tool` (the `toolSpec` member). */
export interface BedrockTool {
  toolSpec: BedrockToolSpecification;
}

export interface BedrockToolsOptions extends ToolSetOptions {
  /** `toolSpec.strict: true` with Anthropic's strict subset (select models only). Default false. */
  readonly strict?: boolean;
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonObject {
  const parameters = withoutDocumentKeywords(canonical);
  return (options.strict ? lowerByPolicy(parameters, ANTHROPIC_STRICT_POLICY) : parameters) as JsonObject;
}

export function createToolSet(source: ToolSource, options: BedrockToolsOptions = {}): ToolSet<BedrockTool> {
  const strict = options.strict ?? false;
  return buildToolSet({
    provider: 'bedrock',
    source,
    profile: BEDROCK_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => {
      // "description: minimum length 1": an empty one is left out.
      const toolSpec: BedrockToolSpecification = {
        name,
        ...(description ? { description } : {}),
        inputSchema: { json: lowerParameters(parameters, { strict }) },
      };
      if (strict) toolSpec.strict = true;
      return { toolSpec };
    },
  });
}

/** `toolConfig` for `ConverseCommand` (tools only; set `toolChoice` yourself). */
export function toToolConfiguration(source: ToolSource, options: BedrockToolsOptions = {}): { tools: BedrockTool[] } {
  return { tools: createToolSet(source, options).tools };
}

export function fromTool(tool: BedrockTool | BedrockToolSpecification, options: ImportOptions = {}): ToolDefinition {
  const spec = 'toolSpec' in tool ? tool.toolSpec : tool;
  return importToolDefinition(spec.name, spec.description, restoreNotes(spec.inputSchema.json), options);
}
