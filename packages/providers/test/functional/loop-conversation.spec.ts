import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import {
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  type ChatMessage,
  type ChatModel,
  type ToolCall,
} from '@toolwright/core';
import { AnthropicChatModel, ANTHROPIC_CALL_ID_PROFILE, CallIdCodec } from '@toolwright/providers/anthropic';
import { BedrockChatModel, BEDROCK_CALL_ID_PROFILE } from '@toolwright/providers/bedrock';
import { GeminiChatModel } from '@toolwright/providers/gemini';
import { MistralChatModel, MISTRAL_CALL_ID_PROFILE } from '@toolwright/providers/mistral';
import { OllamaChatModel } from '@toolwright/providers/ollama';
import { OpenAIChatModel } from '@toolwright/providers/openai';
import { OpenAIResponsesChatModel } from '@toolwright/providers/openai-responses';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import {
  calendarRegistry,
  CONTEXT,
  CONVERSATION,
  FIRST_RETRY,
  QUESTION,
  RESOLUTION,
  SYSTEM,
} from '../support/calendar-loop';
import { HARNESSES, type ProviderHarness, type StubServers } from '../support/scripted-providers';
import { startStubServer } from '../support/stub-server';

// The first request of each SDK loads its client (Mistral's is an ESM package loaded in a child step) and can take
// several seconds on a busy machine: a generous explicit timeout, never jest's 5 s default.
jest.setTimeout(60_000);

/**
 * A conversation the adapter did not produce (another model's turns, a stored history, the scripted model) is rebuilt
 * in each provider's own shape: names encoded, ids rewritten where the provider restricts them (and generated ids
 * left out where the provider has none), the loop's texts sent as they are. Each request goes through the official
 * SDK, so the test also shows the SDK accepts what the adapter builds.
 */

const FOLLOW_UP = 'Thanks, go on.';
/** An id from another provider (invalid for Anthropic, Bedrock and Mistral) and one toolwright generated. */
const IDS = ['functions.get_calendar_events:0', 'toolwright_call_Ab12Cd34_1'] as const;
const RESOLUTION_TEXT = JSON.stringify(RESOLUTION);

/** The conversation after one turn of the scripted model, which called both tools at once (one call invalid). */
async function foreignHistory(): Promise<ChatMessage[]> {
  const calls: ToolCall[] = [
    { id: IDS[0], name: 'get_calendar_events', arguments: '{"resolved_datetimes":"tomorrow"}' },
    { id: IDS[1], name: 'resolve_relative_date', arguments: { phrase: 'tomorrow' } },
  ];
  const scripted = new ScriptedChatModel([{ text: 'Let me check.', toolCalls: calls }]);
  const loop = await runToolLoop({
    model: scripted,
    registry: calendarRegistry(),
    messages: CONVERSATION,
    context: CONTEXT,
    maxSteps: 1,
    logger: silentLogger,
  });
  expect(loop.status).toBe('max-steps');
  return [...loop.messages, { role: 'user', content: FOLLOW_UP }];
}

const mapped = (profile: typeof ANTHROPIC_CALL_ID_PROFILE, id: string): string =>
  new CallIdCodec(profile).toProvider(id);

