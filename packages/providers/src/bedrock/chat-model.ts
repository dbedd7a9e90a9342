/**
 * A `ChatModel` over the official `@aws-sdk/client-bedrock-runtime` client's Converse API
 * (`client.send(new ConverseCommand(input), { abortSignal })`). Both the client and the `ConverseCommand` class are
 * given (`new BedrockChatModel({ client, ConverseCommand, model })`): this module never imports the SDK, so the class
 * comes from the application's own copy, the one its client was built with.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import { BEDROCK_CALL_ID_PROFILE, CallIdCodec } from '../shared/call-ids';
import {
  argumentsObject,
  conversationParts,
  mergeAdjacentRoles,
  providerToolName,
  structuredResult,
  systemPrompt,
  type ExtraRequestFields,
} from '../shared/chat-model-support';
import { isPlainObject } from '../shared/json-schema';
import { arrayAt, recordAt, stringAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import { createToolSet, type BedrockTool, type BedrockToolsOptions } from './tools';
import { parseToolCalls } from './calls';
import { type BedrockToolResultContent } from './results';

/** What the adapter calls: `client.send(command, { abortSignal })`. The `BedrockRuntimeClient` has it. */
export interface BedrockRuntimeClientLike {
  send(command: object, options?: { abortSignal?: AbortSignal }): PromiseLike<object>;
}

/**
 * The SDK's `ConverseCommand` class (`import { ConverseCommand } from '@aws-sdk/client-bedrock-runtime'`). Its input
 * is typed `never` so that the SDK's class, whose input type is the SDK's own, is accepted; the adapter constructs it
 * with a `BedrockConverseInput`.
 */
export type ConverseCommandConstructor = new (input: never) => object;

export interface BedrockChatModelOptions {
  /** A constructed `BedrockRuntimeClient`. */
  readonly client: BedrockRuntimeClientLike;
  /** The SDK's `ConverseCommand` class. */
  readonly ConverseCommand: ConverseCommandConstructor;
  /** The model or inference profile id: `anthropic.claude-sonnet-4-6-v1:0`, `amazon.nova-pro-v1:0`, an ARN, ... */
  readonly model: string;
  /** Sent as `inferenceConfig.temperature`. */
  readonly temperature?: number;
  /** Sent as `inferenceConfig.maxTokens`. */
  readonly maxTokens?: number;
  /** `toolSpec.strict` with Anthropic's strict subset (select models only). Default false. */
  readonly strict?: boolean;
  /** Name codec options for the tool set. */
  readonly toolOptions?: Omit<BedrockToolsOptions, 'strict'>;
  /**
   * How successful results are sent: `json` (default) an object value as a `{json}` block, anything else as text;
   * `text` always text (some non-Anthropic models reject `json` blocks). Errors are always text.
   */
  readonly resultContent?: 'json' | 'text';
  /** Send each result's `status` (`success`/`error`): only Claude and Nova models accept it. Default true. */
  readonly resultStatus?: boolean;
  /** More input fields for every call (`additionalModelRequestFields`, `guardrailConfig`, `toolConfig.toolChoice`, ...). */
  readonly request?: ExtraRequestFields;
}

/** A content block as this adapter sends it (replayed turns are sent as the API returned them). */
export type BedrockRequestBlock =
  | { text: string }
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' } }
  | Record<string, unknown>;

export interface BedrockRequestMessage {
  role: 'user' | 'assistant';
  content: BedrockRequestBlock[];
}

/** `ConverseCommandInput` as this adapter builds it. */
export interface BedrockConverseInput {
  modelId: string;
  messages: BedrockRequestMessage[];
  system?: Array<{ text: string }>;
  toolConfig?: { tools: BedrockTool[]; [field: string]: unknown };
  inferenceConfig?: { maxTokens?: number; temperature?: number; [field: string]: unknown };
  [field: string]: unknown;
}

/**
 * Bedrock Converse as a `ChatModel`: system messages as `system` blocks; each assistant turn replayed as the message
 * the API returned (reasoning content included) or rebuilt as `text` and `toolUse` blocks; the results of one turn as
 * `toolResult` blocks in one `user` message, errors with `status: "error"` and the loop's text as their only content.
 * Ids from other providers are rewritten to Bedrock's pattern and mapped back.
 */
