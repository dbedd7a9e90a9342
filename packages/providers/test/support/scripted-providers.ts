/**
 * A scripted model behind each provider's API, for the tool-loop tests: each provider's dialect renders a
 * provider-neutral model turn as that API's response (with the extras the adapter must send back untouched: Gemini
 * thought signatures, Anthropic thinking blocks, Responses reasoning items, Bedrock reasoning content, Ollama
 * thinking), and reads back from a recorded request what the model was told: the system prompt, the tools, its own
 * last turn as replayed, and the tool results that answer it. A harness puts the official SDK client, pointed at a
 * stub server on 127.0.0.1, behind the provider's `ChatModel` adapter.
 */
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import type { Mistral } from '@mistralai/mistralai';
import type { ChatModel } from '@toolwright/core';
import { AnthropicChatModel } from '@toolwright/providers/anthropic';
import { BedrockChatModel } from '@toolwright/providers/bedrock';
import { GeminiChatModel } from '@toolwright/providers/gemini';
import { MistralChatModel, type MistralChatClient } from '@toolwright/providers/mistral';
import { OllamaChatModel } from '@toolwright/providers/ollama';
import { OpenAIChatModel } from '@toolwright/providers/openai';
import { OpenAIResponsesChatModel } from '@toolwright/providers/openai-responses';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { startMistralClientProcess } from './mistral-process';
import type { StubReply, StubServer } from './stub-server';

