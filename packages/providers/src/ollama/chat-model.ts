/**
 * A `ChatModel` over the official `ollama` client (`client.chat`). The client is given constructed; this module never
 * imports it.
 */
import type { ChatMessage } from '@toolwright/core';
import { ProviderChatModel, type ChatAnswer, type ChatTurnContext } from '../shared/provider-chat-model';
import { isGeneratedCallId } from '../shared/call-ids';
import {
  argumentsObject,
  calledNames,
  conversationParts,
  providerToolName,
  type ExtraRequestFields,
} from '../shared/chat-model-support';
import { arrayAt, recordAt, stringAt } from '../shared/read';
import type { ToolSet } from '../shared/tool-set';
import { createToolSet, type OllamaTool, type OllamaToolsOptions } from './tools';
import { parseToolCalls } from './calls';
import { readTextToolCalls } from '../text/fallback';

/** A streamed reply of the `ollama` client (`AbortableAsyncIterator`). */
export interface OllamaChatStream extends AsyncIterable<object> {
  abort(): void;
}

/** What the adapter calls: `client.chat({ ...request, stream: true })`. The `Ollama` client has it. */
export interface OllamaChatClient {
  chat(request: object & { stream: true }): PromiseLike<OllamaChatStream>;
}

export interface OllamaChatModelOptions {
  /** A constructed `Ollama` client. */
  readonly client: OllamaChatClient;
  /** `qwen3:8b`, `llama3.1`, ... */
  readonly model: string;
  /** Sent as `options.temperature`. */
  readonly temperature?: number;
  /** Sent as `options.num_predict`. */
  readonly maxTokens?: number;
  /** Tool set options: `lowering` (`portable`, the default, or `none`) and the name codec's. */
  readonly toolOptions?: OllamaToolsOptions;
  /** More model options for every call (`num_ctx`, `seed`, ...), under the request's `options`. */
  readonly modelOptions?: Readonly<Record<string, unknown>>;
  /** More request fields for every call (`think`, `keep_alive`, `format`, ...). */
  readonly request?: ExtraRequestFields;
  /**
   * When a reply has no `tool_calls`, read the calls the model wrote into its text in any open-model dialect
   * (`parseTextToolCalls`, docs/text-tool-calls.md). Default true; `false` leaves such text as text.
   */
  readonly textToolCalls?: boolean;
}

/** A message as this adapter sends it (replayed turns are sent as the server returned them). */
export type OllamaRequestMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      thinking?: string;
      tool_calls?: Array<{ id?: string; function: { name: string; arguments: Record<string, unknown> } }>;
    }
  | { role: 'tool'; tool_name: string; tool_call_id?: string; content: string };

export interface OllamaRequest {
  model: string;
  messages: OllamaRequestMessage[];
  tools?: OllamaTool[];
  options?: Record<string, unknown>;
  stream: true;
  [field: string]: unknown;
}

/**
 * Ollama `/api/chat` as a `ChatModel`. It streams: the `ollama` client can cancel only a streamed request, so the
 * `AbortSignal` aborts the stream; the chunks' text and thinking are joined and their tool calls (each whole in its
 * chunk) collected. Assistant turns go back as the server returned them (`thinking` included) or rebuilt with object
 * arguments; each tool result is a `tool` message (`tool_name` as the model called it, `tool_call_id` when the server
 * gave ids) whose content is exactly the loop's text (no error flag in this API).
 */
/** The streamed reply, gathered: the whole assistant message and the last chunk (with the totals). */
interface OllamaGatheredReply {
  readonly message: OllamaRequestMessage;
  readonly last: object | undefined;
}

export class OllamaChatModel extends ProviderChatModel<
  OllamaTool,
  OllamaRequest,
  OllamaGatheredReply,
  OllamaRequestMessage
