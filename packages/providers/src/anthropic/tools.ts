/**
 * anthropic: definitions out (lowering) and back in (`fromTool`).
 * The wire format is summarized in `./index.ts` (provider-formats.md §3).
 */
import type { ToolDefinition } from '@toolwright/core';
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
}

export interface AnthropicToolsOptions extends ToolSetOptions {
  /** Strict tool use: the strict subset, `strict: true` on every tool. Default false. */
  readonly strict?: boolean;
  /**
   * The longest tool name to produce. Default 64 (older API versions and error messages); the current docs
   * allow 128.
   */
  readonly maxNameLength?: 64 | 128;
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
  return buildToolSet({
    provider: 'anthropic',
    source,
    profile: withMaxLength(ANTHROPIC_NAME_PROFILE, options.maxNameLength ?? 64),
    options,
    // Strict tool use keeps optional properties optional: no nulls to map back.
    strict: false,
    lower: ({ name, description, parameters }) => {
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
      return tool;
    },
  });
}

/** Imports an Anthropic tool into the IR, undoing this package's lowering (notes, input_examples). */
export function fromTool(tool: AnthropicTool, options: ImportOptions = {}): ToolDefinition {
  const parameters: JsonSchema = { ...tool.input_schema };
  if (tool.input_examples && tool.input_examples.length > 0) parameters['examples'] = tool.input_examples;
  return importToolDefinition(tool.name, tool.description, restoreNotes(parameters), options);
}
