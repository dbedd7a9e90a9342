import type { ToolDefinition } from '../types/definition';
import type { ToolCall, ToolResult } from '../types/execution';

/** A provider-neutral conversation message; each `ChatModel` adapter renders these in its provider's format. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content?: string; readonly toolCalls?: readonly ToolCall[] }
  /** One tool result; `content` is exactly the text the model receives (for errors, the retry message). */
  | {
      readonly role: 'tool';
      readonly callId: string;
      readonly tool: string;
      readonly content: string;
      readonly isError: boolean;
      readonly result: ToolResult;
    };

/** What the model answered in one turn. */
export interface AssistantTurn {
  readonly text?: string;
  readonly toolCalls: readonly ToolCall[];
  /** The provider's stop reason, as it gave it. */
  readonly finishReason?: string;
  /** The provider's raw response, for debugging. */
  readonly raw?: unknown;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** The tools offered (registry names; the adapter encodes names for its provider and decodes them back). */
  readonly tools: readonly ToolDefinition[];
  readonly signal?: AbortSignal;
}

/** One model, behind any provider: send messages and tools, receive an assistant turn. */
export interface ChatModel {
  /** For logs and traces: `openai:gpt-5`, `anthropic:claude-...`, `scripted`. */
  readonly name: string;
  complete(request: ChatRequest): Promise<AssistantTurn>;
}