> {
  constructor(private readonly options: OllamaChatModelOptions) {
    super({ name: `ollama:${options.model}`, createToolSet: (tools) => createToolSet(tools, options.toolOptions) });
  }

  protected render(messages: readonly ChatMessage[], { toolSet }: ChatTurnContext<OllamaTool>): OllamaRequest {
    const { options } = this;
    const modelOptions = {
      ...options.modelOptions,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { num_predict: options.maxTokens } : {}),
    };
    return {
      ...options.request,
      model: options.model,
      messages: this.messages(messages, toolSet),
      ...(toolSet.tools.length > 0 ? { tools: toolSet.tools } : {}),
      ...(Object.keys(modelOptions).length > 0 ? { options: modelOptions } : {}),
      stream: true,
    };
  }

  /** Streams the reply (an abort stops the stream) and gathers it into one message. */
  protected async send(request: OllamaRequest, signal: AbortSignal | undefined): Promise<OllamaGatheredReply> {
    signal?.throwIfAborted();
    const stream = await whenNotAborted(this.options.client.chat(request), signal, (late) => late.abort());
    const abort = (): void => stream.abort();
    signal?.addEventListener('abort', abort, { once: true });
    let content = '';
    let thinking = '';
    const toolCalls: unknown[] = [];
    let last: object | undefined;
    try {
      for await (const chunk of stream) {
        content += stringAt(chunk, 'message', 'content') ?? '';
        thinking += stringAt(chunk, 'message', 'thinking') ?? '';
        toolCalls.push(...arrayAt(chunk, 'message', 'tool_calls'));
        last = chunk;
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    signal?.throwIfAborted();
    const message: OllamaRequestMessage = {
      role: 'assistant',
      content,
      ...(thinking !== '' ? { thinking } : {}),
      ...(toolCalls.length > 0
        ? { tool_calls: toolCalls as Extract<OllamaRequestMessage, { role: 'assistant' }>['tool_calls'] }
        : {}),
    };
    return { message, last };
  }

  protected read(
    { message, last }: OllamaGatheredReply,
    { toolSet }: ChatTurnContext<OllamaTool>,
  ): ChatAnswer<OllamaRequestMessage> {
    const structured = parseToolCalls(message, { toolSet });
    const fromText =
      structured.length === 0 && this.options.textToolCalls !== false
        ? readTextToolCalls(message.content, toolSet)
        : undefined;
    // Calls read from the text are sent back as `tool_calls` (rebuilt), not as the text the server returned.
    const { calls, text } = fromText ?? { calls: structured, text: message.content };
    // The reply as one non-streamed `ChatResponse` would have been: the last chunk (with the totals) and the whole message.
    return {
      text,
      calls,
      finishReason: stringAt(last, 'done_reason'),
      raw: { ...recordAt(last), message },
      ...(fromText && fromText.calls.length > 0 ? {} : { native: message }),
    };
  }

  private messages(messages: readonly ChatMessage[], toolSet: ToolSet<OllamaTool>): OllamaRequestMessage[] {
    const names = calledNames(messages, toolSet.codec);
    return conversationParts(messages).flatMap((part): OllamaRequestMessage[] => {
      switch (part.kind) {
        case 'system':
        case 'user':
          return [{ role: part.kind, content: part.content }];
        case 'assistant': {
          const replayed = this.nativeTurns.recall(part.message.toolCalls);
          if (replayed) return [replayed];
          const calls = part.message.toolCalls ?? [];
          return [
            {
              role: 'assistant',
              content: part.message.content ?? '',
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((call) => ({
                      ...(isGeneratedCallId(call.id) ? {} : { id: call.id }),
                      function: {
                        name: providerToolName(toolSet.codec, call.name),
                        arguments: argumentsObject(call.arguments),
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
            tool_name: names.get(message.callId) ?? providerToolName(toolSet.codec, message.tool),
            ...(isGeneratedCallId(message.callId) ? {} : { tool_call_id: message.callId }),
            content: message.content,
          }));
      }
    });
  }
}

/**
 * The value of `pending`, or the signal's reason as soon as it aborts. A value that arrives after the abort is handed
 * to `discard` (the stream is opened by then and must be closed).
 */
function whenNotAborted<T>(
  pending: PromiseLike<T>,
  signal: AbortSignal | undefined,
  discard: (late: T) => void,
): Promise<T> {
  if (!signal) return Promise.resolve(pending);
  return new Promise<T>((resolve, reject) => {
    // The abort rejects with the signal's reason as it is, as fetch and the SDKs do (callers compare it).
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- forwards the caller's reason unchanged
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(pending).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) discard(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the SDK's rejection through unchanged
        reject(error);
      },
    );
  });
}
