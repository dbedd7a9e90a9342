export { pickExecutionContext, resolveContext, withSignal, type ContextSource } from './context';
export { ToolResultError } from './errors';
export { frameworkToolNames, selectDefinitions } from './names';
export { RecentModelViews, resultParts } from './model-output';
