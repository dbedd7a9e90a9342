import 'reflect-metadata';
import { runToolLoop } from '@toolwright/core';
import { OllamaChatModel } from '@toolwright/providers/ollama';
import { OpenAIChatModel } from '@toolwright/providers/openai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { calendarRegistry, CONTEXT, CONVERSATION, EVENTS } from '../support/calendar-loop';
import { startStubServer, type StubServer } from '../support/stub-server';

/**
 * The adapters' fallback to parseTextToolCalls, through the official SDK clients against a local stub server: an
 * OpenAI-compatible server (vLLM, llama.cpp, LM Studio) that passed the model's tool call through as `content`, and
 * Ollama streaming it as text; the tool loop runs those calls.
 */
const sandboxFetch: typeof fetch = (input, init) => fetch(input, init);
const registry = calendarRegistry();
const TOOLS = registry.list();
const WHEN = '2026-11-22T00:00:00+01:00';

let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function completion(content: string) {
  return {
    kind: 'json' as const,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'qwen3-coder',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}

const openaiModel = (options: { textToolCalls?: boolean } = {}) =>
  new OpenAIChatModel({
    client: new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 }),
    model: 'qwen3-coder',
    ...options,
  });

const QWEN3_CODER_CALL = `<tool_call>\n<function=get_calendar_events>\n<parameter=resolved_datetimes>\n["${WHEN}"]\n</parameter>\n</function>\n</tool_call>`;

describe('OpenAI-compatible server -> openai SDK -> OpenAIChatModel: calls written into content', () => {
  it('reads them (raw values typed by the schema) and leaves the rest as the turn text', async () => {
    server.reply(completion(`<think>They want tomorrow.</think>Checking your calendar.\n${QWEN3_CODER_CALL}`));
    const turn = await openaiModel().complete({ messages: CONVERSATION, tools: TOOLS });
    expect(turn.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_calendar_events', arguments: { resolved_datetimes: [WHEN] } }),
    ]);
    expect(turn.text).toBe('Checking your calendar.');
  });

  const ARGUMENTS = `{"resolved_datetimes": ["${WHEN}"]}`;
  it.each([
    [
      'deepseek-v3.1',
      `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_calendar_events<｜tool▁sep｜>${ARGUMENTS}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    ],
    [
      'kimi-k2',
      `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_calendar_events:0<|tool_call_argument_begin|>${ARGUMENTS}<|tool_call_end|><|tool_calls_section_end|>`,
    ],
    [
      'gpt-oss',
      `<|channel|>analysis<|message|>Tomorrow.<|end|><|start|>assistant<|channel|>commentary to=functions.get_calendar_events <|constrain|>json<|message|>${ARGUMENTS}`,
    ],
    [
      'glm-4.5',
      `<tool_call>get_calendar_events\n<arg_key>resolved_datetimes</arg_key>\n<arg_value>["${WHEN}"]</arg_value>\n</tool_call>`,
    ],
  ])('reads a %s call written into content', async (_dialect, content) => {
    server.reply(completion(content));
    const turn = await openaiModel().complete({ messages: CONVERSATION, tools: TOOLS });
    expect(turn.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_calendar_events', arguments: { resolved_datetimes: [WHEN] } }),
    ]);
    expect(turn.text).toBeUndefined(); // nothing but the call: no turn text
  });

  it('runs them in the tool loop, and sends the results back as tool messages with the generated ids', async () => {
    server.reply(completion(`{"name": "get_calendar_events", "arguments": {"resolved_datetimes": ["${WHEN}"]}}`));
    server.reply(completion('You have a standup at midnight.'));
    const result = await runToolLoop({ model: openaiModel(), registry, messages: CONVERSATION, context: CONTEXT });
    expect(result.text).toBe('You have a standup at midnight.');
    const second = server.requests[1]?.body as {
      messages: { role: string; content: unknown; tool_calls?: unknown[] }[];
    };
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(String(toolMessage?.content))).toEqual(EVENTS);
    const assistant = second.messages.find((message) => message.role === 'assistant');
    expect(assistant?.tool_calls).toEqual([
      expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_calendar_events' }) }),
    ]);
  });

  it('keeps the text whole and reads no call when the call is cut off, or when textToolCalls is false', async () => {
    const cut = QWEN3_CODER_CALL.slice(0, 90);
    server.reply(completion(cut));
    const cutTurn = await openaiModel().complete({ messages: CONVERSATION, tools: TOOLS });
    expect(cutTurn.toolCalls).toEqual([]);
    expect(cutTurn.text).toBe(cut);
    server.reply(completion(QWEN3_CODER_CALL));
    const off = await openaiModel({ textToolCalls: false }).complete({ messages: CONVERSATION, tools: TOOLS });
    expect(off.toolCalls).toEqual([]);
    expect(off.text).toBe(QWEN3_CODER_CALL);
  });
});

describe('Ollama -> ollama SDK (streamed) -> OllamaChatModel: calls written into content', () => {
  const chunk = (content: string, done = false) => ({
    model: 'llama3.2',
    created_at: '2026-11-21T10:00:00.000Z',
    message: { role: 'assistant', content },
    done,
    ...(done ? { done_reason: 'stop', total_duration: 1, eval_count: 1 } : {}),
  });

  it('reads a pythonic call split over chunks, and the tool loop runs it', async () => {
    const text = `[get_calendar_events(resolved_datetimes=['${WHEN}'])]`;
    server.reply({
      kind: 'ndjson',
      lines: [chunk(text.slice(0, 11)), chunk(text.slice(11, 30)), chunk(text.slice(30)), chunk('', true)],
    });
    server.reply({ kind: 'ndjson', lines: [chunk('You have a standup.'), chunk('', true)] });
    const model = new OllamaChatModel({
      client: new Ollama({ host: server.url, fetch: sandboxFetch }),
      model: 'llama3.2',
    });
    const result = await runToolLoop({ model, registry, messages: CONVERSATION, context: CONTEXT });
    expect(result.text).toBe('You have a standup.');
    const second = server.requests[1]?.body as {
      messages: { role: string; content: string; tool_calls?: unknown[] }[];
    };
    expect(second.messages.find((message) => message.role === 'assistant')?.tool_calls).toEqual([
      expect.objectContaining({ function: { name: 'get_calendar_events', arguments: { resolved_datetimes: [WHEN] } } }),
    ]);
    expect(JSON.parse(second.messages.find((message) => message.role === 'tool')?.content ?? '')).toEqual(EVENTS);
  });
});
