// Public API of @toolwright/core: what applications use. Adding a symbol here makes it public (and changes
// packages/core/api/core.api.md: run `npm run api:update` and commit the report). The building blocks that
// toolwright's own packages and tests share are in ./internal (`@toolwright/core/internal`), which is not public API.
import './metadata/require-reflect-metadata';

export * from './types';
export * from './errors';
export * from './logging/logger';
export * from './decorators';
export {
  parseTypeExpression,
  formatTypeExpression,
  definitionFromCompact,
  toJsonSchema,
  paramToJsonSchema,
  type JsonSchemaExportOptions,
  fromJsonSchema,
  definitionFromJsonSchema,
  DEFAULT_JSON_SCHEMA_LIMITS,
  type JsonSchemaImportOptions,
  type JsonSchemaLimits,
  type JsonSchemaToolOptions,
  type JsonSchemaObject,
  type JsonSchemaTypeName,
  crossField,
} from './schema';
export { buildObjectSchema, buildCommandDefinition } from './validation';
export * from './registry';
export type { ToolSearchOptions, ToolSearchResult } from './search';
export {
  EmbeddingToolSearch,
  type EmbedTexts,
  type EmbeddingToolSearchOptions,
  type HybridToolSearchResult,
  type LexicalToolSource,
} from './search/embedding-search';
export { DEFAULT_LIMITS, type PipelineLimits, type SecurityEvent } from './pipeline';
export {
  PersonaToolExecutor,
  type PersonaToolExecutorOptions,
  type PreparedCall,
  type PrepareResult,
  type ExecuteAllOptions,
  type StreamedCall,
  type StreamedField,
  EXECUTOR_OPTIONS,
  EXECUTION_CONTEXT,
  TOOL_INVOCATION,
  TransformationStats,
  type TransformationCount,
  type CommandClassCheckOptions,
  tsyringeCommandResolver,
  type CommandResolver,
  type ToolTelemetry,
  type TurnSpan,
  createToolTelemetry,
  type ToolTelemetryOptions,
  type TurnCallRecord,
  MemoryApprovalStore,
  type MemoryApprovalStoreOptions,
  type ApprovalStore,
  type StoredApproval,
  type ApprovalOptions,
  type CallPermit,
  type CallBinding,
} from './execution';
export {
  type ChatMessage,
  type AssistantTurn,
  type ChatRequest,
  type ChatModel,
  ScriptedChatModel,
  type ScriptedTurn,
  runToolLoop,
  RETRYABLE_CODES,
  type ToolLoopOptions,
  type ToolLoopResult,
  type ToolLoopStep,
  type ToolLoopCall,
  type ToolLoopApproval,
  type ToolCallRunner,
  type ToolLoopToolSearch,
} from './loop';
export { toStandardSchema, type ToolwrightStandardSchema, type StandardSchemaOptions } from './standard-schema';
export {
  resolveRelativeDate,
  type RelativeDateOptions,
  type RelativeDateResolution,
  type RelativeDateDate,
  type RelativeDateDateTime,
  type RelativeDateRange,
  RelativeDateError,
  type RelativeDateErrorCode,
  type WeekStart,
  type ResolveRelativeDateParams,
  registerRelativeDateTool,
  RESOLVE_RELATIVE_DATE_TOOL_NAME,
  registerToolSearch,
  type ToolSearchToolOptions,
  SEARCH_TOOLS_TOOL_NAME,
  type FoundTool,
  type SearchToolsResult,
} from './builtins';