/** Each provider's conversation section of the request, and what it must be. */
const GOLDEN: Readonly<Record<string, { readonly section: (body: any) => unknown; readonly expected: () => unknown }>> =
  {
    openai: {
      section: (body) => body.messages,
      expected: () => [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: IDS[0],
              type: 'function',
              function: { name: 'get_calendar_events', arguments: '{"resolved_datetimes":"tomorrow"}' },
            },
            {
              id: IDS[1],
              type: 'function',
              function: { name: 'resolve_relative_date', arguments: '{"phrase":"tomorrow"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: IDS[0], content: FIRST_RETRY },
        { role: 'tool', tool_call_id: IDS[1], content: RESOLUTION_TEXT },
        { role: 'user', content: FOLLOW_UP },
      ],
    },
    'openai-responses': {
      section: (body) => ({ instructions: body.instructions, input: body.input }),
      expected: () => ({
        instructions: SYSTEM,
        input: [
          { role: 'user', content: QUESTION },
          { role: 'assistant', content: 'Let me check.' },
          {
            type: 'function_call',
            call_id: IDS[0],
            name: 'get_calendar_events',
            arguments: '{"resolved_datetimes":"tomorrow"}',
          },
          { type: 'function_call', call_id: IDS[1], name: 'resolve_relative_date', arguments: '{"phrase":"tomorrow"}' },
          { type: 'function_call_output', call_id: IDS[0], output: FIRST_RETRY },
          { type: 'function_call_output', call_id: IDS[1], output: RESOLUTION_TEXT },
          { role: 'user', content: FOLLOW_UP },
        ],
      }),
    },
    anthropic: {
      section: (body) => ({ system: body.system, messages: body.messages }),
      expected: () => {
        const first = mapped(ANTHROPIC_CALL_ID_PROFILE, IDS[0]);
        expect(first).toMatch(/^functions_get_calendar_events_0_[0-9a-f]{8}$/);
        return {
          system: SYSTEM,
          messages: [
            { role: 'user', content: [{ type: 'text', text: QUESTION }] },
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'Let me check.' },
                { type: 'tool_use', id: first, name: 'get_calendar_events', input: { resolved_datetimes: 'tomorrow' } },
                { type: 'tool_use', id: IDS[1], name: 'resolve_relative_date', input: { phrase: 'tomorrow' } },
              ],
            },
            // The results first, then the user's text: one user turn.
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: first, content: FIRST_RETRY, is_error: true },
                { type: 'tool_result', tool_use_id: IDS[1], content: RESOLUTION_TEXT },
                { type: 'text', text: FOLLOW_UP },
              ],
            },
          ],
        };
      },
    },
    gemini: {
      section: (body) => body.contents,
      expected: () => [
        { role: 'user', parts: [{ text: QUESTION }] },
        {
          role: 'model',
          parts: [
            { text: 'Let me check.' },
            { functionCall: { id: IDS[0], name: 'get_calendar_events', args: { resolved_datetimes: 'tomorrow' } } },
            // A generated id is toolwright's, not Gemini's: left out, the response is matched by order and name.
            { functionCall: { name: 'resolve_relative_date', args: { phrase: 'tomorrow' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: IDS[0], name: 'get_calendar_events', response: { error: FIRST_RETRY } } },
            { functionResponse: { name: 'resolve_relative_date', response: { output: RESOLUTION } } },
            { text: FOLLOW_UP },
          ],
        },
      ],
    },
    mistral: {
      section: (body) => body.messages,
      expected: () => {
        const [first, second] = IDS.map((id) => mapped(MISTRAL_CALL_ID_PROFILE, id));
        expect([first, second]).toEqual([
          expect.stringMatching(/^[a-zA-Z0-9]{9}$/),
          expect.stringMatching(/^[a-zA-Z0-9]{9}$/),
        ]);
        return [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: QUESTION },
          {
            role: 'assistant',
            content: 'Let me check.',
            prefix: false,
            tool_calls: [
              {
                id: first,
                type: 'function',
                function: { name: 'get_calendar_events', arguments: '{"resolved_datetimes":"tomorrow"}' },
                index: 0,
              },
              {
                id: second,
                type: 'function',
                function: { name: 'resolve_relative_date', arguments: '{"phrase":"tomorrow"}' },
                index: 0,
              },
            ],
          },
          { role: 'tool', tool_call_id: first, name: 'get_calendar_events', content: FIRST_RETRY },
          { role: 'tool', tool_call_id: second, name: 'resolve_relative_date', content: RESOLUTION_TEXT },
          { role: 'user', content: FOLLOW_UP },
        ];
      },
    },
    ollama: {
      section: (body) => body.messages,
      expected: () => [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: IDS[0], function: { name: 'get_calendar_events', arguments: { resolved_datetimes: 'tomorrow' } } },
            { function: { name: 'resolve_relative_date', arguments: { phrase: 'tomorrow' } } },
          ],
        },
        { role: 'tool', tool_name: 'get_calendar_events', tool_call_id: IDS[0], content: FIRST_RETRY },
        { role: 'tool', tool_name: 'resolve_relative_date', content: RESOLUTION_TEXT },
        { role: 'user', content: FOLLOW_UP },
      ],
    },
    bedrock: {
      section: (body) => ({ system: body.system, messages: body.messages }),
      expected: () => {
        const first = mapped(BEDROCK_CALL_ID_PROFILE, IDS[0]);
        expect(first).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        return {
          system: [{ text: SYSTEM }],
          messages: [
            { role: 'user', content: [{ text: QUESTION }] },
            {
              role: 'assistant',
              content: [
                { text: 'Let me check.' },
                {
                  toolUse: { toolUseId: first, name: 'get_calendar_events', input: { resolved_datetimes: 'tomorrow' } },
                },
                { toolUse: { toolUseId: IDS[1], name: 'resolve_relative_date', input: { phrase: 'tomorrow' } } },
              ],
            },
            {
              role: 'user',
              content: [
                { toolResult: { toolUseId: first, content: [{ text: FIRST_RETRY }], status: 'error' } },
                { toolResult: { toolUseId: IDS[1], content: [{ json: RESOLUTION }], status: 'success' } },
                { text: FOLLOW_UP },
              ],
            },
          ],
        };
      },
    },
  };

