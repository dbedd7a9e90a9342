export { PersonaToolExecutor } from './persona-tool-executor';
export {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_SLOW_CALL_MS,
  type PersonaToolExecutorOptions,
  type PreparedCall,
  type PrepareResult,
  type ExecuteAllOptions,
} from './executor-options';
export { EXECUTOR_OPTIONS, EXECUTION_CONTEXT, TOOL_INVOCATION } from './tokens';
export { type StreamedCall, type StreamedField } from './streamed-call';
export { TransformationStats, type TransformationCount } from './transformation-stats';
export { runWithTimeout, isNetworkError, type RunOptions } from './run-handler';
export { REDACTED, sensitivePaths, redactTransformations, redactValue } from '../pipeline/redaction';
export { tsyringeCommandResolver, type CommandResolver } from './command-resolution';
export { checkCommandClass, constructorParameters, type CommandClassCheckOptions } from './command-construction';
export {
  ToolTelemetry,
  TurnSpan,
  createToolTelemetry,
  defaultToolTelemetry,
  type ToolTelemetryOptions,
  type TurnCallRecord,
} from './telemetry';
export {
  ApprovalGate,
  CallPermit,
  MemoryApprovalStore,
  pendingView,
  plainParams,
  type CallBinding,
  type ApprovalOptions,
  type ApprovalClaim,
  type ApprovedCall,
  type ApprovalStore,
  type StoredApproval,
  type MemoryApprovalStoreOptions,
} from './approval';
