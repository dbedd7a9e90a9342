/**
 * A `ChatModel` over the official `@anthropic-ai/sdk` client's Messages API (`client.messages.create`). The client is
 * given constructed (`Anthropic`, `AnthropicBedrock`, `AnthropicVertex`, or anything with the same method); this
 * module never imports the SDK.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import { ANTHROPIC_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import {
  argumentsObject,
  conversationParts,
  mergeAdjacentRoles,
  providerToolName,
  systemPrompt,
  type ExtraRequestFields,
} from '../shared/chat-model-support';
import { arrayAt, stringAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import { createToolSet, type AnthropicTool, type AnthropicToolsOptions } from './tools';
import { parseToolCalls } from './calls';

/** What the adapter calls: `client.messages.create(body, { signal })`. The `Anthropic` client has it. */
export interface AnthropicMessagesClient {
  readonly messages: {
    create(body: object, options?: { signal?: AbortSignal }): PromiseLike<object>;
  };
}

export interface AnthropicChatModelOptions {
  /** A constructed `Anthropic` client. */
  readonly client: AnthropicMessagesClient;
  /** `claude-sonnet-4-6`, ... */
  readonly model: string;
  /** `max_tokens`, which the Messages API requires. Default 4096. */
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** Strict tool use for every tool (Anthropic's strict subset). Default false. */
  readonly strict?: boolean;
  /** Name codec options for the tool set (`maxNameLength`, `onAmbiguity`, ...). */
  readonly toolOptions?: Omit<AnthropicToolsOptions, 'strict'>;
  /** More request fields for every call (`tool_choice`, `thinking`, `metadata`, ...). */
  readonly request?: ExtraRequestFields;
}

/** A content block as this adapter sends it (replayed turns are sent as the API returned them). */
export type AnthropicRequestBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true }
  | Record<string, unknown>;

export interface AnthropicRequestMessage {
  role: 'user' | 'assistant';
  content: AnthropicRequestBlock[];
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicRequestMessage[];
  system?: string;
  tools?: AnthropicTool[];
  temperature?: number;
  [field: string]: unknown;
}

/** The Messages API's required `max_tokens` when none is given. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * Anthropic Messages as a `ChatModel`: system messages joined into `system`; each assistant turn replayed as the
 * content blocks the API returned (thinking blocks and their signatures included) or rebuilt as `text` and
 * `tool_use` blocks; the results of one turn as `tool_result` blocks in one `user` message, errors flagged with
 * `is_error: true`, each block's content exactly the loop's text. Ids from other providers are rewritten to
 * Anthropic's pattern and mapped back.
 */
export class AnthropicChatModel extends ProviderChatModel<
  AnthropicTool,
  AnthropicRequestBody,
  object,
  readonly unknown[]
> {
  constructor(private readonly options: AnthropicChatModelOptions) {
    super({
      name: `anthropic:${options.model}`,
      createToolSet: (tools) => createToolSet(tools, { ...options.toolOptions, strict: options.strict ?? false }),
      callIdProfile: ANTHROPIC_CALL_ID_PROFILE,
    });
  }

  protected render(
    messages: readonly ChatMessage[],
    { toolSet, callIds }: ChatTurnContext<AnthropicTool>,
  ): AnthropicRequestBody {
    const { options } = this;
    const system = systemPrompt(messages);
    return {
      ...options.request,
      model: options.model,
      max_tokens: options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      ...(system !== undefined ? { system } : {}),
      messages: this.messages(messages, toolSet, callIds ?? new CallIdCodec(ANTHROPIC_CALL_ID_PROFILE)),
      ...(toolSet.tools.length > 0 ? { tools: toolSet.tools } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
  }

  protected send(body: AnthropicRequestBody, signal: AbortSignal | undefined): PromiseLike<object> {
    return this.options.client.messages.create(body, signal ? { signal } : undefined);
  }

  protected read(
    response: object,
    { toolSet, callIds }: ChatTurnContext<AnthropicTool>,
  ): ChatAnswer<readonly unknown[]> {
    const content = arrayAt(response, 'content');
    const calls = parseToolCalls(content, { toolSet, callIds });
    const text = content
      .map((block) => (stringAt(block, 'type') === 'text' ? (stringAt(block, 'text') ?? '') : ''))
      .join('');
    return { text, calls, finishReason: stringAt(response, 'stop_reason'), raw: response, native: content };
  }

  private messages(
    messages: readonly ChatMessage[],
    toolSet: ToolSet<AnthropicTool>,
    callIds: CallIdCodec,
  ): AnthropicRequestMessage[] {
    const rendered = conversationParts(messages).flatMap((part): AnthropicRequestMessage[] => {
      switch (part.kind) {
        case 'system':
          return [];
        case 'user':
          return [{ role: 'user', content: [{ type: 'text', text: part.content }] }];
        case 'assistant': {
          const replayed = this.nativeTurns.recall(part.message.toolCalls);
          if (replayed) return [{ role: 'assistant', content: [...(replayed as AnthropicRequestBlock[])] }];
          const content: AnthropicRequestBlock[] = part.message.content
            ? [{ type: 'text', text: part.message.content }]
            : [];
          for (const call of part.message.toolCalls ?? []) {
            content.push({
              type: 'tool_use',
              id: callIds.toProvider(call.id),
              name: providerToolName(toolSet.codec, call.name),
              input: argumentsObject(call.arguments),
            });
          }
          return content.length > 0 ? [{ role: 'assistant', content }] : [];
        }
        case 'tool-results':
          return [
            {
              role: 'user',
              content: part.results.map((message) => ({
                type: 'tool_result' as const,
                tool_use_id: callIds.toProvider(message.callId),
                content: message.content,
                ...(message.isError ? { is_error: true as const } : {}),
              })),
            },
          ];
      }
    });
    return mergeAdjacentRoles(
      rendered,
      (message) => message.content,
      (message, content) => ({ ...message, content }),
    );
  }
}
