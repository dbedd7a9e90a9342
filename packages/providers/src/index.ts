/**
 * @toolwright/providers: every provider's tool formats, both directions. Each provider is its own subpath
 * (`@toolwright/providers/openai`, `/anthropic`, ...) with `toTools`, `createToolSet`, `parseToolCalls`,
 * `createStreamAccumulator`, `toToolResultMessage` and `fromTool`. This root adds the provider-neutral API:
 * `adapt`/`adaptAll`, `getProviders`, `fromProviderTool`, `lint`, the startup lint hook, and `parseTextToolCalls`
 * (tool calls written into a model's text, also at `@toolwright/providers/text`).
 */
import { DefinitionError, defaultLogger, isLevelEnabled, type Logger, type ToolDefinition } from '@toolwright/core';
import * as anthropic from './anthropic';
import { resolveDefinitions } from './shared/definitions';
import type { LintSeverity, LintFinding, ProviderDescriptor } from './shared/provider';
import * as bedrock from './bedrock';
import * as cohere from './cohere';
import * as gemini from './gemini';
import * as hermes from './hermes';
import * as mcp from './mcp';
import * as mistral from './mistral';
import * as ollama from './ollama';
import * as openai from './openai';
import * as openaiResponses from './openai-responses';
import type { ToolSource } from './shared/definitions';
import type { ImportOptions } from './shared/import-definition';
import { lintWith, type LintOptions } from './shared/lint';
import type { ProviderToolsView, ToolOf, ToolOptionsOf } from './shared/define-provider';
import { toolsAlone, type ProviderId } from './shared/tool-set';

export {
  ToolNameCodec,
  readableForm,
  type EncodedToolName,
  type NameEncodingStrategy,
  type ToolNameCodecOptions,
} from './shared/name-codec';
export {
  OPENAI_NAME_PROFILE,
  PORTABLE_NAME_PROFILE,
  MCP_NAME_PROFILE,
  matchesProfile,
  withMaxLength,
  type ToolNameProfile,
} from './shared/name-profiles';
export {
  CallIdCodec,
  MISTRAL_CALL_ID_PROFILE,
  ANTHROPIC_CALL_ID_PROFILE,
  BEDROCK_CALL_ID_PROFILE,
  GENERATED_CALL_ID_PREFIX,
  isGeneratedCallId,
  createCallIdFactory,
  type CallIdProfile,
  type CallIdFactory,
} from './shared/call-ids';
export type { ParsedToolCall, ParseToolCallsOptions } from './shared/calls';
export type { ToolSet, ToolSetContext, ToolSetOptions, ToolRestriction, ProviderId } from './shared/tool-set';
export type { ToolSource, ToolRegistryLike } from './shared/definitions';
export type { ToolCallAccumulator } from './shared/streaming';
export { streamToolCalls } from './shared/streaming';
export type {
  LintFinding,
  LintSeverity,
  ProviderDescriptor,
  ProviderLimits,
  ProviderToolSetOptions,
} from './shared/provider';
export type { LintOptions } from './shared/lint';
export type { ImportOptions } from './shared/import-definition';
export type { JsonSchema, JsonValue, JsonObject } from './shared/json-schema';
export { OPTIONAL_NULL_MARKER, OPTIONAL_NULLABLE_MARKER, splitNote } from './shared/description-notes';
export { API_VERSIONS, getApiVersions, resolveApiVersion, type ApiVersion } from './shared/api-versions';
export * from './text';

/**
 * The one table of providers: every map and type of the provider-neutral API below is derived from it, and each
 * entry is the provider module's own `defineProvider` object.
 */
export const PROVIDERS = Object.freeze({
  openai: openai.provider,
  'openai-responses': openaiResponses.provider,
  anthropic: anthropic.provider,
  gemini: gemini.provider,
  mistral: mistral.provider,
  ollama: ollama.provider,
  bedrock: bedrock.provider,
  cohere: cohere.provider,
  mcp: mcp.provider,
  hermes: hermes.provider,
} satisfies Readonly<Record<ProviderId, ProviderDescriptor>>);

