import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import * as anthropic from '@toolwright/providers/anthropic';
import {
  CALENDAR_ARGUMENTS,
  CALENDAR_VALUE,
  PROPOSE_ARGUMENTS,
  PROPOSE_VALUE,
  seedExecutor,
} from '../support/seed-executor';
import { startStubServer, type StubServer } from '../support/stub-server';

let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());
beforeEach(() => server.requests.splice(0));

const client = (): Anthropic => new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
const message = (content: unknown[], stopReason = 'tool_use') => ({
  id: 'msg_e2e',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 10 },
});

describe('@anthropic-ai/sdk -> stub Messages API -> executor', () => {
  it('sends our tools, parses parallel tool_use blocks, runs them and sends tool_result blocks back', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = anthropic.createToolSet(registry, { strict: true });
    server.reply({
      kind: 'json',
      body: message([
        { type: 'text', text: 'On it.' },
        { type: 'tool_use', id: 'toolu_propose', name: 'decision_propose', input: PROPOSE_ARGUMENTS },
        {
          type: 'tool_use',
          id: 'toolu_calendar',
          name: 'get_calendar_events',
          input: { ...CALENDAR_ARGUMENTS, max_results: '5' },
        },
      ]),
    });
    const messages: Anthropic.Messages.MessageParam[] = [
      { role: 'user', content: 'Plan lunch and check my calendar.' },
    ];
    const response = await client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages,
      tools: toolSet.tools,
    });
    expect(server.requests[0]?.url).toBe('/v1/messages');
    expect(server.requests[0]?.body.tools).toEqual(toolSet.tools);

    const calls = anthropic.parseToolCalls(response, { toolSet });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['toolu_propose', 'decision/propose'],
      ['toolu_calendar', 'get_calendar_events'],
    ]);
    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);
    // The executor repaired "5" into 5 and says so.
    expect(results[1]?.transformations).toEqual([{ path: 'max_results', rule: 'string-to-integer', from: '5', to: 5 }]);

    server.reply({ kind: 'json', body: message([{ type: 'text', text: 'Done.' }], 'end_turn') });
    await client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [
        ...messages,
        { role: 'assistant', content: response.content },
        ...anthropic.toToolResultMessages(results),
      ],
      tools: toolSet.tools,
    });
    expect(server.requests[1]?.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_propose', content: JSON.stringify(PROPOSE_VALUE) },
        { type: 'tool_result', tool_use_id: 'toolu_calendar', content: JSON.stringify(CALENDAR_VALUE) },
      ],
    });
  });

  it('streams: raw SSE events from the SDK go through the accumulator', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = anthropic.createToolSet(registry);
    const proposeText = JSON.stringify(PROPOSE_ARGUMENTS);
    server.reply({
      kind: 'sse',
      named: true,
      events: [
        { type: 'message_start', message: message([], null as never) },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_s', name: 'decision_propose', input: {} },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: proposeText.slice(0, 30) },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: proposeText.slice(30) },
        },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 20 },
        },
        { type: 'message_stop' },
      ],
    });
    const stream = await client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Go.' }],
      tools: toolSet.tools,
      stream: true,
    });
    const calls = [];
    for await (const call of anthropic.streamCalls(stream, { toolSet })) calls.push(call);
    expect(calls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['toolu_s', 'decision/propose', proposeText],
    ]);
    expect((await run(calls))[0]).toMatchObject({ ok: true, value: PROPOSE_VALUE });
  });
});
