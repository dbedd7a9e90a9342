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

/**
 * How a tool set honours `allow` (the calls restricted to some tools). `provider`: every tool of the set is sent and
 * the provider restricts the calls with its own request field (OpenAI's `allowed_tools` tool choice, Gemini's
 * `allowedFunctionNames`), so the tool list, and with it the prompt cache's prefix, stays the same whatever is
 * allowed. `subset`: only the allowed tools are sent (as `only` does), because the provider has no such field or the
 * whole list exceeds its `maxTools`; `reason` says which.
 */
export interface ToolRestriction {
  /** the registry names the calls are restricted to, in the source's order */
  readonly tools: readonly string[];
  /** the same tools as the provider sees them (encoded by the set's codec) */
  readonly providerNames: readonly string[];
  /** `auto`: the model may answer without a call; `required`: it must call one of the tools */
  readonly mode: 'auto' | 'required';
  readonly by: 'provider' | 'subset';
  /** why the subset was sent (`by: 'subset'` only) */
  readonly reason?: string;
}

export interface ToolSet<TTool> extends ToolSetContext {
  readonly provider: ProviderId;
  /** The provider's tool definitions, in registration order. */
  readonly tools: TTool[];
  readonly definitions: readonly ToolDefinition[];
  /** Set when `allow` was given: how the calls are restricted (see `ToolRestriction`). */
  readonly restriction?: ToolRestriction;
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
  /**
   * Restrict the calls to these tools (registry names) and keep sending every tool of the set, so the request's tool
   * list stays identical from one request to the next and the provider's prompt cache keeps its prefix (a changing
   * `only` subset misses it). Providers with a restriction field use it: OpenAI Chat and Responses send
   * `tool_choice: {type: "allowed_tools"}`, Gemini `toolConfig.functionCallingConfig.allowedFunctionNames` (mode
   * `VALIDATED`, or `ANY` with `allowMode: 'required'`). Where the provider has no such field, or the whole list
   * exceeds its `maxTools`, only the allowed tools are sent, as `only` does; the set's `restriction` says which
   * happened. With `only`, the allowed tools must be among those `only` keeps. Default: no restriction.
   */
  readonly allow?: readonly string[];
  /** With `allow`: `auto` (default) lets the model answer without a call; `required` makes it call an allowed tool. */
  readonly allowMode?: 'auto' | 'required';
}

/** A provider's own field for restricting calls, used by `buildToolSet` while the whole list fits `maxTools`. */
export interface RestrictionSupport {
  readonly maxTools: number;
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
  /** The provider restricts calls with its own request field (absent: `allow` sends the subset). */
  readonly restriction?: RestrictionSupport;
}): ToolSet<TTool> {
  resolveApiVersion(args.provider, args.options.version);
  const selected = resolveToolSetDefinitions(args.source, args.options.only);
  const allow = resolveAllow(selected, args.options, args.restriction);
  const definitions =
    allow?.by === 'subset' ? selected.filter((definition) => allow.tools.has(definition.name)) : selected;
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
    ...(allow === undefined ? {} : { restriction: restrictionOf(allow, definitions, codec, args.options) }),
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
 * A tool set's definitions for a caller that returns the tools alone (`toTools`, `adaptAll`, ...). A restriction the
 * provider applies lives in a request field beside the tools, so returning the tools alone would drop it silently:
 * that is a DefinitionError naming the way that keeps it.
 */
export function toolsAlone<TTool>(toolSet: ToolSet<TTool>, target: string): TTool[] {
  if (toolSet.restriction?.by === 'provider')
    throw new DefinitionError(
      'restricts the calls with a request field beside the tools, which the tools alone would drop.',
      {
        target,
        property: 'allow',
        fix: "use createToolSet(source, { allow }) and send its restriction with the tools (OpenAI: allowedToolsChoice(toolSet); Gemini: allowedFunctionsConfig(toolSet)), or pass a provider's chat model toolOptions: { allow }",
      },
    );
  return toolSet.tools;
}

interface ResolvedAllow {
  readonly tools: ReadonlySet<string>;
  readonly by: 'provider' | 'subset';
  readonly reason?: string;
}

/** Whether `allow` is honoured by the provider's own field or by sending the subset, and why. */
function resolveAllow(
  definitions: readonly ToolDefinition[],
  options: ToolSetOptions,
  support: RestrictionSupport | undefined,
): ResolvedAllow | undefined {
  if (options.allow === undefined) {
    if (options.allowMode !== undefined)
      throw new DefinitionError('is set without `allow`.', {
        target: 'createToolSet',
        property: 'allowMode',
        fix: 'pass `allow` (the tools the calls are restricted to), or leave allowMode out',
      });
    return undefined;
  }
  if (options.allowMode !== undefined && options.allowMode !== 'auto' && options.allowMode !== 'required')
    throw new DefinitionError(`must be 'auto' or 'required', not ${JSON.stringify(options.allowMode)}.`, {
      target: 'createToolSet',
      property: 'allowMode',
      fix: "pass 'auto' (the model may answer without a call) or 'required'",
    });
  const tools = namedTools(options.allow, definitions, { target: 'createToolSet', property: 'allow' });
  if (tools.size === 0)
    throw new DefinitionError('names no tool: calls restricted to no tool cannot be made.', {
      target: 'createToolSet',
      property: 'allow',
      fix: 'name at least one tool, or send no tools (and no `allow`) for a turn without calls',
    });
  if (support === undefined)
    return { tools, by: 'subset', reason: 'the provider has no field that restricts calls to some of the tools sent' };
  if (definitions.length > support.maxTools)
    return {
      tools,
      by: 'subset',
      reason: `the ${definitions.length} tools exceed the provider's ${support.maxTools} per request`,
    };
  return { tools, by: 'provider' };
}

function restrictionOf(
  allow: ResolvedAllow,
  definitions: readonly ToolDefinition[],
  codec: ToolNameCodec,
  options: ToolSetOptions,
): ToolRestriction {
  const tools = definitions
    .filter((definition) => allow.tools.has(definition.name))
    .map((definition) => definition.name);
  return {
    tools,
    providerNames: tools.map((name) => codec.encode(name)),
    mode: options.allowMode ?? 'auto',
    by: allow.by,
    ...(allow.reason === undefined ? {} : { reason: allow.reason }),
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