/** One tool call the scripted model makes (`id` is left out for providers that send none, like the Gemini API). */
export interface ModelCall {
  readonly id?: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** One turn of the scripted model: calls, or a final text answer. */
export interface ModelTurn {
  readonly text?: string;
  readonly calls?: readonly ModelCall[];
}

/** One tool result as the provider's request carried it. */
export interface ReceivedResult {
  /** The call id it answers; absent when the provider's result carries none. */
  readonly id?: string;
  /** The function name, for providers whose results name it (Gemini, Mistral, Ollama). */
  readonly name?: string;
  /** The result as text (every provider's error, and every result of the text-only providers). */
  readonly text?: string;
  /** The result as JSON, for channels that take JSON (Gemini `response.output`, Bedrock `{json}`). */
  readonly json?: unknown;
  /** The error flag, for providers that have one (Anthropic, Gemini, Bedrock). */
  readonly isError?: boolean;
}

/** What one request told the model. */
export interface ReceivedRequest {
  readonly system: string | undefined;
  /** The tool names offered, as the provider sees them. */
  readonly tools: readonly string[];
  /** The model's last turn as the request replays it (the provider's own shape). */
  readonly lastAssistant: unknown;
  /** The tool results after that turn, in order. */
  readonly results: readonly ReceivedResult[];
}

export interface ProviderDialect {
  readonly id: string;
  /** Whether the provider flags errors (`is_error`, `response.error`, `status`). */
  readonly flagsErrors: boolean;
  /** Whether its tool results name the function (Gemini, Mistral, Ollama). */
  readonly namesResults: boolean;
  /** The id of the scripted model's n-th call, in the provider's format (`undefined`: the provider sends none). */
  callId(index: number): string | undefined;
  /** The provider's response to a model turn. */
  reply(turn: ModelTurn): Exclude<StubReply, { readonly kind: 'respond' }>;
  /** What the adapter must send back for that turn: the provider's own turn, or its rebuilt form. */
  replayed(turn: ModelTurn): unknown;
  read(body: any): ReceivedRequest;
}

/** The value of a received result: its JSON, or its text parsed as JSON. */
export function resultValue(result: ReceivedResult | undefined): unknown {
  if (!result) throw new Error('no tool result was received');
  if (result.json !== undefined) return result.json;
  if (result.text === undefined) throw new Error('the tool result carries neither JSON nor text');
  return JSON.parse(result.text);
}

const calls = (turn: ModelTurn): readonly ModelCall[] => turn.calls ?? [];
const lastIndex = <T>(items: readonly T[], test: (item: T) => boolean): number => {
  for (let index = items.length - 1; index >= 0; index--) if (test(items[index] as T)) return index;
  return -1;
};

// --- OpenAI Chat Completions ---------------------------------------------------------------------------------------

function openaiChatToolCalls(turn: ModelTurn) {
  return calls(turn).map((call) => ({
    id: call.id ?? '',
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  }));
}

export const openaiChatDialect: ProviderDialect = {
  id: 'openai',
  namesResults: false,
  flagsErrors: false,
  callId: (index) => `call_${index}Qw8XkP2m`,
  reply: (turn) => ({
    kind: 'json',
    body: {
      id: 'chatcmpl-loop',
      object: 'chat.completion',
      created: 1795425600,
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: calls(turn).length > 0 ? 'tool_calls' : 'stop',
          message: {
            role: 'assistant',
            content: turn.text ?? null,
            refusal: null,
            ...(calls(turn).length > 0 ? { tool_calls: openaiChatToolCalls(turn) } : {}),
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    },
  }),
  replayed: (turn) => ({ role: 'assistant', content: turn.text ?? null, tool_calls: openaiChatToolCalls(turn) }),
  read: (body) => {
    const messages: any[] = body.messages;
    const assistant = lastIndex(messages, (message) => message.role === 'assistant');
    return {
      system: messages.find((message) => message.role === 'system')?.content,
      tools: (body.tools ?? []).map((tool: any) => tool.function.name),
      lastAssistant: messages[assistant],
      results: messages
        .slice(assistant + 1)
        .filter((message) => message.role === 'tool')
        .map((message) => ({ id: message.tool_call_id, text: message.content })),
    };
  },
};

// --- OpenAI Responses ----------------------------------------------------------------------------------------------

function responsesOutput(turn: ModelTurn): unknown[] {
  const output: unknown[] = [];
  // A reasoning model's reasoning item comes first; stateless conversations must send it back with the calls.
  if (calls(turn).length > 0)
    output.push({
      type: 'reasoning',
      id: 'rs_loop',
      summary: [{ type: 'summary_text', text: 'The user wants their events.' }],
    });
  if (turn.text !== undefined) {
    output.push({
      type: 'message',
      id: 'msg_loop',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  for (const call of calls(turn)) {
    output.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: 'completed',
    });
  }
  return output;
}

export const openaiResponsesDialect: ProviderDialect = {
  id: 'openai-responses',
  namesResults: false,
  flagsErrors: false,
  callId: (index) => `call_${index}Rz5TnY1c`,
  reply: (turn) => ({
    kind: 'json',
    body: {
      id: 'resp_loop',
      object: 'response',
      created_at: 1795425600,
      status: 'completed',
      model: 'gpt-4.1',
      output: responsesOutput(turn),
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
    },
  }),
  replayed: (turn) => responsesOutput(turn),
  read: (body) => {
    const input: any[] = body.input;
    const firstResult = lastIndex(input, (item) => item.type !== 'function_call_output') + 1;
    const turnStart =
      lastIndex(input.slice(0, firstResult), (item) => item.role === 'user' || item.type === 'function_call_output') +
      1;
    return {
      system: body.instructions,
      tools: (body.tools ?? []).map((tool: any) => tool.name),
      lastAssistant: input.slice(turnStart, firstResult),
      results: input.slice(firstResult).map((item) => ({ id: item.call_id, text: item.output })),
    };
  },
};

// --- Anthropic -----------------------------------------------------------------------------------------------------

function anthropicContent(turn: ModelTurn): unknown[] {
  return [
    ...(calls(turn).length > 0
      ? [{ type: 'thinking', thinking: 'The user wants their events.', signature: 'RXF0aGlua2luZw==' }]
      : []),
    ...(turn.text !== undefined ? [{ type: 'text', text: turn.text }] : []),
    ...calls(turn).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args })),
  ];
}

