/**
 * Provider API versions (`adapt(tool, 'openai', { version: '2024-01' })`). Providers change their tool
 * formats; a team pinned to an older API must keep getting what that API accepts. Each provider lists the dates on
 * which its tool-definition format changed; a requested version (a date, `YYYY-MM` or `YYYY-MM-DD`, or `latest`)
 * resolves to the last format published on or before it. The default is the current format. A version before the
 * provider had tool calling, or one that is not a date, is refused with the list of known versions.
 *
 * Only verified format changes are gated. Where a feature's start date is not known (Mistral and Bedrock `strict`),
 * it is not gated by version: the docs say so.
 */
import { DefinitionError } from '@toolwright/core';
import type { ProviderId } from './provider-id';

export interface ApiVersion {
  /** The date the format took effect, `YYYY-MM-DD`. */
  readonly id: string;
  /** What changed on that date, for the tool-definition format. */
  readonly summary: string;
  /** Where the date comes from. */
  readonly source: string;
}

const versions = (...entries: ApiVersion[]): readonly ApiVersion[] =>
  Object.freeze(entries.map((entry) => Object.freeze(entry)));

/** Every provider's tool-format versions, oldest first; the last one is the default. */
export const API_VERSIONS: Readonly<Record<ProviderId, readonly ApiVersion[]>> = Object.freeze({
  openai: versions(
    {
      id: '2023-06-13',
      summary: 'function calling: the request field `functions` ({name, description, parameters}); use toFunctions()',
      source: 'OpenAI "Function calling and other API updates", 2023-06-13',
    },
    {
      id: '2023-11-06',
      summary: '`tools` ({type: "function", function}) replace `functions`; parallel tool calls',
      source: 'OpenAI DevDay release, 2023-11-06',
    },
    {
      id: '2024-08-06',
      summary: '`strict: true` (Structured Outputs) on function definitions',
      source: 'OpenAI "Introducing Structured Outputs in the API", 2024-08-06',
    },
  ),
  'openai-responses': versions({
    id: '2025-03-11',
    summary: 'the Responses API: flat function tools with `strict`',
    source: 'OpenAI "New tools for building agents", 2025-03-11',
  }),
  anthropic: versions(
    {
      id: '2024-04-04',
      summary: 'tool use: {name, description, input_schema} (beta header tools-2024-04-04; GA 2024-05-30)',
      source: 'Anthropic beta header `tools-2024-04-04`',
    },
    {
      id: '2025-11-13',
      summary: '`strict: true` (structured outputs) and `input_examples` on custom tools',
      source: 'Anthropic beta header `structured-outputs-2025-11-13`',
    },
    {
      id: '2025-11-19',
      summary: 'the tool search tool (`tool_search_tool_bm25` / `_regex`) and `defer_loading` on tools',
      source:
        'the tool types `tool_search_tool_bm25_20251119` and `tool_search_tool_regex_20251119` (@anthropic-ai/sdk)',
    },
  ),
  gemini: versions(
    {
      id: '2023-12-13',
      summary: 'function declarations with `parameters` (the OpenAPI-subset Schema)',
      source: 'Gemini API launch, 2023-12-13',
    },
    {
      id: '2025-07-15',
      summary: '`parametersJsonSchema` (JSON Schema, mutually exclusive with `parameters`)',
      source: '@google/genai 1.9.0 (google-gemini/gemini-cli#4196, 2025-07-15)',
    },
  ),
  mistral: versions({
    id: '2024-02-26',
    summary: 'function calling: tools[].function with `parameters` required',
    source: 'Mistral Large launch, 2024-02-26',
  }),
  ollama: versions({
    id: '2024-07-25',
    summary: 'tool calling on /api/chat (server 0.3.0)',
    source: 'Ollama 0.3.0 release, 2024-07-25',
  }),
  bedrock: versions({
    id: '2024-05-30',
    summary: 'Converse API tool use: toolSpec {name, description, inputSchema: {json}}',
    source: 'AWS "Converse API tool use", 2024-05-30',
  }),
  cohere: versions({
    id: '2024-09-01',
    summary: 'v2 chat: tools[] = {type: "function", function: {name, description, parameters}}',
    source: 'Cohere API v2, released September 2024 (the day is not pinned: the first of the month is used)',
  }),
  mcp: versions(
    {
      id: '2024-11-05',
      summary: 'tools/list entries {name, description, inputSchema}',
      source: 'MCP specification 2024-11-05',
    },
    {
      id: '2025-03-26',
      summary: '`annotations` (behaviour hints, with `title`)',
      source: 'MCP specification 2025-03-26',
    },
    { id: '2025-06-18', summary: 'a top-level `title`', source: 'MCP specification 2025-06-18' },
  ),
  hermes: versions({
    id: '2024-03-01',
    summary: 'tools rendered into the system turn as <tools> JSON (no API; one format)',
    source: 'Hermes 2 Pro function-calling format, March 2024 (the day is not pinned)',
  }),
});

