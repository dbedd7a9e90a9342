import 'reflect-metadata';
import { BedrockRuntimeClient, ConverseCommand, type Message as BedrockMessage } from '@aws-sdk/client-bedrock-runtime';
import { CohereClientV2, type Cohere } from 'cohere-ai';
import { Ollama, type Message as OllamaMessage } from 'ollama';
import * as bedrock from '@toolwright/providers/bedrock';
import * as cohere from '@toolwright/providers/cohere';
import * as ollama from '@toolwright/providers/ollama';
import {
  CALENDAR_ARGUMENTS,
  CALENDAR_VALUE,
  PROPOSE_ARGUMENTS,
  PROPOSE_VALUE,
  seedExecutor,
} from '../support/seed-executor';
import { startStubServer, type StubServer } from '../support/stub-server';

let server: StubServer;
let http2Server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
  http2Server = await startStubServer({ http2: true });
});
afterAll(async () => {
  await server.close();
  await http2Server.close();
});
beforeEach(() => {
  server.requests.splice(0);
  http2Server.requests.splice(0);
});

describe('ollama -> stub /api/chat -> executor', () => {
  it('sends our lowered tools, parses object arguments (and server ids), runs them and sends tool messages back', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = ollama.createToolSet(registry);
    const client = new Ollama({ host: server.url, fetch: (input, init) => fetch(input, init) });
    const chatResponse = (message: Record<string, unknown>) => ({
      model: 'qwen3:8b',
      created_at: '2026-11-23T14:00:00.000Z',
      message,
      done: true,
      done_reason: 'stop',
      total_duration: 1,
      load_duration: 1,
      prompt_eval_count: 1,
      prompt_eval_duration: 1,
      eval_count: 1,
      eval_duration: 1,
    });
    server.reply({
      kind: 'json',
      body: chatResponse({
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_k3x9q2ab', function: { index: 0, name: 'decision_propose', arguments: PROPOSE_ARGUMENTS } },
          { function: { index: 1, name: 'get_calendar_events', arguments: CALENDAR_ARGUMENTS } },
        ],
      }),
    });
    const messages: OllamaMessage[] = [{ role: 'user', content: 'Plan lunch and check my calendar.' }];
    const response = await client.chat({ model: 'qwen3:8b', messages, tools: toolSet.tools, stream: false });
    expect(server.requests[0]?.url).toBe('/api/chat');
    expect(server.requests[0]?.body.tools).toEqual(toolSet.tools);

    const calls = ollama.parseToolCalls(response, { toolSet });
    expect(calls.map((call) => call.name)).toEqual(['decision/propose', 'get_calendar_events']);
    expect(calls[0]?.id).toBe('call_k3x9q2ab');
    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);

    server.reply({ kind: 'json', body: chatResponse({ role: 'assistant', content: 'Done.' }) });
    await client.chat({
      model: 'qwen3:8b',
      messages: [...messages, response.message, ...ollama.toToolResultMessages(results, { toolSet })],
      tools: toolSet.tools,
      stream: false,
    });
    expect(server.requests[1]?.body.messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_name: 'decision_propose',
        tool_call_id: 'call_k3x9q2ab',
        content: JSON.stringify(PROPOSE_VALUE),
      },
      { role: 'tool', tool_name: 'get_calendar_events', content: JSON.stringify(CALENDAR_VALUE) },
    ]);
  });
});

