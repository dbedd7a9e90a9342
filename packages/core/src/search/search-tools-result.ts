/** The name of the built-in tool that searches a registry (`registerToolSearch`), as the model calls it. */
export const SEARCH_TOOLS_TOOL_NAME = 'search_tools';

/** One tool `search_tools` found: its registry name and the first sentence of its description. */
export interface FoundTool {
  /** The registry name, as the model calls the tool. */
  readonly name: string;
  /** The first sentence of the tool's description, at most 200 characters. */
  readonly description: string;
}

/** What `search_tools` returns to the model (and what the tool loop reads to offer the tools found). */
export interface SearchToolsResult {
  /** The tools found, best first (empty when nothing matched). */
  readonly tools: readonly FoundTool[];
  /** Present when nothing matched: what the model can do instead. */
  readonly hint?: string;
}

/** Whether a tool's result value has the shape `search_tools` returns. */
export function isSearchToolsResult(value: unknown): value is SearchToolsResult {
  if (typeof value !== 'object' || value === null) return false;
  const { tools } = value as { tools?: unknown };
  return (
    Array.isArray(tools) &&
    tools.every((tool) => typeof tool === 'object' && tool !== null && typeof (tool as FoundTool).name === 'string')
  );
}
