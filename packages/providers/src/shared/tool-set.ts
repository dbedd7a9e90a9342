/**
 * A tool set: the provider's tool definitions together with what is needed to read the calls that come back
 * (the name codec, and for strict sets the canonical schemas that say which nulls mean "absent").
 */
import { DefinitionError, type ToolDefinition } from '@toolwright/core';
import { canonicalParameters, resolveDefinitions, type ToolSource } from './definitions';
import type { JsonSchema } from './json-schema';
import { resolveApiVersion } from './api-versions';
import type { ProviderId } from './provider-id';
import { lowerCrossFieldRules } from './lowering/cross-field';
import { ToolNameCodec, type ToolNameCodecOptions } from './name-codec';
import type { ToolNameProfile } from './name-profiles';

export type { ProviderId } from './provider-id';

/** What `parseToolCalls` needs from a tool set. */
export interface ToolSetContext {
  readonly codec: ToolNameCodec;
  /** Whether optional properties were sent as required-and-nullable (OpenAI/Mistral strict). */
  readonly strict: boolean;
  /** The canonical parameters of a registry name (before lowering). */
  canonicalSchema(name: string): JsonSchema | undefined;
}

export interface ToolSet<TTool> extends ToolSetContext {
  readonly provider: ProviderId;
  /** The provider's tool definitions, in registration order. */
  readonly tools: TTool[];
  readonly definitions: readonly ToolDefinition[];
}

/** Options every `toTools`/`createToolSet` takes. */
export interface ToolSetOptions extends ToolNameCodecOptions {
  /**
   * The provider API version to emit for: a date (`YYYY-MM` or `YYYY-MM-DD`) or `latest` (default). See
   * `getApiVersions(provider)`; an unknown version is a DefinitionError.
   */
  readonly version?: string;
  /**
   * A codec built beforehand (`ToolNameCodec.create(names, profile)`); it must know every tool of the set.
   * Default: a new codec for these tools and this provider's name rule.
   */
  readonly codec?: ToolNameCodec;
  /**
   * Only these tools (registry names), in the source's order: the core set plus what a search found
   * (`registry.search`, the `search_tools` built-in). A name the source does not hold is a DefinitionError.
   * Default: every tool of the source.
   */
  readonly only?: readonly string[];
}

export interface LoweringInput {
  readonly definition: ToolDefinition;
  /** The name the provider sees. */
  readonly name: string;
  /** The tool's description; `undefined` when empty. */
  readonly description: string | undefined;
  /** The canonical parameters (a fresh copy: the lowering may change it). */
  readonly parameters: JsonSchema;
}

export function buildToolSet<TTool>(args: {
  readonly provider: ProviderId;
  readonly source: ToolSource;
  readonly profile: ToolNameProfile;
  readonly options: ToolSetOptions;
  readonly strict: boolean;
  readonly lower: (input: LoweringInput) => TTool;
}): ToolSet<TTool> {
  resolveApiVersion(args.provider, args.options.version);
  const definitions = resolveToolSetDefinitions(args.source, args.options.only);
  const codec =
    args.options.codec ??
    ToolNameCodec.create(
      definitions.map((definition) => definition.name),
      args.profile,
      args.options,
    );
  const tools = definitions.map((definition) => {
    const description = definition.description === '' ? undefined : definition.description;
    const parameters = canonicalParameters(definition);
    // Cross-field rules: kept as JSON Schema for MCP, moved into the note and the description for chat providers.
    const lowered =
      args.provider === 'mcp' ? { description, parameters } : lowerCrossFieldRules(definition, description, parameters);
    return args.lower({ definition, name: codec.encode(definition.name), ...lowered });
  });
  // The canonical schemas are exported again on first use (parsing strict calls, coercing Qwen's raw values),
  // never shared with the tools handed out.
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const canonical = new Map<string, JsonSchema>();
  return {
    provider: args.provider,
    tools,
    definitions,
    codec,
    strict: args.strict,
    canonicalSchema: (name: string) => {
      const cached = canonical.get(name);
      if (cached) return cached;
      const definition = byName.get(name);
      if (!definition) return undefined;
      const schema = canonicalParameters(definition);
      canonical.set(name, schema);
      return schema;
    },
  };
}

/**
 * The definitions of a tool set: the source's, or only those `only` names (in the source's order). `only` must be an
 * array of names the source holds, else a DefinitionError.
 */
export function resolveToolSetDefinitions(
  source: ToolSource,
  only: readonly string[] | undefined,
): readonly ToolDefinition[] {
  const definitions = resolveDefinitions(source);
  if (only === undefined) return definitions;
  const wanted = namedTools(only, definitions, { target: 'createToolSet', property: 'only' });
  return definitions.filter((definition) => wanted.has(definition.name));
}

/**
 * Tool names an option lists (`only`, Anthropic's `deferLoading.except`): an array of registry names, each held by
 * `definitions`; anything else is a DefinitionError naming the option.
 */
export function namedTools(
  names: unknown,
  definitions: readonly ToolDefinition[],
  option: { readonly target: string; readonly property: string },
): ReadonlySet<string> {
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string'))
    throw new DefinitionError('must be an array of tool names.', {
      ...option,
      fix: 'pass the registry names of the tools, e.g. ["search_tools", "add_note"]',
    });
  const held = new Set(definitions.map((definition) => definition.name));
  const missing = [...new Set(names)].filter((name) => !held.has(name));
  if (missing.length > 0)
    throw new DefinitionError(
      `names ${missing.length === 1 ? 'a tool' : 'tools'} the tool set does not hold: ${missing.map((name) => JSON.stringify(name)).join(', ')}.`,
      { ...option, fix: 'name registered tools (registry names, not the provider-encoded ones)' },
    );
  return new Set(names);
}
