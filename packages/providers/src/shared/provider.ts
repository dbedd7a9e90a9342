/**
 * What the package root knows about each provider: its rules and limits (for `getProviders` and `lint`) and how
 * to build a tool set and read one tool's lowered parameters (for `adapt` and `lint`).
 */
import type { ToolSource } from './definitions';
import type { JsonSchema } from './json-schema';
import type { ToolNameProfile } from './name-profiles';
import type { ProviderId } from './provider-id';
import type { ToolSet, ToolSetOptions } from './tool-set';

export type LintSeverity = 'error' | 'warning' | 'info';

/** One problem of one tool with one provider. */
export interface LintFinding {
  /** The registry name (`*` for findings about the whole tool set, like the tool count). */
  readonly tool: string;
  readonly provider: ProviderId;
  /** A stable rule id: `name-pattern`, `description-length`, `tool-count`, `unsupported-keyword`, ... */
  readonly rule: string;
  readonly message: string;
  readonly fix: string;
  readonly severity: LintSeverity;
}

export interface ProviderLimits {
  /** Most tools one request may carry. */
  readonly maxTools?: number;
  /** Longest tool description. */
  readonly maxDescriptionLength?: number;
  /** Whether `oneOf`/`anyOf`/`allOf`/`enum`/`not` at the root of the parameters are rejected. */
  readonly rootUnionsRejected: boolean;
  /** Property names the provider accepts (Gemini `parameters`). */
  readonly propertyName?: { readonly pattern: RegExp; readonly rule: string };
}

/** Options the lint passes to every provider. */
export interface ProviderLintOptions {
  /** Lint the strict variant (OpenAI, Responses, Anthropic, Mistral, Bedrock, Cohere). */
  readonly strict: boolean;
}

/** Any provider's `toTools` options, as the provider-neutral API passes them on. */
export interface ProviderToolSetOptions extends ToolSetOptions {
  readonly strict?: boolean;
  readonly [option: string]: unknown;
}

/** What the package says about a provider: its rules and limits (for `getProviders` and `lint`). */
export interface ProviderInfo {
  readonly id: ProviderId;
  /** `OpenAI Chat Completions`. */
  readonly label: string;
  /** `@toolwright/providers/openai`. */
  readonly module: string;
  readonly nameProfile: ToolNameProfile;
  readonly limits: ProviderLimits;
  /** How the call arguments arrive. */
  readonly argumentsEncoding: 'json-text' | 'object' | 'text';
  /** Where errors go back: `is_error`, `status: "error"`, ...; `undefined` when there is no error flag. */
  readonly errorChannel: string | undefined;
  /** Whether the provider has a strict mode the lint can check. */
  readonly supportsStrict: boolean;
}

/** One lowered tool, as the lint reads it. */
export interface LoweredTool<TTool> {
  /** The registry name. */
  readonly name: string;
  readonly tool: TTool;
  /** Its lowered parameters. */
  readonly parameters: JsonSchema | undefined;
}

/** A lowered tool set with the lint findings of that one pass. */
export interface LoweringResult<TTool> {
  readonly toolSet: ToolSet<TTool>;
  readonly findings: LintFinding[];
}

/**
 * A provider as the provider-neutral API sees it (`getProviders()`): its rules, and its tool set builder. Every
 * provider object (`defineProvider`) is one; the type parameters default to "any provider".
 */
export interface ProviderDescriptor<TTool = unknown, TToolOptions = ProviderToolSetOptions> extends ProviderInfo {
  /** Builds the provider's tool set; `options` are the provider's `toTools` options (`strict`, `schemaField`, ...). */
  createToolSet(this: void, source: ToolSource, options?: TToolOptions): ToolSet<TTool>;
  /** The lowered parameters of one of its tools. */
  parametersOf(this: void, tool: TTool): JsonSchema | undefined;
  /** The tool's name as the provider sees it. */
  nameOf(this: void, tool: TTool): string;
  /**
   * Lowers a tool set and returns, in the same pass, the findings about what was lowered: keywords moved into
   * descriptions, a root that is not one object schema, and the provider's own checks (`lintOptions.strict`).
   */
  lower(
    this: void,
    source: ToolSource,
    options?: TToolOptions,
    lintOptions?: ProviderLintOptions,
  ): LoweringResult<TTool>;
}
