/**
 * `@toolwright/providers/text`: tool calls a model wrote into its text, in any open-model dialect
 * (docs/text-tool-calls.md).
 */
export {
  parseTextToolCalls,
  createTextToolCallParser,
  getTextDialects,
  type TextToolCall,
  type RejectedTextToolCall,
  type TextToolCalls,
  type ParseTextToolCallsOptions,
  type TextToolCallParser,
} from './parse';
export type { TextToolSource, JsonSchemaTool, TextToolSet } from './tools';
export { streamTextCallEvents } from './text-call-events';
export type { ToolCallEventOptions, ToolCallStreamEvent } from '../shared/stream-events';
export type { TextDialect, DialectBlock, DialectCall, DialectScope } from './dialect';