export const anthropicDialect: ProviderDialect = {
  id: 'anthropic',
  namesResults: false,
  flagsErrors: true,
  callId: (index) => `toolu_01${index}Bq7VxKd3`,
  reply: (turn) => ({
    kind: 'json',
    body: {
      id: 'msg_loop',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: anthropicContent(turn),
      stop_reason: calls(turn).length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    },
  }),
  replayed: (turn) => ({ role: 'assistant', content: anthropicContent(turn) }),
  read: (body) => {
    const messages: any[] = body.messages;
    const assistant = lastIndex(messages, (message) => message.role === 'assistant');
    const results = (messages[assistant + 1]?.content ?? []).filter((block: any) => block.type === 'tool_result');
    return {
      system: body.system,
      tools: (body.tools ?? []).map((tool: any) => tool.name),
      lastAssistant: messages[assistant],
      results: results.map((block: any) => ({
        id: block.tool_use_id,
        text: block.content,
        isError: block.is_error === true,
      })),
    };
  },
};

// --- Gemini --------------------------------------------------------------------------------------------------------

function geminiContent(turn: ModelTurn): unknown {
  return {
    role: 'model',
    parts: [
      ...(turn.text !== undefined ? [{ text: turn.text }] : []),
      // Gemini 3 puts a thought signature on the first function call; the API rejects a history without it.
      ...calls(turn).map((call, index) => ({
        functionCall: { name: call.name, args: call.args },
        ...(index === 0 ? { thoughtSignature: 'dGhvdWdodC1zaWduYXR1cmU=' } : {}),
      })),
    ],
  };
}

export const geminiDialect: ProviderDialect = {
  id: 'gemini',
  namesResults: true,
  flagsErrors: true,
  // The Gemini API sends calls without ids: the adapter matches results by order and name.
  callId: () => undefined,
  reply: (turn) => ({
    kind: 'json',
    body: {
      candidates: [{ content: geminiContent(turn), finishReason: 'STOP', index: 0 }],
      modelVersion: 'gemini-2.5-flash',
    },
  }),
  replayed: (turn) => geminiContent(turn),
  read: (body) => {
    const contents: any[] = body.contents;
    const model = lastIndex(contents, (content) => content.role === 'model');
    const instruction = body.systemInstruction;
    const parts = (contents[model + 1]?.parts ?? []).filter((part: any) => part.functionResponse);
    return {
      system:
        typeof instruction === 'string' ? instruction : instruction?.parts?.map((part: any) => part.text).join(''),
      tools: (body.tools ?? []).flatMap((tool: any) =>
        tool.functionDeclarations.map((declaration: any) => declaration.name),
      ),
      lastAssistant: contents[model],
      results: parts.map(({ functionResponse }: any) => ({
        ...(functionResponse.id !== undefined ? { id: functionResponse.id } : {}),
        name: functionResponse.name,
        ...('error' in functionResponse.response
          ? { text: functionResponse.response.error, isError: true }
          : { json: functionResponse.response.output, isError: false }),
      })),
    };
  },
};

// --- Mistral (the stub sees the wire format the SDK sends: snake_case) ---------------------------------------------

function mistralToolCalls(turn: ModelTurn) {
  return calls(turn).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  }));
}

