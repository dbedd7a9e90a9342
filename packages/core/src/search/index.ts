export {
  ToolSearchIndex,
  DEFAULT_SEARCH_LIMIT,
  type ToolSearchOptions,
  type ToolSearchResult,
} from './tool-search-index';
export { searchTerms, searchWords } from './search-terms';
