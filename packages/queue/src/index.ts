// Public API of @toolwright/queue.
export {
  QueuedToolExecutor,
  jobOptionsFor,
  type QueuedToolExecutorOptions,
  type EnqueueResult,
  type FailedToolJob,
} from './queued-tool-executor';
export { createToolWorker, RETRIED_CODES, type ToolWorker, type ToolWorkerOptions } from './tool-worker';
export { JOB_STATUS_TOOL_NAME, registerJobStatusTool, type JobStatusValue } from './status-tool';
export { DEFAULT_QUEUE_NAME, type QueueConnectionOptions } from './options';
export {
  ARGUMENTS_TEXT_OMITTED,
  REFUSED_JOB_PREFIX,
  SealingKeyMissingError,
  type ToolJobData,
  type QueuedContext,
  type RefusedJobReason,
} from './job-data';
export { jobIdForCall } from './job-ids';
export { RedisApprovalStore, type RedisApprovalStoreOptions, type ApprovalRedisClient } from './redis-approval-store';
export {
  RedisToolPinStore,
  UNVERIFIED_PIN,
  type RedisToolPinStoreOptions,
  type PinRedisClient,
} from './redis-tool-pin-store';
export { type PendingToolValue } from './results';
export { runLedgerKey, type RunLedger } from './run-ledger';
export type { SealingKey } from './sealing';
export type { SigningKey, JobSignature } from './signing';
