/**
 * cohere: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §8).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { lowerByPolicy } from '../shared/lowering/keyword-policy';
import { coherePolicy, withoutDocumentKeywords } from '../shared/lowering/policies';
import { restoreNotes } from '../shared/lowering/reverse';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

/** `ToolV2`. */
export interface CohereTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface CohereToolsOptions extends ToolSetOptions {
  /** Lower for `strict_tools: true` (also moves `uniqueItems`); set `strictTools: true` on the request yourself. */
  readonly strict?: boolean;
}

export function lowerParameters(canonical: JsonSchema, options: { readonly strict?: boolean } = {}): JsonSchema {
  return lowerByPolicy(withoutDocumentKeywords(canonical), coherePolicy(options.strict ?? false));
}

export function createToolSet(source: ToolSource, options: CohereToolsOptions = {}): ToolSet<CohereTool> {
  return buildToolSet({
    provider: 'cohere',
    source,
    profile: PORTABLE_NAME_PROFILE,
    options,
    strict: false,
    lower: ({ name, description, parameters }) => ({
      type: 'function',
      function: {
        name,
        ...(description !== undefined ? { description } : {}),
        parameters: lowerParameters(parameters, options),
      },
    }),
  });
}

export function fromTool(tool: CohereTool | CohereTool['function'], options: ImportOptions = {}): ToolDefinition {
  const definition = 'function' in tool ? tool.function : tool;
  return importToolDefinition(definition.name, definition.description, restoreNotes(definition.parameters), options);
}