describe('@aws-sdk/client-bedrock-runtime -> stub Converse -> executor', () => {
  it('sends our toolConfig (signed with fake credentials), parses toolUse blocks, runs them and sends toolResult blocks back', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = bedrock.createToolSet(registry);
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: http2Server.url,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      maxAttempts: 1,
    });
    http2Server.reply({
      kind: 'json',
      body: {
        output: {
          message: {
            role: 'assistant',
            content: [
              { text: 'Let me do both.' },
              { toolUse: { toolUseId: 'tooluse_propose', name: 'decision_propose', input: PROPOSE_ARGUMENTS } },
              { toolUse: { toolUseId: 'tooluse_calendar', name: 'get_calendar_events', input: CALENDAR_ARGUMENTS } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 10, totalTokens: 20 },
        metrics: { latencyMs: 5 },
      },
    });
    const messages: BedrockMessage[] = [{ role: 'user', content: [{ text: 'Plan lunch and check my calendar.' }] }];
    const modelId = 'anthropic.claude-sonnet-4-6-v1:0';
    const response = await client.send(
      new ConverseCommand({ modelId, messages, toolConfig: { tools: toolSet.tools } }),
    );
    expect(decodeURIComponent(http2Server.requests[0]?.url ?? '')).toBe(`/model/${modelId}/converse`);
    expect(http2Server.requests[0]?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    expect(http2Server.requests[0]?.body.toolConfig).toEqual({ tools: toolSet.tools });

    const calls = bedrock.parseToolCalls(response, { toolSet });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['tooluse_propose', 'decision/propose'],
      ['tooluse_calendar', 'get_calendar_events'],
    ]);
    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);

    http2Server.reply({
      kind: 'json',
      body: {
        output: { message: { role: 'assistant', content: [{ text: 'Done.' }] } },
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        metrics: { latencyMs: 1 },
      },
    });
    await client.send(
      new ConverseCommand({
        modelId,
        messages: [...messages, response.output?.message as BedrockMessage, ...bedrock.toToolResultMessages(results)],
        toolConfig: { tools: toolSet.tools },
      }),
    );
    expect(http2Server.requests[1]?.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { toolResult: { toolUseId: 'tooluse_propose', content: [{ json: PROPOSE_VALUE }], status: 'success' } },
        { toolResult: { toolUseId: 'tooluse_calendar', content: [{ json: CALENDAR_VALUE }], status: 'success' } },
      ],
    });
  });
});

describe('cohere-ai (v2) -> stub /v2/chat -> executor', () => {
  it('sends our tools, parses tool calls, runs them and sends document results back (wire snake_case)', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = cohere.createToolSet(registry);
    const client = new CohereClientV2({ token: 'test-token', environment: server.url });
    server.reply({
      kind: 'json',
      body: {
        id: 'c14c80c3',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_plan: 'I will propose the decision and check the calendar.',
          tool_calls: [
            {
              id: 'decision_propose_k88p0m8504w5',
              type: 'function',
              function: { name: 'decision_propose', arguments: JSON.stringify(PROPOSE_ARGUMENTS) },
            },
            {
              id: 'get_calendar_events_a1b2c3d4e5f6',
              type: 'function',
              function: { name: 'get_calendar_events', arguments: JSON.stringify(CALENDAR_ARGUMENTS) },
            },
          ],
        },
        usage: { billed_units: { input_tokens: 1, output_tokens: 1 }, tokens: { input_tokens: 1, output_tokens: 1 } },
      },
    });
    const messages: Cohere.ChatMessageV2[] = [{ role: 'user', content: 'Plan lunch and check my calendar.' }];
    const response = await client.chat({ model: 'command-a-03-2025', messages, tools: toolSet.tools });
    expect(server.requests[0]?.url).toBe('/v2/chat');
    expect(server.requests[0]?.body.tools).toEqual(toolSet.tools);

    const calls = cohere.parseToolCalls(response, { toolSet });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['decision_propose_k88p0m8504w5', 'decision/propose'],
      ['get_calendar_events_a1b2c3d4e5f6', 'get_calendar_events'],
    ]);
    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);

    server.reply({
      kind: 'json',
      body: {
        id: 'c2',
        finish_reason: 'COMPLETE',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      },
    });
    await client.chat({
      model: 'command-a-03-2025',
      messages: [
        ...messages,
        { role: 'assistant', toolPlan: response.message.toolPlan, toolCalls: response.message.toolCalls },
        ...cohere.toToolResultMessages(results),
      ],
      tools: toolSet.tools,
    });
    expect(server.requests[1]?.body.messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'decision_propose_k88p0m8504w5',
        content: [{ type: 'document', document: { data: PROPOSE_VALUE } }],
      },
      {
        role: 'tool',
        tool_call_id: 'get_calendar_events_a1b2c3d4e5f6',
        content: [{ type: 'document', document: { data: CALENDAR_VALUE } }],
      },
    ]);
  });
});
