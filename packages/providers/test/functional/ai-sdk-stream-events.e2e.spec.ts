/**
 * The AI SDK's `streamText(...).fullStream` as streamed call events: the AI SDK's OpenAI provider against a stub on
 * 127.0.0.1 that streams Chat Completions chunks with the arguments cut at seeded random points. The AI SDK turns
 * them into `tool-input-start`/`-delta`/`-end` and `tool-call` parts; every call is reported once, its result equals
 * the executor's result for the whole call, and each field shown equals the handler's value.
 */
import 'reflect-metadata';
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, streamText, tool } from 'ai';
import { streamAISDKCallEvents, type ToolCallStreamEvent } from '@toolwright/providers';
import {
  checkEvents,
  CONTEXT,
  cut,
  generateCall,
  seeded,
  streamingExecutor,
  type GeneratedCall,
} from '../support/streaming-harness';
import { startStubServer, type StubServer } from '../support/stub-server';

jest.setTimeout(180_000);

let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());

// The AI SDK's provider reads Node's global fetch through jest's sandbox: give it the sandbox's own.
const sandboxFetch: typeof fetch = (input, init) => fetch(input, init);

const anyInput = jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true });
// Declared without `execute`: the AI SDK reports the calls, toolwright's executor runs them.
const TOOLS = {
  plan_trip: tool({ description: 'Plan a trip.', inputSchema: anyInput }),
  Plan_Trip: tool({ description: 'Plan a trip.', inputSchema: anyInput }),
  note: tool({ description: 'Keep a note.', inputSchema: anyInput }),
  book_flight: tool({ description: 'Not in the registry.', inputSchema: anyInput }),
};

describe('AI SDK fullStream tool-input parts as streamed call events', () => {
  it('reports each call once, with fields equal to the handler values and the whole-call result', async () => {
    const { executor } = streamingExecutor();
    const model = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'stub-key', fetch: sandboxFetch }).chat(
      'gpt-4.1',
    );
    const random = seeded(44);
    let splits = 0;
    let fields = 0;
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id: 'chatcmpl-s',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4.1',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
    for (let round = 0; round < 20; round++) {
      server.reset();
      const calls: GeneratedCall[] = Array.from({ length: 4 }, (_, index) => generateCall(random, round * 10 + index));
      const events: unknown[] = [];
      calls.forEach((call, index) => {
        events.push(
          chunk({
            tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
          }),
        );
        const pieces = cut(random, call.text, 9);
        splits += pieces.length - 1;
        for (const piece of pieces) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      });
      events.push(chunk({}, 'tool_calls'));
      server.reply({ kind: 'sse', done: '[DONE]', events });
      const result = streamText({ model, tools: TOOLS, prompt: 'Go.' });
      const seen: ToolCallStreamEvent[] = [];
      for await (const event of streamAISDKCallEvents(result.fullStream, { executor, context: CONTEXT }))
        seen.push(event);
      const checked = await checkEvents(seen, calls, executor, (call) => ({
        id: call.id,
        name: call.name,
        arguments: call.text,
      }));
      fields += checked.fields;
    }
    expect(splits).toBeGreaterThan(2_000);
    expect(fields).toBeGreaterThan(100);
  });
});