export const mistralDialect: ProviderDialect = {
  id: 'mistral',
  namesResults: true,
  flagsErrors: false,
  callId: (index) => `Kq7PzX2m${index}`,
  reply: (turn) => ({
    kind: 'json',
    body: {
      id: 'cmpl-loop',
      object: 'chat.completion',
      model: 'mistral-large-latest',
      created: 1795425600,
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: turn.text ?? '',
            ...(calls(turn).length > 0
              ? { tool_calls: mistralToolCalls(turn).map((call, index) => ({ ...call, index })) }
              : {}),
          },
          finish_reason: calls(turn).length > 0 ? 'tool_calls' : 'stop',
        },
      ],
    },
  }),
  // The SDK fills in its defaults (`prefix`, each call's `index`) when it serializes the message.
  replayed: (turn) => ({
    role: 'assistant',
    content: turn.text ?? '',
    prefix: false,
    tool_calls: mistralToolCalls(turn).map((call) => ({ ...call, index: 0 })),
  }),
  read: (body) => {
    const messages: any[] = body.messages;
    const assistant = lastIndex(messages, (message) => message.role === 'assistant');
    return {
      system: messages.find((message) => message.role === 'system')?.content,
      tools: (body.tools ?? []).map((tool: any) => tool.function.name),
      lastAssistant: messages[assistant],
      results: messages
        .slice(assistant + 1)
        .filter((message) => message.role === 'tool')
        .map((message) => ({ id: message.tool_call_id, name: message.name, text: message.content })),
    };
  },
};

// --- Ollama (the adapter streams: the stub answers with NDJSON chunks) ---------------------------------------------

function ollamaToolCalls(turn: ModelTurn) {
  return calls(turn).map((call, index) => ({
    id: call.id,
    function: { index, name: call.name, arguments: call.args },
  }));
}

const ollamaChunk = (message: Record<string, unknown>, done = false) => ({
  model: 'qwen3:8b',
  created_at: '2026-11-21T10:00:00.000Z',
  message: { role: 'assistant', content: '', ...message },
  done,
  ...(done
    ? {
        done_reason: 'stop',
        total_duration: 1,
        load_duration: 1,
        prompt_eval_count: 1,
        prompt_eval_duration: 1,
        eval_count: 1,
        eval_duration: 1,
      }
    : {}),
});

export const ollamaDialect: ProviderDialect = {
  id: 'ollama',
  namesResults: true,
  flagsErrors: false,
  callId: (index) => `call_${index}k3x9q2a`,
  reply: (turn) => {
    const text = turn.text ?? '';
    const lines: unknown[] = [];
    if (calls(turn).length > 0)
      lines.push(ollamaChunk({ thinking: 'The user wants ' }), ollamaChunk({ thinking: 'their events.' }));
    // Text in two pieces and each call whole in its own chunk, as the server streams them.
    if (text !== '') lines.push(ollamaChunk({ content: text.slice(0, 8) }), ollamaChunk({ content: text.slice(8) }));
    for (const call of ollamaToolCalls(turn)) lines.push(ollamaChunk({ tool_calls: [call] }));
    lines.push(ollamaChunk({}, true));
    return { kind: 'ndjson', lines };
  },
  replayed: (turn) => ({
    role: 'assistant',
    content: turn.text ?? '',
    ...(calls(turn).length > 0 ? { thinking: 'The user wants their events.', tool_calls: ollamaToolCalls(turn) } : {}),
  }),
  read: (body) => {
    const messages: any[] = body.messages;
    const assistant = lastIndex(messages, (message) => message.role === 'assistant');
    return {
      system: messages.find((message) => message.role === 'system')?.content,
      tools: (body.tools ?? []).map((tool: any) => tool.function.name),
      lastAssistant: messages[assistant],
      results: messages
        .slice(assistant + 1)
        .filter((message) => message.role === 'tool')
        .map((message) => ({
          ...(message.tool_call_id !== undefined ? { id: message.tool_call_id } : {}),
          name: message.tool_name,
          text: message.content,
        })),
    };
  },
};

// --- Bedrock Converse (HTTP/2) -------------------------------------------------------------------------------------

function bedrockMessage(turn: ModelTurn): unknown {
  return {
    role: 'assistant',
    content: [
      ...(calls(turn).length > 0
        ? [{ reasoningContent: { reasoningText: { text: 'The user wants their events.', signature: 'cmVhc29uaW5n' } } }]
        : []),
      ...(turn.text !== undefined ? [{ text: turn.text }] : []),
      ...calls(turn).map((call) => ({ toolUse: { toolUseId: call.id, name: call.name, input: call.args } })),
    ],
  };
}

