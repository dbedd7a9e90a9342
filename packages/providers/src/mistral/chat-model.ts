/**
 * A `ChatModel` over the official `@mistralai/mistralai` client (`client.chat.complete`). The client is given
 * constructed (the SDK is ESM-only; construct it wherever your application loads ESM); this module never imports it.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import { CallIdCodec, MISTRAL_CALL_ID_PROFILE } from '../shared/call-ids';
import {
  argumentsText,
  calledNames,
  conversationParts,
  providerToolName,
  type ExtraRequestFields,
} from '../shared/chat-model-support';
import { matchesProfile } from '../shared/name-profiles';
import { arrayAt, firstDefined, recordAt, stringAt, valueAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import { createToolSet, MISTRAL_NAME_PROFILE, type MistralTool, type MistralToolsOptions } from './tools';
import { parseToolCalls } from './calls';

/** What the adapter calls: `client.chat.complete(request, { signal })`. The `Mistral` client has it. */
export interface MistralChatClient {
  readonly chat: {
    complete(request: object, options?: { signal?: AbortSignal }): PromiseLike<object>;
  };
}

export interface MistralChatModelOptions {
  /** A constructed `Mistral` client. */
  readonly client: MistralChatClient;
  /** `mistral-large-latest`, ... */
  readonly model: string;
  readonly temperature?: number;
  /** Sent as `maxTokens`. */
  readonly maxTokens?: number;
  /** `strict: true` with OpenAI's strict lowering on every tool (Mistral's strict semantics are unverified). Default false. */
  readonly strict?: boolean;
  /** Name codec options for the tool set. */
  readonly toolOptions?: Omit<MistralToolsOptions, 'strict'>;
  /** More request fields for every call, as the SDK spells them (`toolChoice`, `parallelToolCalls`, `randomSeed`, ...). */
  readonly request?: ExtraRequestFields;
}

/** A message as this adapter gives the SDK (camelCase; the SDK sends it as snake_case). */
export type MistralRequestMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      toolCalls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; toolCallId: string; name?: string; content: string };

export interface MistralRequest {
  model: string;
  messages: MistralRequestMessage[];
  tools?: MistralTool[];
  temperature?: number;
  maxTokens?: number;
  [field: string]: unknown;
}

/**
 * Mistral as a `ChatModel`: system messages in place; assistant tool calls as `toolCalls` with JSON-text arguments;
 * each tool result as a `tool` message (with the function name as the model called it) whose content is exactly the
 * loop's text (no error flag in this API). Call ids that are not 9 alphanumeric characters (from another provider or
 * the scripted model) are rewritten consistently within the request and mapped back.
 */
export class MistralChatModel extends ProviderChatModel<MistralTool, MistralRequest, object> {
  constructor(private readonly options: MistralChatModelOptions) {
    super({
      name: `mistral:${options.model}`,
      createToolSet: (tools) => createToolSet(tools, { ...options.toolOptions, strict: options.strict ?? false }),
      callIdProfile: MISTRAL_CALL_ID_PROFILE,
    });
  }

  /** The request the SDK is given for these messages and tools (ids mapped with `callIds`). */
  protected render(
    messages: readonly ChatMessage[],
    { toolSet, callIds }: ChatTurnContext<MistralTool>,
  ): MistralRequest {
    const { options } = this;
    return {
      ...options.request,
      model: options.model,
      messages: this.messages(messages, toolSet, callIds ?? new CallIdCodec(MISTRAL_CALL_ID_PROFILE)),
      ...(toolSet.tools.length > 0 ? { tools: toolSet.tools } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    };
  }

  protected send(body: MistralRequest, signal: AbortSignal | undefined): PromiseLike<object> {
    return this.options.client.chat.complete(body, signal ? { signal } : undefined);
  }

  protected read(response: object, { toolSet, callIds }: ChatTurnContext<MistralTool>): ChatAnswer<never> {
    const choice = arrayAt(response, 'choices')[0];
    const message = recordAt(choice, 'message');
    const content = valueAt(message, 'content');
    // Content is a string, or chunks (text, and thinking for reasoning models: only the text is the answer).
    const text =
      typeof content === 'string'
        ? content
        : arrayAt(message, 'content')
            .map((chunk) => (stringAt(chunk, 'type') === 'text' ? (stringAt(chunk, 'text') ?? '') : ''))
            .join('');
    const finishReason = firstDefined(choice, 'finishReason', 'finish_reason');
    return {
      text,
      calls: parseToolCalls(response, { toolSet, callIds }),
      finishReason: typeof finishReason === 'string' ? finishReason : undefined,
      raw: response,
    };
  }

  private messages(
    messages: readonly ChatMessage[],
    toolSet: ToolSet<MistralTool>,
    callIds: CallIdCodec,
  ): MistralRequestMessage[] {
    const names = calledNames(messages, toolSet.codec);
    return conversationParts(messages).flatMap((part): MistralRequestMessage[] => {
      switch (part.kind) {
        case 'system':
        case 'user':
          return [{ role: part.kind, content: part.content }];
        case 'assistant': {
          const calls = part.message.toolCalls ?? [];
          return [
            {
              role: 'assistant',
              content: part.message.content ?? '',
              ...(calls.length > 0
                ? {
                    toolCalls: calls.map((call) => ({
                      id: callIds.toProvider(call.id),
                      type: 'function' as const,
                      function: {
                        name: providerToolName(toolSet.codec, call.name),
                        arguments: argumentsText(call.arguments),
                      },
                    })),
                  }
                : {}),
            },
          ];
        }
        case 'tool-results':
          return part.results.map((message) => {
            const name = names.get(message.callId) ?? providerToolName(toolSet.codec, message.tool);
            // `name` is optional but validated against the name rule: one that would be rejected is left out.
            return {
              role: 'tool' as const,
              toolCallId: callIds.toProvider(message.callId),
              ...(matchesProfile(name, MISTRAL_NAME_PROFILE) ? { name } : {}),
              content: message.content,
            };
          });
      }
    });
  }
}