/** One provider's tool definition, by provider id. */
export type ProviderToolMap = { [P in ProviderId]: ToolOf<(typeof PROVIDERS)[P]> };

/** The options each provider's `toTools` takes, by provider id. */
export type ProviderOptionsMap = { [P in ProviderId]: ToolOptionsOf<(typeof PROVIDERS)[P]> };

/** The same table, seen through the part `adapt` and `fromProviderTool` use, typed per provider id. */
const TOOLS: { readonly [P in ProviderId]: ProviderToolsView<ProviderToolMap[P], ProviderOptionsMap[P]> } = PROVIDERS;

/** The same table as the provider-neutral descriptors `getProviders` and `lint` read. */
const DESCRIPTORS: Readonly<Record<string, ProviderDescriptor | undefined>> = PROVIDERS;

function descriptorOf(provider: string): ProviderDescriptor {
  const descriptor = Object.hasOwn(DESCRIPTORS, provider) ? DESCRIPTORS[provider] : undefined;
  if (!descriptor) {
    throw new DefinitionError(`unknown provider "${provider}"`, {
      target: 'providers',
      fix: `use one of ${Object.keys(DESCRIPTORS).join(', ')}`,
    });
  }
  return descriptor;
}

function toolsOf<P extends ProviderId>(provider: P): ProviderToolsView<ProviderToolMap[P], ProviderOptionsMap[P]> {
  descriptorOf(provider);
  return TOOLS[provider];
}

const PROVIDER_IDS: readonly ProviderId[] = Object.values(PROVIDERS).map((provider) => provider.id);

/** Every provider this package speaks: its id, subpath, name rule, limits, argument encoding and error channel. */
export function getProviders(): readonly ProviderDescriptor[] {
  return Object.values(PROVIDERS);
}

/** One provider's descriptor. */
export function getProvider(provider: ProviderId): ProviderDescriptor {
  return descriptorOf(provider);
}

/**
 * One tool as one provider's tool definition (its name encoded for that provider alone; to send several tools use
 * `adaptAll` or the provider's `createToolSet`, which keep names unique within the set). For Gemini this is a
 * function declaration.
 */
export function adapt<P extends ProviderId>(
  tool: ToolDefinition,
  provider: P,
  options?: ProviderOptionsMap[P],
): ProviderToolMap[P] {
  const [adapted] = toolsAlone(toolsOf(provider).tools.createToolSet([tool], options), 'adapt');
  if (adapted === undefined) throw new Error(`unreachable: the ${provider} tool set of one tool is empty`);
  return adapted;
}

/** Many tools (a registry or definitions) as one provider's tool definitions, names unique within the set. */
export function adaptAll<P extends ProviderId>(
  tools: ToolSource,
  provider: P,
  options?: ProviderOptionsMap[P],
): ProviderToolMap[P][] {
  return toolsAlone(toolsOf(provider).tools.createToolSet(tools, options), 'adaptAll');
}

/**
 * Imports a provider's tool definition into the IR through core's JSON Schema import, undoing this package's
 * lowering where it is reversible (description notes, strict-mode nullables, Gemini's OpenAPI subset). Pass the
 * tool set's codec (`{ codec }`) to get the registry name back.
 */
export function fromProviderTool<P extends ProviderId>(
  definition: ProviderToolMap[P],
  provider: P,
  options: ImportOptions = {},
): ToolDefinition {
  return toolsOf(provider).tools.fromTool(definition, options);
}

export interface ProviderLintOptions extends LintOptions {
  /** Which providers to check; default all. */
  readonly providers?: readonly ProviderId[];
}

/** Checks every tool against every provider's limits; each finding names the tool, provider, rule and fix. */
export function lint(source: ToolSource, options: ProviderLintOptions = {}): LintFinding[] {
  const descriptors = (options.providers ?? PROVIDER_IDS).map((provider) => descriptorOf(provider));
  return lintWith(descriptors, source, options);
}

