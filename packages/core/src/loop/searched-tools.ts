import { isSearchToolsResult, SEARCH_TOOLS_TOOL_NAME } from '../search/search-tools-result';
import type { ToolDefinition } from '../types/definition';
import type { ToolResult } from '../types/execution';

/** The two-step pattern of `runToolLoop` (`toolSearch`): search, then call. */
export interface ToolLoopToolSearch {
  /**
   * Tools offered from the first turn on, besides `search_tools` (registry names). Default: none, only
   * `search_tools`.
   */
  readonly core?: readonly string[];
}

/**
 * The tools offered to the model when only some are loaded: the core tools and `search_tools` at first, then every
 * tool a successful `search_tools` call returned, for the rest of the loop. Offered in the candidates' order, so the
 * list only grows and each turn's prefix stays the same (provider prompt caches keep working).
 */
export class SearchedTools {
  private readonly offered = new Set<string>();
  private current: readonly ToolDefinition[];

  constructor(
    private readonly candidates: readonly ToolDefinition[],
    options: ToolLoopToolSearch,
  ) {
    const known = new Set(candidates.map((definition) => definition.name));
    if (!known.has(SEARCH_TOOLS_TOOL_NAME))
      throw new TypeError(
        `runToolLoop: toolSearch needs the ${SEARCH_TOOLS_TOOL_NAME} tool among the tools: register it with registerToolSearch(registry).`,
      );
    const unknown = (options.core ?? []).filter((name) => !known.has(name));
    if (unknown.length > 0)
      throw new TypeError(
        `runToolLoop: toolSearch.core names tools that are not among the tools: ${unknown.map((name) => JSON.stringify(name)).join(', ')}.`,
      );
    for (const name of [SEARCH_TOOLS_TOOL_NAME, ...(options.core ?? [])]) this.offered.add(name);
    this.current = this.select();
  }

  /** The tools to offer on the next turn. */
  get tools(): readonly ToolDefinition[] {
    return this.current;
  }

  /** Adds the tools the turn's `search_tools` calls found; true when the offer grew. */
  addFound(results: readonly ToolResult[]): boolean {
    const before = this.offered.size;
    const known = new Set(this.candidates.map((definition) => definition.name));
    for (const result of results) {
      if (!result.ok || result.tool !== SEARCH_TOOLS_TOOL_NAME || !isSearchToolsResult(result.value)) continue;
      for (const tool of result.value.tools) if (known.has(tool.name)) this.offered.add(tool.name);
    }
    if (this.offered.size === before) return false;
    this.current = this.select();
    return true;
  }

  private select(): readonly ToolDefinition[] {
    return this.candidates.filter((definition) => this.offered.has(definition.name));
  }
}
