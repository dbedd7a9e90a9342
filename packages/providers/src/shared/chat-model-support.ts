/**
 * What every `ChatModel` adapter shares: reading the provider-neutral conversation (`ChatMessage[]`) in the order a
 * provider needs it, keeping one tool set per tool list, remembering the provider's own assistant turns so they go
 * back unchanged, and rendering arguments and results. The adapters never import an SDK at run time: each is given a
 * constructed client and calls one method on it.
 */
import type { AssistantTurn, ChatMessage, ToolCall, ToolDefinition } from '@toolwright/core';
import { isPlainObject, type JsonValue } from './json-schema';
import type { ToolNameCodec } from './name-codec';
import { modelContent } from '@toolwright/core/internal';
import { successText, toJsonValue } from './results';

export type AssistantChatMessage = Extract<ChatMessage, { readonly role: 'assistant' }>;
export type ToolChatMessage = Extract<ChatMessage, { readonly role: 'tool' }>;

/** The conversation as providers group it: the results of one assistant turn's calls travel together. */
export type ConversationPart =
  | { readonly kind: 'system'; readonly content: string }
  | { readonly kind: 'user'; readonly content: string }
  | { readonly kind: 'assistant'; readonly message: AssistantChatMessage }
  | { readonly kind: 'tool-results'; readonly results: readonly ToolChatMessage[] };

/** Splits a conversation into parts; consecutive `tool` messages become one `tool-results` part, in order. */
export function conversationParts(messages: readonly ChatMessage[]): ConversationPart[] {
  const parts: ConversationPart[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const last = parts[parts.length - 1];
      if (last?.kind === 'tool-results')
        parts[parts.length - 1] = { kind: 'tool-results', results: [...last.results, message] };
      else parts.push({ kind: 'tool-results', results: [message] });
    } else if (message.role === 'assistant') parts.push({ kind: 'assistant', message });
    else parts.push({ kind: message.role, content: message.content });
  }
  return parts;
}

/** Every system message's text, joined by a blank line, for providers that take the system prompt apart (`undefined` when there is none). */
export function systemPrompt(messages: readonly ChatMessage[]): string | undefined {
  const texts = messages.flatMap((message) =>
    message.role === 'system' && message.content !== '' ? [message.content] : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

/**
 * One tool set per tool list. The loop sends the same `tools` array every turn, so the provider's tool definitions
 * and the name codec are built once for the conversation; a new list gets its own.
 */
export class ToolSetCache<TToolSet> {
  private readonly toolSets = new WeakMap<readonly ToolDefinition[], TToolSet>();

  constructor(private readonly build: (tools: readonly ToolDefinition[]) => TToolSet) {}

  get(tools: readonly ToolDefinition[]): TToolSet {
    const known = this.toolSets.get(tools);
    if (known !== undefined) return known;
    const toolSet = this.build(tools);
    this.toolSets.set(tools, toolSet);
    return toolSet;
  }
}

/**
 * The provider's own assistant turn (Gemini's `Content` with its thought signatures, Anthropic's content blocks with
 * thinking, the Responses output items with reasoning, Bedrock's message), remembered for the calls parsed from it.
 * When the loop sends those same calls back, the adapter replays the turn exactly as the provider produced it, which
 * some providers require; a conversation built elsewhere (other calls) is rebuilt from the `ChatMessage` instead.
 */
export class NativeTurnMemory<TTurn> {
  private readonly turns = new WeakMap<ToolCall, { readonly turn: TTurn; readonly calls: readonly ToolCall[] }>();

  remember(calls: readonly ToolCall[], turn: TTurn): void {
    const entry = { turn, calls: [...calls] };
    for (const call of calls) this.turns.set(call, entry);
  }

  /** The turn these exact calls (same objects, same order) were parsed from. */
  recall(calls: readonly ToolCall[] | undefined): TTurn | undefined {
    const first = calls?.[0];
    if (!calls || !first) return undefined;
    const entry = this.turns.get(first);
    if (!entry || entry.calls.length !== calls.length) return undefined;
    return entry.calls.every((call, index) => call === calls[index]) ? entry.turn : undefined;
  }
}

/** The name a provider knows a tool by: encoded when the tool set has it, otherwise the name as it was called. */
export function providerToolName(codec: ToolNameCodec, name: string): string {
  return codec.has(name) ? codec.encode(name) : name;
}

/**
 * The provider name each call id was called with, from the assistant turns of the conversation: tool results answer
 * with the name the model used (the executor may have resolved an alias or a different case to the registry name).
 */
export function calledNames(messages: readonly ChatMessage[], codec: ToolNameCodec): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      const providerName = (call as { readonly providerName?: unknown }).providerName;
      names.set(
        call.id,
        typeof providerName === 'string' && providerName !== '' ? providerName : providerToolName(codec, call.name),
      );
    }
  }
  return names;
}

/** A call's arguments as JSON text, for providers that take text (OpenAI, Mistral). */
export function argumentsText(value: ToolCall['arguments']): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}

/**
 * A call's arguments as an object, for providers that take one (Anthropic, Gemini, Bedrock, Ollama). Text that is not
 * a JSON object (a call replayed from a text provider whose arguments were malformed) becomes `{}`: the tool result
 * that follows already tells the model what was wrong with it.
 */
export function argumentsObject(value: ToolCall['arguments']): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * For result channels that take JSON (Gemini `response.output`, Bedrock `{json}`): the value of a successful result
 * whose message content is that value's JSON text, so the structured form says exactly what the content says.
 * `undefined` when the message is an error or carries other text; send `content` as text then.
 */
export function structuredResult(message: ToolChatMessage): JsonValue | undefined {
  if (message.isError || !message.result.ok) return undefined;
  const parts = modelContent(message.result);
  if (parts.length !== 1 || parts[0]!.type === 'text') return undefined;
  const part = parts[0]!;
  if (part.type !== 'json') return undefined;
  return message.content === successText(part.value) ? toJsonValue(part.value) : undefined;
}

/** An `AssistantTurn` without empty fields: an empty text is no text. */
export function assistantTurn(
  text: string | undefined,
  toolCalls: readonly ToolCall[],
  finishReason: string | undefined,
  raw: unknown,
): AssistantTurn {
  return {
    ...(text !== undefined && text !== '' ? { text } : {}),
    toolCalls,
    ...(finishReason !== undefined ? { finishReason } : {}),
    raw,
  };
}

/**
 * Joins neighbouring entries of the same role into one (their content arrays concatenated), for providers that want
 * roles to alternate (Bedrock Converse, Anthropic, Gemini): tool results followed by a user message are one user turn,
 * with the results first.
 */
export function mergeAdjacentRoles<TEntry extends { readonly role: string }, TContent>(
  entries: readonly TEntry[],
  contentOf: (entry: TEntry) => readonly TContent[],
  withContent: (entry: TEntry, content: TContent[]) => TEntry,
): TEntry[] {
  const merged: TEntry[] = [];
  for (const entry of entries) {
    const last = merged[merged.length - 1];
    if (last && last.role === entry.role)
      merged[merged.length - 1] = withContent(last, [...contentOf(last), ...contentOf(entry)]);
    else merged.push(entry);
  }
  return merged;
}

/** Extra request fields the caller gave, under the fields the adapter sets (the adapter's own fields win). */
export type ExtraRequestFields = Readonly<Record<string, unknown>>;
