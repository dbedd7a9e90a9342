/**
 * mistral: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §5).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { lowerOpenAIStrict } from '../shared/lowering/openai-strict';
import { withoutDocumentKeywords } from '../shared/lowering/policies';
import { undoLowering } from '../shared/lowering/reverse';
import { OPENAI_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

/** Mistral's tool name rule (mistral-common's validator): `^[a-zA-Z0-9_-]{1,64}$`. */
export const MISTRAL_NAME_PROFILE = Object.freeze({ ...OPENAI_NAME_PROFILE, id: 'mistral' });

/** `Tool` (`FunctionT` inside). */
export interface MistralTool {
  type: 'function';
  function: { name: string; description?: string; strict?: boolean; parameters: Record<string, unknown> };
}

export interface MistralToolsOptions extends ToolSetOptions {
  /**
   * Send `strict: true` with OpenAI's strict lowering (all required, optional ones nullable). Mistral's strict
   * semantics are unverified (§5.1 ⚠️); default false.
   */
  readonly strict?: boolean;
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  const parameters = withoutDocumentKeywords(canonical);
  return options.strict ? lowerOpenAIStrict(parameters) : parameters;
}

export function createToolSet(source: ToolSource, options: MistralToolsOptions = {}): ToolSet<MistralTool> {
  const strict = options.strict ?? false;
  return buildToolSet({
    provider: 'mistral',
    source,
    profile: MISTRAL_NAME_PROFILE,
    options,
    strict,
    lower: ({ name, description, parameters }) => {
      const definition: MistralTool['function'] = {
        name,
        ...(description !== undefined ? { description } : {}),
        parameters: lowerParameters(parameters, { strict }),
      };
      if (strict) definition.strict = true;
      return { type: 'function', function: definition };
    },
  });
}

export function fromTool(tool: MistralTool | MistralTool['function'], options: ImportOptions = {}): ToolDefinition {
  const definition = 'function' in tool ? tool.function : tool;
  return importToolDefinition(
    definition.name,
    definition.description,
    undoLowering(definition.parameters, { strict: definition.strict === true }),
    options,
  );
}
