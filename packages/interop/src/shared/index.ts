export { pickExecutionContext, resolveContext, withSignal, type ContextSource } from './context';
export { ToolResultError } from './errors';
export { frameworkToolNames, selectDefinitions } from './names';
export { RecentModelViews, isTextOnly, partsText, resultParts } from './model-output';