export const bedrockDialect: ProviderDialect = {
  id: 'bedrock',
  namesResults: false,
  flagsErrors: true,
  callId: (index) => `tooluse_${index}Hk2RmW9s`,
  reply: (turn) => ({
    kind: 'json',
    body: {
      output: { message: bedrockMessage(turn) },
      stopReason: calls(turn).length > 0 ? 'tool_use' : 'end_turn',
      usage: { inputTokens: 10, outputTokens: 10, totalTokens: 20 },
      metrics: { latencyMs: 5 },
    },
  }),
  replayed: (turn) => bedrockMessage(turn),
  read: (body) => {
    const messages: any[] = body.messages;
    const assistant = lastIndex(messages, (message) => message.role === 'assistant');
    const results = (messages[assistant + 1]?.content ?? [])
      .filter((block: any) => block.toolResult)
      .map((block: any) => block.toolResult);
    return {
      system: body.system?.map((block: any) => block.text).join(''),
      tools: (body.toolConfig?.tools ?? []).map((tool: any) => tool.toolSpec.name),
      lastAssistant: messages[assistant],
      results: results.map((result: any) => ({
        id: result.toolUseId,
        ...(result.content[0].json !== undefined ? { json: result.content[0].json } : { text: result.content[0].text }),
        isError: result.status === 'error',
      })),
    };
  },
};

// --- Harnesses: each adapter over its official SDK client, pointed at the stub -------------------------------------

export interface StubServers {
  /** HTTP/1.1, for every provider but Bedrock. */
  readonly http: StubServer;
  /** h2c, for the Bedrock runtime client. */
  readonly http2: StubServer;
}

export interface ProviderHarness {
  readonly dialect: ProviderDialect;
  readonly server: StubServer;
  readonly model: ChatModel;
  close(): Promise<void>;
}

// The Gemini and Ollama clients get an explicit fetch: their default one reads Node's global dispatcher, which jest's
// sandboxed globalThis does not expose.
const sandboxFetch: typeof fetch = (input, init) => fetch(input, init);

export function openaiChatHarness({ http }: StubServers): ProviderHarness {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
  return {
    dialect: openaiChatDialect,
    server: http,
    model: new OpenAIChatModel({ client, model: 'gpt-4.1', temperature: 0 }),
    close: async () => {},
  };
}

export function openaiResponsesHarness({ http }: StubServers): ProviderHarness {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
  return {
    dialect: openaiResponsesDialect,
    server: http,
    model: new OpenAIResponsesChatModel({ client, model: 'gpt-4.1', temperature: 0 }),
    close: async () => {},
  };
}

export function anthropicHarness({ http }: StubServers): ProviderHarness {
  const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: http.url, maxRetries: 0 });
  return {
    dialect: anthropicDialect,
    server: http,
    model: new AnthropicChatModel({ client, model: 'claude-sonnet-4-6', maxTokens: 1024 }),
    close: async () => {},
  };
}

export function geminiHarness({ http }: StubServers): ProviderHarness {
  const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: http.url, fetch: sandboxFetch } });
  return {
    dialect: geminiDialect,
    server: http,
    model: new GeminiChatModel({ client, model: 'gemini-2.5-flash', temperature: 0 }),
    close: async () => {},
  };
}

export function mistralHarness({ http }: StubServers): ProviderHarness {
  const client = startMistralClientProcess(http.url);
  return {
    dialect: mistralDialect,
    server: http,
    model: new MistralChatModel({ client, model: 'mistral-large-latest', temperature: 0 }),
    close: () => client.close(),
  };
}

export function ollamaHarness({ http }: StubServers): ProviderHarness {
  const client = new Ollama({ host: http.url, fetch: sandboxFetch });
  return {
    dialect: ollamaDialect,
    server: http,
    model: new OllamaChatModel({ client, model: 'qwen3:8b', temperature: 0 }),
    close: async () => {},
  };
}

