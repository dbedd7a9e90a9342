export {
  ToolSearchIndex,
  DEFAULT_SEARCH_LIMIT,
  type ToolSearchOptions,
  type ToolSearchResult,
} from './tool-search-index';
export { searchTerms, searchWords } from './search-terms';
export {
  SEARCH_TOOLS_TOOL_NAME,
  isSearchToolsResult,
  type FoundTool,
  type SearchToolsResult,
} from './search-tools-result';
export {
  EmbeddingToolSearch,
  toolEmbeddingText,
  type EmbedTexts,
  type EmbeddingToolSearchOptions,
  type HybridToolSearchResult,
  type LexicalToolSource,
} from './embedding-search';
