import type { AssistantTurn, ChatMessage, ChatModel, ChatRequest } from './chat-model';

/** One scripted turn: a fixed answer, or a function of the conversation so far. */
export type ScriptedTurn = AssistantTurn | ((messages: readonly ChatMessage[], request: ChatRequest) => AssistantTurn);

/**
 * A model that plays a script: the built-in default for the demo and for tests (no network, no keys).
 * It records every request it received, so a test can assert exactly what the model was told.
 */
export class ScriptedChatModel implements ChatModel {
  readonly requests: ChatRequest[] = [];
  private position = 0;

  constructor(
    private readonly turns: readonly ScriptedTurn[],
    readonly name = 'scripted',
  ) {}

  async complete(request: ChatRequest): Promise<AssistantTurn> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const turn = this.turns[this.position];
    if (turn === undefined) {
      throw new Error(`The scripted model has no turn ${this.position + 1} (the script has ${this.turns.length}).`);
    }
    this.position++;
    return typeof turn === 'function' ? turn(request.messages, request) : turn;
  }
}