/** Formats findings one per line: `error openai get_calendar_events description-length: … Fix: …`. */
export function formatFindings(findings: readonly LintFinding[]): string {
  return findings
    .map(
      (finding) =>
        `${finding.severity} ${finding.provider} ${finding.tool} ${finding.rule}: ${finding.message} Fix: ${finding.fix}`,
    )
    .join('\n');
}

/** `lint`, throwing a DefinitionError that lists every error-severity finding. Returns all findings otherwise. */
export function lintOrThrow(source: ToolSource, options: ProviderLintOptions = {}): LintFinding[] {
  const findings = lint(source, options);
  const errors = findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) {
    throw new DefinitionError(
      `${errors.length} tool definition problem(s) for the configured providers:\n${formatFindings(errors)}`,
      {
        target: 'providers',
        fix: 'fix the tools as each finding says, or lint fewer providers ({ providers: [...] })',
      },
    );
  }
  return findings;
}

export interface StartupLintOptions extends ProviderLintOptions {
  /** `warn`: log the findings; `error`: log them and throw on error-severity findings; `off`: do nothing. */
  readonly lint: 'warn' | 'error' | 'off';
  /**
   * Where findings go (default core's `defaultLogger`, stderr): one summary line (`warn` when there are errors or
   * warnings, else `info`), and every finding at `debug`. Pass `providers` to lint only the providers the app uses.
   */
  readonly logger?: Logger;
}

/** `lint: 2 tools for openai, anthropic: 1 error, 1 warning, 3 info (openai described description-length, ...)`. */
export function summarizeFindings(
  findings: readonly LintFinding[],
  tools: number,
  providers: readonly string[],
): string {
  const count = (severity: LintSeverity) => findings.filter((finding) => finding.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const serious = findings.filter((finding) => finding.severity !== 'info');
  const listed = serious
    .slice(0, 5)
    .map((finding) => `${finding.severity} ${finding.provider} ${finding.tool} ${finding.rule}`);
  if (serious.length > listed.length) listed.push(`${serious.length - listed.length} more`);
  return (
    `tool lint: ${plural(tools, 'tool')} for ${providers.join(', ')}: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${count('info')} info` +
    (listed.length > 0 ? ` (${listed.join('; ')})` : '') +
    (findings.length > 0 ? '; each finding at debug level' : '')
  );
}

/**
 * The startup hook: lint a registry when the application starts, as configured by `{ lint: 'warn' | 'error' }`.
 * Logs one summary line and each finding at debug. Returns the findings.
 */
export function lintAtStartup(source: ToolSource, options: StartupLintOptions): LintFinding[] {
  if (options.lint === 'off') return [];
  const logger = options.logger ?? defaultLogger;
  const findings = lint(source, options);
  const providers = options.providers ?? PROVIDER_IDS;
  const tools = new Set(resolveDefinitions(source).map((definition) => definition.name)).size;
  const serious = findings.some((finding) => finding.severity !== 'info');
  const summary = summarizeFindings(findings, tools, providers);
  if (serious)
    logger.warn(summary, {
      errors: findings.filter((finding) => finding.severity === 'error').length,
      warnings: findings.filter((finding) => finding.severity === 'warning').length,
    });
  else logger.info(summary);
  if (isLevelEnabled(logger, 'debug')) {
    for (const finding of findings)
      logger.debug(
        `tool lint: ${finding.severity} ${finding.provider} ${finding.tool} ${finding.rule}: ${finding.message} Fix: ${finding.fix}`,
        { ...finding },
      );
  }
  const errors = findings.filter((finding) => finding.severity === 'error');
  if (options.lint === 'error' && errors.length > 0) {
    throw new DefinitionError(
      `${errors.length} tool definition problem(s) for the configured providers:\n${formatFindings(errors)}`,
      {
        target: 'providers',
        fix: "fix the tools as each finding says, or start with { lint: 'warn' }",
      },
    );
  }
  return findings;
}

/** A reusable hook for composition roots and framework modules: `createLintHook({ lint: 'error' })(registry)`. */
export function createLintHook(options: StartupLintOptions): (source: ToolSource) => LintFinding[] {
  return (source) => lintAtStartup(source, options);
}