export function bedrockHarness({ http2 }: StubServers): ProviderHarness {
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: http2.url,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    maxAttempts: 1,
  });
  return {
    dialect: bedrockDialect,
    server: http2,
    model: new BedrockChatModel({
      client,
      ConverseCommand,
      model: 'anthropic.claude-sonnet-4-6-v1:0',
      maxTokens: 1024,
    }),
    close: async () => client.destroy(),
  };
}

/** Every adapter's harness, by provider id. */
export const HARNESSES: ReadonlyArray<{
  readonly id: string;
  readonly create: (servers: StubServers) => ProviderHarness;
}> = [
  { id: 'openai', create: openaiChatHarness },
  { id: 'openai-responses', create: openaiResponsesHarness },
  { id: 'anthropic', create: anthropicHarness },
  { id: 'gemini', create: geminiHarness },
  { id: 'mistral', create: mistralHarness },
  { id: 'ollama', create: ollamaHarness },
  { id: 'bedrock', create: bedrockHarness },
];

/** Fails the type-check unless the official `Mistral` client is accepted where the adapter takes its client (the tests run it behind a proxy). */
type AssertTrue<T extends true> = T;
export type MistralClientIsAccepted = AssertTrue<Mistral extends MistralChatClient ? true : false>;

// --- Scripts: the scripted model's turns, each computed from the request it answers --------------------------------

export type ScriptStep = (received: ReceivedRequest) => ModelTurn;

/** Queues the scripted model's turns on the harness's stub; returns the turns as they are played, in order. */
export function play(harness: ProviderHarness, steps: readonly ScriptStep[]): ModelTurn[] {
  const played: ModelTurn[] = [];
  for (const step of steps) {
    harness.server.reply({
      kind: 'respond',
      respond: (request) => {
        const turn = step(harness.dialect.read(request.body));
        played.push(turn);
        return harness.dialect.reply(turn);
      },
    });
  }
  return played;
}

/** A turn with one call (`id` left out when the provider sends none). */
export function callTurn(id: string | undefined, name: string, args: Record<string, unknown>): ModelTurn {
  return { calls: [{ ...(id !== undefined ? { id } : {}), name, args }] };
}

/**
 * Seed 001's script: (1) `get_calendar_events` with `resolved_datetimes: "tomorrow"`; (2) only once told to, a call
 * to `resolve_relative_date` with `{ "phrase": "tomorrow" }`; (3) `get_calendar_events` with the start of the date it
 * returned, at the offset the resolution's reference carries; (4) a final answer naming the event it got back. A step
 * that does not find what it expects throws, and the stub answers 500 with the reason.
 */
export function relativeDateScript(dialect: ProviderDialect): ScriptStep[] {
  const ids = [0, 1, 2].map((index) => dialect.callId(index));
  return [
    () => callTurn(ids[0], 'get_calendar_events', { resolved_datetimes: 'tomorrow' }),
    (received) => {
      const told = received.results[0]?.text ?? '';
      if (!told.includes('call resolve_relative_date with the phrase first'))
        throw new Error(`the model was not told to resolve the date: ${told}`);
      return callTurn(ids[1], 'resolve_relative_date', { phrase: 'tomorrow' });
    },
    (received) => {
      const resolution = resultValue(received.results[0]) as { date: string; reference: string };
      const offset = /([+-]\d\d:\d\d|Z)$/.exec(resolution.reference)?.[1] ?? '';
      return callTurn(ids[2], 'get_calendar_events', { resolved_datetimes: [`${resolution.date}T00:00:00${offset}`] });
    },
    (received) => {
      const { events } = resultValue(received.results[0]) as { events: Array<{ title: string; start: string }> };
      return { text: `Tomorrow you have ${events.length} event: ${events[0]?.title} at ${events[0]?.start}.` };
    },
  ];
}