let servers: StubServers;
beforeAll(async () => {
  servers = { http: await startStubServer(), http2: await startStubServer({ http2: true }) };
});
afterAll(async () => {
  await servers.http.close();
  await servers.http2.close();
});

describe.each(HARNESSES.map((entry) => [entry.id, entry.create] as const))(
  '%s ChatModel: a conversation built elsewhere',
  (id, create) => {
    let harness: ProviderHarness;
    beforeAll(() => {
      harness = create(servers);
    });
    afterAll(() => harness.close());
    beforeEach(() => harness.server.reset());

    it("is rebuilt in the provider's shape and accepted by its SDK", async () => {
      const history = await foreignHistory();
      harness.server.reply(harness.dialect.reply({ text: 'Tomorrow you have a standup at midnight.' }));
      const turn = await harness.model.complete({ messages: history, tools: calendarRegistry().list() });
      expect(turn).toMatchObject({ text: 'Tomorrow you have a standup at midnight.', toolCalls: [] });
      expect(harness.server.requests).toHaveLength(1);
      const golden = GOLDEN[id];
      if (!golden) throw new Error(`no golden request for ${id}`);
      expect(golden.section(harness.server.requests[0]?.body)).toEqual(golden.expected());
    });
  },
);

describe('adapter options reach the request', () => {
  const tools = calendarRegistry().list();
  const messages = CONVERSATION;
  const unused = 'http://127.0.0.1:9';

  it('OpenAI Chat: model, temperature, max_completion_tokens, strict tools, developer role, extra fields', () => {
    const model = new OpenAIChatModel({
      client: new OpenAI({ apiKey: 'sk-test', baseURL: unused }),
      model: 'gpt-5',
      temperature: 0.2,
      maxTokens: 100,
      strict: true,
      systemRole: 'developer',
      request: { parallel_tool_calls: false },
    });
    const body = model.toProviderRequest({ messages, tools });
    expect(model.name).toBe('openai:gpt-5');
    expect(body).toMatchObject({
      model: 'gpt-5',
      temperature: 0.2,
      max_completion_tokens: 100,
      parallel_tool_calls: false,
    });
    expect(body.messages[0]).toEqual({ role: 'developer', content: SYSTEM });
    expect(
      body.tools?.map((tool) => [
        tool.function.name,
        tool.function.strict,
        tool.function.parameters?.['additionalProperties'],
      ]),
    ).toEqual([
      ['get_calendar_events', true, false],
      ['resolve_relative_date', true, false],
    ]);
  });

  it('OpenAI Responses: instructions, max_output_tokens, strict sent explicitly, extra fields', () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: unused });
    const body = new OpenAIResponsesChatModel({
      client,
      model: 'gpt-5',
      maxTokens: 100,
      request: { store: false },
    }).toProviderRequest({ messages, tools });
    expect(body).toMatchObject({ model: 'gpt-5', instructions: SYSTEM, max_output_tokens: 100, store: false });
    expect(body.tools?.map((tool) => tool.strict)).toEqual([false, false]);
    const strict = new OpenAIResponsesChatModel({ client, model: 'gpt-5', strict: true }).toProviderRequest({
      messages,
      tools,
    });
    expect(strict.tools?.map((tool) => tool.strict)).toEqual([true, true]);
  });

  it('Anthropic: max_tokens (4096 unless given), temperature, strict tools, extra fields', () => {
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: unused });
    expect(
      new AnthropicChatModel({ client, model: 'claude-sonnet-4-6' }).toProviderRequest({ messages, tools }).max_tokens,
    ).toBe(4096);
    const body = new AnthropicChatModel({
      client,
      model: 'claude-sonnet-4-6',
      maxTokens: 100,
      temperature: 0,
      strict: true,
      request: { tool_choice: { type: 'any' } },
    }).toProviderRequest({ messages, tools });
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      temperature: 0,
      tool_choice: { type: 'any' },
      system: SYSTEM,
    });
    expect(body.tools?.map((tool) => tool.strict)).toEqual([true, true]);
  });

  it('Gemini: systemInstruction, temperature, maxOutputTokens, the schema field, extra config', () => {
    const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: unused } });
    const model = new GeminiChatModel({
      client,
      model: 'gemini-2.5-flash',
      temperature: 0.5,
      maxTokens: 100,
      toolOptions: { schemaField: 'parametersJsonSchema' },
      config: { toolConfig: { functionCallingConfig: { mode: 'ANY' } } },
    });
    const request = model.toProviderRequest({ messages, tools });
    expect(model.name).toBe('gemini:gemini-2.5-flash');
    expect(request.config).toMatchObject({
      systemInstruction: SYSTEM,
      temperature: 0.5,
      maxOutputTokens: 100,
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
    expect(
      request.config.tools?.[0]?.functionDeclarations.map((declaration) => [
        declaration.name,
        declaration.parameters,
        typeof declaration.parametersJsonSchema,
      ]),
    ).toEqual([
      ['get_calendar_events', undefined, 'object'],
      ['resolve_relative_date', undefined, 'object'],
    ]);
  });

  it('Mistral: temperature, maxTokens, strict tools, extra fields (as the SDK spells them)', () => {
    const client = { chat: { complete: () => Promise.reject(new Error('not called')) } };
    const body = new MistralChatModel({
      client,
      model: 'mistral-large-latest',
      temperature: 0.1,
      maxTokens: 100,
      strict: true,
      request: { toolChoice: 'any' },
    }).toProviderRequest({ messages, tools });
    expect(body).toMatchObject({ model: 'mistral-large-latest', temperature: 0.1, maxTokens: 100, toolChoice: 'any' });
    expect(body.tools?.map((tool) => tool.function.strict)).toEqual([true, true]);
  });

  it('Ollama: streams, with temperature and num_predict among the model options, extra fields', () => {
    const client = new Ollama({ host: unused });
    const body = new OllamaChatModel({
      client,
      model: 'qwen3:8b',
      temperature: 0,
      maxTokens: 100,
      modelOptions: { num_ctx: 8192 },
      request: { think: false },
    }).toProviderRequest({ messages, tools });
    expect(body).toMatchObject({
      model: 'qwen3:8b',
      stream: true,
      think: false,
      options: { num_ctx: 8192, temperature: 0, num_predict: 100 },
    });
  });

  it('Bedrock: inferenceConfig and toolConfig merged with the extra fields, strict tool specs', () => {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: unused,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });
    const model: ChatModel & BedrockChatModel = new BedrockChatModel({
      client,
      ConverseCommand,
      model: 'amazon.nova-pro-v1:0',
      temperature: 0.3,
      maxTokens: 100,
      strict: true,
      request: { inferenceConfig: { topP: 0.9 }, toolConfig: { toolChoice: { any: {} } } },
    });
    const input = model.toProviderRequest({ messages, tools });
    client.destroy();
    expect(model.name).toBe('bedrock:amazon.nova-pro-v1:0');
    expect(input).toMatchObject({
      modelId: 'amazon.nova-pro-v1:0',
      system: [{ text: SYSTEM }],
      inferenceConfig: { topP: 0.9, maxTokens: 100, temperature: 0.3 },
      toolConfig: { toolChoice: { any: {} } },
    });
    expect(input.toolConfig?.tools.map((tool) => [tool.toolSpec.name, tool.toolSpec.strict])).toEqual([
      ['get_calendar_events', true],
      ['resolve_relative_date', true],
    ]);
  });
});
