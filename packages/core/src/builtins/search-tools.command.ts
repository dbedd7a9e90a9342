import { Command, ToolParam } from '../decorators';
import { isToolAllowed } from '../pipeline/permissions';
import type { ToolRegistry } from '../registry/tool-registry';
import type { ToolDefinition } from '../types/definition';
import type { ToolInvocationContext } from '../types/handler';
import { buildCommandDefinition } from '../validation/build';
import { SEARCH_TOOLS_TOOL_NAME, type SearchToolsResult } from '../search/search-tools-result';
import type { ToolSearchOptions, ToolSearchResult } from '../search/tool-search-index';

/** The longest query the model may send (a task in a few words; longer text only adds noise to the ranking). */
const MAX_QUERY_LENGTH = 1_000;
const MAX_LIMIT = 20;
const DEFAULT_LIMIT = 5;
/** A found tool's description is cut to its first sentence, and to this many characters. */
const MAX_SHORT_DESCRIPTION_LENGTH = 200;

/** What `registerToolSearch` takes. */
export interface ToolSearchToolOptions {
  /** How many tools a search returns when the model does not say (1-20). Default 5. */
  readonly defaultLimit?: number;
  /**
   * Only tools for which this returns true can be found (on top of the persona's permissions, which always apply).
   * Use it to keep the core tools, already offered, out of the results.
   */
  readonly filter?: (definition: ToolDefinition) => boolean;
  /**
   * The search the model's queries run. Default: the registry's own lexical `registry.search`. An
   * `EmbeddingToolSearch` over the same registry fuses an embedding model's ranking with it (docs/tool-search.md).
   */
  readonly search?: {
    search(
      query: string,
      options: ToolSearchOptions,
    ): readonly ToolSearchResult[] | Promise<readonly ToolSearchResult[]>;
  };
}

class SearchToolsParams {
  @ToolParam({
    description:
      'What the tool you need should do, in a few words with the key nouns and verbs, e.g. "weather forecast for a city" or "convert currency".',
    minLength: 1,
    maxLength: MAX_QUERY_LENGTH,
    examples: ['weather forecast for a city', 'book a hotel room', 'convert currency'],
  })
  query!: string;

  @ToolParam({
    type: 'int',
    description: `How many tools to return, 1-${MAX_LIMIT}. Default ${DEFAULT_LIMIT}.`,
    min: 1,
    max: MAX_LIMIT,
    required: false,
  })
  limit?: number;
}

@Command({
  name: SEARCH_TOOLS_TOOL_NAME,
  description:
    'Finds the tools that can do a task, among many more than are loaded now. Describe the task; it returns the best ' +
    'matching tools by name, each with a short description. The tools found can be called from the next turn on.',
  params: SearchToolsParams,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
})
class SearchToolsCommand {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ToolSearchToolOptions,
  ) {}

  async execute(params: SearchToolsParams, invocation: ToolInvocationContext): Promise<SearchToolsResult> {
    const { persona } = invocation.context;
    const found = await (this.options.search ?? this.registry).search(params.query, {
      limit: params.limit ?? this.options.defaultLimit ?? DEFAULT_LIMIT,
      filter: (definition) =>
        definition.name !== SEARCH_TOOLS_TOOL_NAME &&
        isToolAllowed(definition, persona) &&
        (this.options.filter?.(definition) ?? true),
    });
    const tools = found.map((result) => ({
      name: result.name,
      description: shortDescription(this.registry.get(result.name)?.description ?? ''),
    }));
    if (tools.length > 0) return { tools };
    return {
      tools,
      hint: 'No tool matched. Search again with other words for the task (a synonym, the object it acts on), or answer without a tool.',
    };
  }
}

/**
 * Registers `search_tools` on `registry` (opt in: it is registered nowhere by default). It searches the registry it
 * is registered on (`ToolRegistry.search`), returning only tools the calling persona may call.
 */
export function registerToolSearch(registry: ToolRegistry, options: ToolSearchToolOptions = {}): ToolDefinition {
  const defaultLimit = options.defaultLimit ?? DEFAULT_LIMIT;
  if (!Number.isSafeInteger(defaultLimit) || defaultLimit < 1 || defaultLimit > MAX_LIMIT)
    throw new RangeError(
      `registerToolSearch: defaultLimit must be an integer from 1 to ${MAX_LIMIT}, but received ${String(defaultLimit)}.`,
    );
  if (options.filter !== undefined && typeof options.filter !== 'function')
    throw new TypeError('registerToolSearch: filter must be a function.');
  if (options.search !== undefined && typeof options.search?.search !== 'function')
    throw new TypeError(
      'registerToolSearch: search must have a search(query, options) method (an EmbeddingToolSearch).',
    );
  const command = new SearchToolsCommand(registry, { ...options, defaultLimit });
  return registry.registerDefinition(buildCommandDefinition(SearchToolsCommand), {
    kind: 'function',
    handler: (params: SearchToolsParams, invocation) => command.execute(params, invocation),
  });
}

/** The first sentence of a description, cut to 200 characters. */
function shortDescription(description: string): string {
  const text = description.trim().replace(/\s+/g, ' ');
  const sentenceEnd = text.search(/[.!?](\s|$)/);
  const sentence = sentenceEnd >= 0 ? text.slice(0, sentenceEnd + 1) : text;
  return sentence.length > MAX_SHORT_DESCRIPTION_LENGTH
    ? `${sentence.slice(0, MAX_SHORT_DESCRIPTION_LENGTH - 3)}...`
    : sentence;
}
