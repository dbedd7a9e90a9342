export {
  ApprovalGate,
  approvedCall,
  pendingView,
  plainParams,
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
