// Built-in tools. Adding a symbol here makes it public API of @toolwright/core.
export {
  resolveRelativeDate,
  MAX_RELATIVE_DATE_PHRASE_LENGTH,
  type RelativeDateOptions,
  type RelativeDateResolution,
  type RelativeDateDate,
  type RelativeDateDateTime,
  type RelativeDateRange,
} from './relative-date';
export { RelativeDateError, type RelativeDateErrorCode } from './relative-date-error';
export type { WeekStart } from './relative-date-phrases';
export { RELATIVE_DATE_EXAMPLES } from './messages';
export {
  ResolveRelativeDateCommand,
  ResolveRelativeDateParams,
  registerRelativeDateTool,
  RESOLVE_RELATIVE_DATE_TOOL_NAME,
} from './resolve-relative-date.command';
export { registerToolSearch, type ToolSearchToolOptions } from './search-tools.command';
export { SEARCH_TOOLS_TOOL_NAME, type FoundTool, type SearchToolsResult } from '../search/search-tools-result';