const DATE = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

/** The versions of one provider, oldest first. */
export function getApiVersions(provider: ProviderId): readonly ApiVersion[] {
  return API_VERSIONS[provider];
}

/**
 * The format version a request resolves to: `undefined` or `latest` -> the current one; a date -> the last change on
 * or before it (`YYYY-MM` means the end of that month). Throws a DefinitionError for anything else.
 */
export function resolveApiVersion(provider: ProviderId, requested: string | undefined): ApiVersion {
  const known = API_VERSIONS[provider];
  const latest = known[known.length - 1]!;
  if (requested === undefined || requested === 'latest') return latest;
  const list = known.map((entry) => entry.id).join(', ');
  const match = typeof requested === 'string' ? DATE.exec(requested) : null;
  const month = match ? Number(match[2]) : 0;
  const day = match?.[3] === undefined ? 31 : Number(match[3]);
  if (!match || month < 1 || month > 12 || day < 1 || day > 31) {
    throw new DefinitionError(
      `unknown ${provider} API version ${JSON.stringify(requested)}: a version is a date (YYYY-MM or YYYY-MM-DD) or "latest".`,
      {
        target: provider,
        property: 'version',
        fix: `give the date of the API version you are pinned to; the ${provider} tool format changed on ${list}.`,
      },
    );
  }
  const date = match[3] === undefined ? `${match[1]}-${match[2]}-31` : requested;
  const resolved = [...known].reverse().find((entry) => entry.id <= date);
  if (resolved === undefined) {
    throw new DefinitionError(
      `unknown ${provider} API version "${requested}": ${provider} had no tool calling before ${known[0]!.id} (${known[0]!.summary}).`,
      {
        target: provider,
        property: 'version',
        fix: `use a version on or after ${known[0]!.id} (format changes: ${list}).`,
      },
    );
  }
  return resolved;
}

/** Whether the resolved version includes the format change of `id`. */
export function includes(version: ApiVersion, id: string): boolean {
  return version.id >= id;
}

/** A feature the requested version does not have: the error names the version that introduced it. */
export function notInVersion(
  provider: ProviderId,
  requested: string | undefined,
  feature: string,
  since: string,
  fix: string,
): DefinitionError {
  return new DefinitionError(`${feature} is not in the ${provider} API version "${requested}" (it came on ${since}).`, {
    target: provider,
    property: 'version',
    fix,
  });
}

/** Refuses a feature the resolved version does not have (`notInVersion`), unless the version includes `since`. */
export function assertInVersion(
  provider: ProviderId,
  requested: string | undefined,
  resolved: ApiVersion,
  feature: { readonly name: string; readonly since: string; readonly fix: string },
): void {
  if (!includes(resolved, feature.since))
    throw notInVersion(provider, requested, feature.name, feature.since, feature.fix);
}
