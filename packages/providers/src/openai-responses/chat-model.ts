/**
 * A `ChatModel` over the official `openai` client's Responses API (`client.responses.create`), stateless: every
 * turn sends the whole conversation as `input` items. The client is given constructed; this module never imports
 * the SDK.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import {
  argumentsText,
  conversationParts,
  providerToolName,
  systemPrompt,
  type ExtraRequestFields,
} from '../shared/chat-model-support';
import { arrayAt, stringAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import {
  allowedToolsChoice,
  createToolSet,
  type OpenAIResponsesFunctionTool,
  type OpenAIResponsesToolsOptions,
} from './tools';
import { parseToolCalls } from './calls';

/** What the adapter calls: `client.responses.create(body, { signal })`. The `OpenAI` client has it. */
export interface OpenAIResponsesClient {
  readonly responses: {
    create(body: object, options?: { signal?: AbortSignal }): PromiseLike<object>;
  };
}

export interface OpenAIResponsesChatModelOptions {
  /** A constructed `OpenAI` client. */
  readonly client: OpenAIResponsesClient;
  readonly model: string;
  readonly temperature?: number;
  /** Sent as `max_output_tokens`. */
  readonly maxTokens?: number;
  /** Strict mode for every tool (always sent explicitly: the Responses API's default differs). Default false. */
  readonly strict?: boolean;
  /** Name codec options for the tool set. */
  readonly toolOptions?: Omit<OpenAIResponsesToolsOptions, 'strict'>;
  /** More request fields for every call (`tool_choice`, `parallel_tool_calls`, `reasoning`, `store`, `include`, ...). */
  readonly request?: ExtraRequestFields;
}

/** An input item as this adapter sends it (replayed output items are sent as the API returned them). */
export type OpenAIResponsesInputItem =
  | { role: 'user' | 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | Record<string, unknown>;

export interface OpenAIResponsesRequestBody {
  model: string;
  input: OpenAIResponsesInputItem[];
  instructions?: string;
  tools?: OpenAIResponsesFunctionTool[];
  temperature?: number;
  max_output_tokens?: number;
  [field: string]: unknown;
}

/**
 * OpenAI Responses as a `ChatModel`: system messages joined into `instructions`, each assistant turn replayed as the
 * output items the API returned (reasoning items included) or, for a conversation built elsewhere, as a message and
 * `function_call` items; each tool result as a `function_call_output` whose `output` is exactly the loop's text (no
 * error flag in this API).
 */
export class OpenAIResponsesChatModel extends ProviderChatModel<
  OpenAIResponsesFunctionTool,
  OpenAIResponsesRequestBody,
  object,
  readonly unknown[]
> {
  constructor(private readonly options: OpenAIResponsesChatModelOptions) {
    super({
      name: `openai-responses:${options.model}`,
      createToolSet: (tools) => createToolSet(tools, { ...options.toolOptions, strict: options.strict ?? false }),
    });
  }

  protected render(
    messages: readonly ChatMessage[],
    { toolSet }: ChatTurnContext<OpenAIResponsesFunctionTool>,
  ): OpenAIResponsesRequestBody {
    const { options } = this;
    const instructions = systemPrompt(messages);
    const toolChoice = allowedToolsChoice(toolSet);
    return {
      ...options.request,
      model: options.model,
      ...(instructions !== undefined ? { instructions } : {}),
      input: this.input(messages, toolSet),
      ...(toolSet.tools.length > 0 ? { tools: toolSet.tools } : {}),
      ...(toolChoice ? { tool_choice: toolChoice } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { max_output_tokens: options.maxTokens } : {}),
    };
  }

  protected send(body: OpenAIResponsesRequestBody, signal: AbortSignal | undefined): PromiseLike<object> {
    return this.options.client.responses.create(body, signal ? { signal } : undefined);
  }

  protected read(
    response: object,
    { toolSet }: ChatTurnContext<OpenAIResponsesFunctionTool>,
  ): ChatAnswer<readonly unknown[]> {
    const output = arrayAt(response, 'output');
    const calls = parseToolCalls(output, { toolSet });
    const text = output
      .filter((item) => stringAt(item, 'type') === 'message')
      .flatMap((item) => arrayAt(item, 'content'))
      .map((part) =>
        stringAt(part, 'type') === 'output_text'
          ? (stringAt(part, 'text') ?? '')
          : stringAt(part, 'type') === 'refusal'
            ? (stringAt(part, 'refusal') ?? '')
            : '',
      )
      .join('');
    const finishReason = stringAt(response, 'incomplete_details', 'reason') ?? stringAt(response, 'status');
    return { text, calls, finishReason, raw: response, native: output };
  }

  private input(
    messages: readonly ChatMessage[],
    toolSet: ToolSet<OpenAIResponsesFunctionTool>,
  ): OpenAIResponsesInputItem[] {
    return conversationParts(messages).flatMap((part): OpenAIResponsesInputItem[] => {
      switch (part.kind) {
        case 'system':
          return [];
        case 'user':
          return [{ role: 'user', content: part.content }];
        case 'assistant': {
          const replayed = this.nativeTurns.recall(part.message.toolCalls);
          if (replayed) return replayed as OpenAIResponsesInputItem[];
          const items: OpenAIResponsesInputItem[] =
            part.message.content !== undefined && part.message.content !== ''
              ? [{ role: 'assistant', content: part.message.content }]
              : [];
          for (const call of part.message.toolCalls ?? []) {
            items.push({
              type: 'function_call',
              call_id: call.id,
              name: providerToolName(toolSet.codec, call.name),
              arguments: argumentsText(call.arguments),
            });
          }
          return items;
        }
        case 'tool-results':
          return part.results.map((message) => ({
            type: 'function_call_output' as const,
            call_id: message.callId,
            output: message.content,
          }));
      }
    });
  }
}
