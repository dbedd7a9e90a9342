export type { ChatMessage, AssistantTurn, ChatRequest, ChatModel } from './chat-model';
export { ScriptedChatModel, type ScriptedTurn } from './scripted-chat-model';
export { runToolLoop, retryMessage, finalErrorMessage, RETRYABLE_CODES } from './run-tool-loop';
export type {
  ToolLoopOptions,
  ToolLoopResult,
  ToolLoopStep,
  ToolLoopCall,
  ToolCallRunner,
  ToolLoopApproval,
} from './run-tool-loop';
export type { ToolLoopToolSearch } from './searched-tools';
