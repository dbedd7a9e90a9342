/**
 * ollama: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §6).
 */
import type { ToolDefinition } from '@toolwright/core';
import type { ToolSource } from '../shared/definitions';
import { importToolDefinition, type ImportOptions } from '../shared/import-definition';
import type { JsonSchema } from '../shared/json-schema';
import { inlineLocalReferences, lowerByPolicy } from '../shared/lowering/keyword-policy';
import { OLLAMA_POLICY, withoutDocumentKeywords } from '../shared/lowering/policies';
import { undoLowering } from '../shared/lowering/reverse';
import { PORTABLE_NAME_PROFILE } from '../shared/name-profiles';
import { buildToolSet, type ToolSet, type ToolSetOptions } from '../shared/tool-set';

export interface OllamaParameters {
  type: string;
  required?: string[];
  properties?: Record<
    string,
    { type?: string | string[]; description?: string; enum?: unknown[]; items?: unknown; [keyword: string]: unknown }
  >;
  $defs?: unknown;
  [keyword: string]: unknown;
}

/** `Tool` of the ollama JS client. */
export interface OllamaTool {
  type: 'function';
  function: { name: string; description?: string; parameters: OllamaParameters };
}

export interface OllamaToolsOptions extends ToolSetOptions {
  /**
   * `portable` (default): only the keywords the server keeps, the rest folded into descriptions.
   * `none`: the canonical schema as is (the server drops what it does not know).
   */
  readonly lowering?: 'portable' | 'none';
}

export function lowerParameters(
  canonical: JsonSchema,
  options: { readonly lowering?: 'portable' | 'none' } = {},
): OllamaParameters {
  const parameters = withoutDocumentKeywords(canonical);
  if (options.lowering === 'none') return parameters as OllamaParameters;
  return lowerByPolicy(inlineLocalReferences(parameters), OLLAMA_POLICY) as OllamaParameters;
}

export function createToolSet(source: ToolSource, options: OllamaToolsOptions = {}): ToolSet<OllamaTool> {
  return buildToolSet({
    provider: 'ollama',
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

/** Imports an Ollama tool into the IR: description notes back into keywords, objects closed again. */
export function fromTool(tool: OllamaTool, options: ImportOptions = {}): ToolDefinition {
  return importToolDefinition(
    tool.function.name,
    tool.function.description,
    undoLowering(tool.function.parameters, { closeObjects: true }),
    options,
  );
}
