import 'reflect-metadata';
import OpenAI from 'openai';
import * as openai from '@toolwright/providers/openai';
import * as responses from '@toolwright/providers/openai-responses';
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

const client = (): OpenAI => new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });

function completion(
  toolCalls: OpenAI.Chat.Completions.ChatCompletionMessageToolCall[],
): OpenAI.Chat.Completions.ChatCompletion {
  return {
    id: 'chatcmpl-e2e',
    object: 'chat.completion',
    created: 1795425600,
    model: 'gpt-4.1',
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: 'tool_calls',
        message: { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

describe('openai SDK -> stub Chat Completions API -> executor', () => {
  it('sends our strict tools, parses the parallel calls, runs them and sends the results back', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = openai.createToolSet(registry, { strict: true });
    server.reply({
      kind: 'json',
      body: completion([
        {
          id: 'call_propose',
          type: 'function',
          function: {
            name: 'decision_propose',
            arguments: JSON.stringify({
              ...PROPOSE_ARGUMENTS,
              options: [{ ...PROPOSE_ARGUMENTS.options[0], proposedBy: null }, PROPOSE_ARGUMENTS.options[1]],
            }),
          },
        },
        {
          id: 'call_calendar',
          type: 'function',
          function: {
            name: 'get_calendar_events',
            arguments: JSON.stringify({ ...CALENDAR_ARGUMENTS, include_declined: null }),
          },
        },
      ]),
    });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Plan lunch and check my calendar.' },
    ];
    const response = await client().chat.completions.create({
      model: 'gpt-4.1',
      messages,
      tools: toolSet.tools,
      parallel_tool_calls: true,
    });

    expect(server.requests[0]?.url).toBe('/v1/chat/completions');
    expect(server.requests[0]?.body.tools).toEqual(toolSet.tools);
    expect(
      server.requests[0]?.body.tools.map(
        (tool: OpenAI.Chat.Completions.ChatCompletionFunctionTool) => tool.function.name,
      ),
    ).toEqual(['decision_propose', 'get_calendar_events']);

    const calls = openai.parseToolCalls(response, { toolSet });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['call_propose', 'decision/propose'],
      ['call_calendar', 'get_calendar_events'],
    ]);
    expect(calls.flatMap((call) => call.transformations).map((transformation) => transformation.path)).toEqual([
      'options[0].proposedBy',
      'include_declined',
    ]);

    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);

    server.reply({
      kind: 'json',
      body: {
        ...completion([]),
        choices: [
          {
            index: 0,
            logprobs: null,
            finish_reason: 'stop',
            message: { role: 'assistant', content: 'Done.', refusal: null },
          },
        ],
      },
    });
    const assistant = response.choices[0]?.message as OpenAI.Chat.Completions.ChatCompletionMessage;
    await client().chat.completions.create({
      model: 'gpt-4.1',
      messages: [...messages, assistant, ...openai.toToolResultMessages(results)],
      tools: toolSet.tools,
    });
    expect(server.requests[1]?.body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_propose', content: JSON.stringify(PROPOSE_VALUE) },
      { role: 'tool', tool_call_id: 'call_calendar', content: JSON.stringify(CALENDAR_VALUE) },
    ]);
  });

  it("streams: the SDK's chunks go through the accumulator into complete calls", async () => {
    const { registry, run } = seedExecutor();
    const toolSet = openai.createToolSet(registry);
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id: 'chatcmpl-s',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4.1',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
    const proposeText = JSON.stringify(PROPOSE_ARGUMENTS);
    const calendarText = JSON.stringify(CALENDAR_ARGUMENTS);
    server.reply({
      kind: 'sse',
      done: '[DONE]',
      events: [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'decision_propose', arguments: '' } },
          ],
        }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: 'call_b',
              type: 'function',
              function: { name: 'get_calendar_events', arguments: calendarText.slice(0, 10) },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: proposeText.slice(0, 25) } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: calendarText.slice(10) } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: proposeText.slice(25) } }] }),
        chunk({}, 'tool_calls'),
      ],
    });
    const stream = await client().chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Go.' }],
      tools: toolSet.tools,
      stream: true,
    });
    const calls = [];
    for await (const call of openai.streamCalls(stream, { toolSet })) calls.push(call);
    expect(server.requests[0]?.body.stream).toBe(true);
    expect(calls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['call_a', 'decision/propose', proposeText],
      ['call_b', 'get_calendar_events', calendarText],
    ]);
    expect((await run(calls)).map((result) => result.ok)).toEqual([true, true]);
  });
});

describe('openai SDK -> stub Responses API -> executor', () => {
  it('sends flat function tools, parses function_call items and answers with function_call_output', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = responses.createToolSet(registry);
    const output = [
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'decision_propose',
        arguments: JSON.stringify(PROPOSE_ARGUMENTS),
        status: 'completed',
      },
      {
        type: 'function_call',
        id: 'fc_2',
        call_id: 'call_2',
        name: 'get_calendar_events',
        arguments: JSON.stringify(CALENDAR_ARGUMENTS),
        status: 'completed',
      },
    ];
    server.reply({
      kind: 'json',
      body: {
        id: 'resp_1',
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: 'gpt-4.1',
        output,
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
      },
    });
    const response = await client().responses.create({ model: 'gpt-4.1', input: 'Plan lunch.', tools: toolSet.tools });
    expect(server.requests[0]?.url).toBe('/v1/responses');
    expect(server.requests[0]?.body.tools).toEqual(toolSet.tools);
    const calls = responses.parseToolCalls(response, { toolSet });
    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);

    server.reply({
      kind: 'json',
      body: {
        id: 'resp_2',
        object: 'response',
        created_at: 2,
        status: 'completed',
        model: 'gpt-4.1',
        output: [],
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
      },
    });
    await client().responses.create({
      model: 'gpt-4.1',
      previous_response_id: response.id,
      input: responses.toToolResultMessages(results),
      tools: toolSet.tools,
    });
    expect(server.requests[1]?.body.input).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify(PROPOSE_VALUE) },
      { type: 'function_call_output', call_id: 'call_2', output: JSON.stringify(CALENDAR_VALUE) },
    ]);
  });
});
