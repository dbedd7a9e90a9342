/**
 * The ChatModel skeleton every adapter shares: one tool set per tool list, a call id codec per request for providers
 * that validate ids, the provider's own assistant turns remembered for replay, and the `AssistantTurn` built the same
 * way. An adapter supplies only how to render a turn (`render`), send it (`send`) and read the answer (`read`).
 */
import type { AssistantTurn, ChatMessage, ChatModel, ChatRequest, ToolDefinition } from '@toolwright/core';
import { CallIdCodec, type CallIdProfile } from './call-ids';
import type { ParsedToolCall } from './calls';
import { assistantTurn, NativeTurnMemory, ToolSetCache } from './chat-model-support';
import type { ToolSet } from './tool-set';

/** What one request is rendered and read with. */
export interface ChatTurnContext<TTool> {
  /** The tool set of the request's tool list (built once per list). */
  readonly toolSet: ToolSet<TTool>;
  /** Ids in the provider's format, mapped back when the answer is read; `undefined` when the provider takes any id. */
  readonly callIds: CallIdCodec | undefined;
}

/** The answer as an adapter reads it. */
export interface ChatAnswer<TNative> {
  readonly text: string | undefined;
  readonly calls: readonly ParsedToolCall[];
  readonly finishReason: string | undefined;
  /** The provider's response, as `AssistantTurn.raw`. */
  readonly raw: unknown;
  /** The provider's own assistant turn, replayed unchanged when the loop sends these calls back. */
  readonly native?: TNative;
}

export interface ProviderChatModelSetup<TTool> {
  /** `openai:gpt-5`. */
  readonly name: string;
  /** Builds the provider's tool set for a tool list. */
  readonly createToolSet: (tools: readonly ToolDefinition[]) => ToolSet<TTool>;
  /** The provider's call id rule, when it validates ids (Anthropic, Bedrock, Mistral). */
  readonly callIdProfile?: CallIdProfile;
}

export abstract class ProviderChatModel<TTool, TBody, TResponse, TNative = never> implements ChatModel {
  readonly name: string;
  /** The provider's own assistant turns, by the calls parsed from them. */
  protected readonly nativeTurns = new NativeTurnMemory<TNative>();
  private readonly toolSets: ToolSetCache<ToolSet<TTool>>;
  private readonly callIdProfile: CallIdProfile | undefined;

  protected constructor(setup: ProviderChatModelSetup<TTool>) {
    this.name = setup.name;
    this.toolSets = new ToolSetCache(setup.createToolSet);
    this.callIdProfile = setup.callIdProfile;
  }

  /** The provider's request for these messages and tools (ids mapped with `callIds` when the provider validates them). */
  protected abstract render(messages: readonly ChatMessage[], context: ChatTurnContext<TTool>): TBody;

  /** Sends one request through the client. */
  protected abstract send(body: TBody, signal: AbortSignal | undefined): PromiseLike<TResponse>;

  /** Reads the provider's answer. */
  protected abstract read(response: TResponse, context: ChatTurnContext<TTool>): ChatAnswer<TNative>;

  /** The request `complete` sends for these messages and tools. */
  toProviderRequest(
    request: Pick<ChatRequest, 'messages' | 'tools'>,
    callIds: CallIdCodec | undefined = this.newCallIds(),
  ): TBody {
    return this.render(request.messages, { toolSet: this.toolSets.get(request.tools), callIds });
  }

  async complete(request: ChatRequest): Promise<AssistantTurn> {
    const context: ChatTurnContext<TTool> = { toolSet: this.toolSets.get(request.tools), callIds: this.newCallIds() };
    const response = await this.send(this.render(request.messages, context), request.signal);
    const answer = this.read(response, context);
    if (answer.native !== undefined && answer.calls.length > 0) this.nativeTurns.remember(answer.calls, answer.native);
    return assistantTurn(answer.text, answer.calls, answer.finishReason, answer.raw);
  }

  private newCallIds(): CallIdCodec | undefined {
    return this.callIdProfile ? new CallIdCodec(this.callIdProfile) : undefined;
  }
}
