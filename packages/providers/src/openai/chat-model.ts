/**
 * A `ChatModel` over the official `openai` client's Chat Completions (`client.chat.completions.create`). The client
 * is given constructed (any `OpenAI` or `AzureOpenAI` instance, or anything with the same method); this module never
 * imports the SDK.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import {
  argumentsText,
  conversationParts,
  providerToolName,
  type ExtraRequestFields,
} from '../shared/chat-model-support';
import { arrayAt, recordAt, stringAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import { allowedToolsChoice, createToolSet, type OpenAIChatTool, type OpenAIToolsOptions } from './tools';
import { parseToolCalls, type OpenAIChatCompletionLike } from './calls';
import { readTextToolCalls } from '../text/fallback';

/** What the adapter calls: `client.chat.completions.create(body, { signal })`. The `OpenAI` client has it. */
export interface OpenAIChatClient {
  readonly chat: {
    readonly completions: {
      create(body: object, options?: { signal?: AbortSignal }): PromiseLike<OpenAIChatCompletionLike>;
    };
  };
}

export interface OpenAIChatModelOptions {
  /** A constructed `OpenAI` client. */
  readonly client: OpenAIChatClient;
  /** `gpt-4.1`, `gpt-5`, ... */
  readonly model: string;
  readonly temperature?: number;
  /** Sent as `max_completion_tokens`. */
  readonly maxTokens?: number;
  /** Strict mode (Structured Outputs) for every tool: see `createToolSet`. Default false. */
  readonly strict?: boolean;
  /** Name codec options for the tool set (`onAmbiguity`, ...). */
  readonly toolOptions?: Omit<OpenAIToolsOptions, 'strict'>;
  /** The role system messages are sent with: `system` (default) or `developer` (reasoning models). */
  readonly systemRole?: 'system' | 'developer';
  /** More request fields for every call (`tool_choice`, `parallel_tool_calls`, `reasoning_effort`, `user`, ...). */
  readonly request?: ExtraRequestFields;
  /**
   * When a response has no `tool_calls`, read the calls the model wrote into `content` in any open-model dialect
   * (`parseTextToolCalls`, docs/text-tool-calls.md): what OpenAI-compatible servers (vLLM, llama.cpp, LM Studio,
   * SGLang) pass through when their tool parser misses a format. Default true; `false` leaves such text as text.
   */
  readonly textToolCalls?: boolean;
}

/** A Chat Completions message as this adapter sends it. */
export type OpenAIChatRequestMessage =
  | { role: 'system' | 'developer' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAIChatRequestBody {
  model: string;
  messages: OpenAIChatRequestMessage[];
  tools?: OpenAIChatTool[];
  temperature?: number;
  max_completion_tokens?: number;
  [field: string]: unknown;
}

/**
 * OpenAI Chat Completions as a `ChatModel`: system messages as `system` (or `developer`) messages, assistant tool
 * calls as `tool_calls` with JSON-text arguments, each tool result as a `tool` message whose content is exactly the
 * loop's text (Chat Completions has no error flag). Tool names are encoded with the tool set's codec and decoded
 * back; in strict mode, the nulls the model sends for optional properties are mapped back to absent.
 */
export class OpenAIChatModel extends ProviderChatModel<
  OpenAIChatTool,
  OpenAIChatRequestBody,
  OpenAIChatCompletionLike
> {
  constructor(private readonly options: OpenAIChatModelOptions) {
    super({
      name: `openai:${options.model}`,
      createToolSet: (tools) => createToolSet(tools, { ...options.toolOptions, strict: options.strict ?? false }),
    });
  }

  protected render(
    messages: readonly ChatMessage[],
    { toolSet }: ChatTurnContext<OpenAIChatTool>,
  ): OpenAIChatRequestBody {
    const { options } = this;
    const toolChoice = allowedToolsChoice(toolSet);
    return {
      ...options.request,
      model: options.model,
      messages: this.messages(messages, toolSet),
      ...(toolSet.tools.length > 0 ? { tools: toolSet.tools } : {}),
      ...(toolChoice ? { tool_choice: toolChoice } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { max_completion_tokens: options.maxTokens } : {}),
    };
  }

  protected send(body: OpenAIChatRequestBody, signal: AbortSignal | undefined): PromiseLike<OpenAIChatCompletionLike> {
    return this.options.client.chat.completions.create(body, signal ? { signal } : undefined);
  }

  protected read(response: OpenAIChatCompletionLike, { toolSet }: ChatTurnContext<OpenAIChatTool>): ChatAnswer<never> {
    const choice = arrayAt(response, 'choices')[0];
    const message = recordAt(choice, 'message');
    const content = stringAt(message, 'content');
    const structured = parseToolCalls(response, { toolSet });
    const { calls, text } =
      structured.length === 0 && content !== undefined && this.options.textToolCalls !== false
        ? readTextToolCalls(content, toolSet)
        : { calls: structured, text: content ?? stringAt(message, 'refusal') ?? '' };
    return {
      text,
      calls,
      finishReason: stringAt(choice, 'finish_reason'),
      raw: response,
    };
  }

  private messages(messages: readonly ChatMessage[], toolSet: ToolSet<OpenAIChatTool>): OpenAIChatRequestMessage[] {
    const systemRole = this.options.systemRole ?? 'system';
    return conversationParts(messages).flatMap((part): OpenAIChatRequestMessage[] => {
      switch (part.kind) {
        case 'system':
          return [{ role: systemRole, content: part.content }];
        case 'user':
          return [{ role: 'user', content: part.content }];
        case 'assistant': {
          const calls = part.message.toolCalls ?? [];
          return [
            {
              role: 'assistant',
              // `null` is only allowed beside tool calls.
              content: part.message.content ?? (calls.length > 0 ? null : ''),
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((call) => ({
                      id: call.id,
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
          return part.results.map((message) => ({
            role: 'tool' as const,
            tool_call_id: message.callId,
            content: message.content,
          }));
      }
    });
  }
}
