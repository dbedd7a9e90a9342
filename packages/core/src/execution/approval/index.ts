export {
  ApprovalGate,
  approvedCall,
  CallPermit,
  pendingView,
  plainParams,
  sameJson,
  type CallBinding,
  type ApprovalOptions,
  type ApprovalClaim,
  type ApprovedCall,
  type ResultSink,
} from './approval-gate';
export {
  MemoryApprovalStore,
  type ApprovalStore,
  type StoredApproval,
  type MemoryApprovalStoreOptions,
} from './approval-store';
