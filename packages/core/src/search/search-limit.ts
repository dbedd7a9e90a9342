/** How many tools a search returns when it is not told (`ToolSearchOptions.limit`). */
export const DEFAULT_SEARCH_LIMIT = 10;