export class BedrockChatModel extends ProviderChatModel<BedrockTool, BedrockConverseInput, object, object> {
  constructor(private readonly options: BedrockChatModelOptions) {
    super({
      name: `bedrock:${options.model}`,
      createToolSet: (tools) => createToolSet(tools, { ...options.toolOptions, strict: options.strict ?? false }),
      callIdProfile: BEDROCK_CALL_ID_PROFILE,
    });
  }

  /** The `ConverseCommand` input for these messages and tools (ids mapped with `callIds`). */
  protected render(
    messages: readonly ChatMessage[],
    { toolSet, callIds }: ChatTurnContext<BedrockTool>,
  ): BedrockConverseInput {
    const { options } = this;
    const extra = options.request ?? {};
    const system = systemPrompt(messages);
    const inferenceConfig = {
      ...(isPlainObject(extra['inferenceConfig']) ? extra['inferenceConfig'] : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
    return {
      ...extra,
      modelId: options.model,
      messages: this.messages(messages, toolSet, callIds ?? new CallIdCodec(BEDROCK_CALL_ID_PROFILE)),
      ...(system !== undefined ? { system: [{ text: system }] } : {}),
      ...(toolSet.tools.length > 0
        ? { toolConfig: { ...(isPlainObject(extra['toolConfig']) ? extra['toolConfig'] : {}), tools: toolSet.tools } }
        : {}),
      ...(Object.keys(inferenceConfig).length > 0 ? { inferenceConfig } : {}),
    };
  }

  protected send(body: BedrockConverseInput, signal: AbortSignal | undefined): PromiseLike<object> {
    const command = new this.options.ConverseCommand(body as never);
    return this.options.client.send(command, signal ? { abortSignal: signal } : undefined);
  }

  protected read(response: object, { toolSet, callIds }: ChatTurnContext<BedrockTool>): ChatAnswer<object> {
    const message = recordAt(response, 'output', 'message');
    const calls = parseToolCalls(response, { toolSet, callIds });
    const text = arrayAt(message, 'content')
      .map((block) => stringAt(block, 'text') ?? '')
      .join('');
    return {
      text,
      calls,
      finishReason: stringAt(response, 'stopReason'),
      raw: response,
      ...(message ? { native: message } : {}),
    };
  }

  private messages(
    messages: readonly ChatMessage[],
    toolSet: ToolSet<BedrockTool>,
    callIds: CallIdCodec,
  ): BedrockRequestMessage[] {
    const withStatus = this.options.resultStatus ?? true;
    const jsonResults = (this.options.resultContent ?? 'json') === 'json';
    const rendered = conversationParts(messages).flatMap((part): BedrockRequestMessage[] => {
      switch (part.kind) {
        case 'system':
          return [];
        case 'user':
          return [{ role: 'user', content: [{ text: part.content }] }];
        case 'assistant': {
          const replayed = this.nativeTurns.recall(part.message.toolCalls);
          if (replayed)
            return [{ role: 'assistant', content: [...arrayAt(replayed, 'content')] as BedrockRequestBlock[] }];
          const content: BedrockRequestBlock[] = part.message.content ? [{ text: part.message.content }] : [];
          for (const call of part.message.toolCalls ?? []) {
            content.push({
              toolUse: {
                toolUseId: callIds.toProvider(call.id),
                name: providerToolName(toolSet.codec, call.name),
                input: argumentsObject(call.arguments),
              },
            });
          }
          return content.length > 0 ? [{ role: 'assistant', content }] : [];
        }
        case 'tool-results':
          return [
            {
              role: 'user',
              content: part.results.map((message) => {
                const structured = jsonResults ? structuredResult(message) : undefined;
                const resultContent: BedrockToolResultContent = isPlainObject(structured)
                  ? { json: structured }
                  : { text: message.content };
                return {
                  toolResult: {
                    toolUseId: callIds.toProvider(message.callId),
                    content: [resultContent],
                    ...(withStatus ? { status: message.isError ? ('error' as const) : ('success' as const) } : {}),
                  },
                };
              }),
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
