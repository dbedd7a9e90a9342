/**
 * Streamed calls as events, through each official SDK against a stub on 127.0.0.1: streams synthesized in each
 * provider's event shapes (provider-formats reference), every call's arguments cut at seeded random points. For every
 * call: one start, one end; its result equals the executor's result for the whole call (all but `durationMs`); each
 * field shown early equals the value the handler received (JSON form, so a `Date` compares as its text).
 */
import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { CohereClientV2 } from 'cohere-ai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import type { ToolCall } from '@toolwright/core';
import type { ToolCallStreamEvent } from '@toolwright/providers';
import * as anthropic from '@toolwright/providers/anthropic';
import * as bedrock from '@toolwright/providers/bedrock';
import * as cohere from '@toolwright/providers/cohere';
import * as gemini from '@toolwright/providers/gemini';
import * as mistral from '@toolwright/providers/mistral';
import * as ollama from '@toolwright/providers/ollama';
import * as openai from '@toolwright/providers/openai';
import * as responses from '@toolwright/providers/openai-responses';
import {
  checkEvents,
  CONTEXT,
  cut,
  generateCall,
  seeded,
  streamingExecutor,
  type GeneratedCall,
} from '../support/streaming-harness';
import { eventMessage } from '../support/aws-event-stream';
import { startMistralClientProcess } from '../support/mistral-process';
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
  server.reset();
  http2Server.reset();
});

/** Splits made in all, across the suite (the bar: at least 100,000; checked by the last test). */
let splits = 0;

const ROUNDS = 60;
jest.setTimeout(180_000);

// The Gemini and Ollama clients get an explicit fetch: their default one reads Node's global dispatcher, which jest's
// sandboxed globalThis does not expose.
const sandboxFetch: typeof fetch = (input, init) => fetch(input, init);
const CALLS_PER_ROUND = 6;
const MAX_PIECE = 9;

/** Interleaves per-call event lists at random, keeping each call's own order. */
function interleave<T>(random: () => number, lists: T[][]): T[] {
  const out: T[] = [];
  const cursors = lists.map(() => 0);
  for (;;) {
    const open = lists.map((list, index) => index).filter((index) => cursors[index]! < lists[index]!.length);
    if (open.length === 0) return out;
    const index = open[Math.floor(random() * open.length)]!;
    out.push(lists[index]![cursors[index]!++]!);
  }
}

async function collect(stream: AsyncIterable<ToolCallStreamEvent>): Promise<ToolCallStreamEvent[]> {
  const events: ToolCallStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const asText = (call: GeneratedCall): ToolCall => ({ id: call.id, name: call.name, arguments: call.text });
const asObject = (call: GeneratedCall): ToolCall => ({ id: call.id, name: call.name, arguments: call.arguments });

async function rounds(
  seed: number,
  run: (calls: GeneratedCall[], random: () => number) => Promise<ToolCallStreamEvent[]>,
  whole: (call: GeneratedCall) => ToolCall,
): Promise<{ fields: number; texts: number }> {
  const { executor } = streamingExecutor();
  const random = seeded(seed);
  let fields = 0;
  let texts = 0;
  for (let round = 0; round < ROUNDS; round++) {
    server.reset();
    const calls = Array.from({ length: CALLS_PER_ROUND }, (_, index) => generateCall(random, round * 100 + index));
    const events = await run(calls, random);
    const checked = await checkEvents(events, calls, executor, whole);
    fields += checked.fields;
    texts += checked.texts;
  }
  return { fields, texts };
}

function pieces(random: () => number, text: string): string[] {
  const cuts = cut(random, text, MAX_PIECE);
  splits += cuts.length - 1;
  return cuts;
}

describe('streamed call events through the official SDKs', () => {
  it('OpenAI Chat Completions (parallel calls interleaved by index)', async () => {
    const { executor } = streamingExecutor();
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id: 'chatcmpl-s',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4.1',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const seen = await rounds(
      1,
      async (calls, random) => {
        const lists = calls.map((call, index) => [
          chunk({
            tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
          }),
          ...pieces(random, call.text).map((piece) =>
            chunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
          ),
        ]);
        server.reply({ kind: 'sse', done: '[DONE]', events: [...interleave(random, lists), chunk({}, 'tool_calls')] });
        const stream = await client.chat.completions.create({
          model: 'gpt-4.1',
          messages: [{ role: 'user', content: 'Go.' }],
          stream: true,
        });
        return collect(openai.streamCallEvents(stream, { executor, context: CONTEXT }));
      },
      asText,
    );
    expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
    expect(seen.texts).toBeGreaterThan(ROUNDS * 50);
  });

  it('OpenAI Responses (function_call_arguments deltas, then done with the whole text)', async () => {
    const { executor } = streamingExecutor();
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const seen = await rounds(
      2,
      async (calls, random) => {
        const events: unknown[] = [{ type: 'response.created', sequence_number: 0, response: { id: 'resp_1' } }];
        calls.forEach((call, index) => {
          const item = { type: 'function_call', id: `fc_${index}`, call_id: call.id, name: call.name, arguments: '' };
          events.push({ type: 'response.output_item.added', output_index: index, item });
          for (const piece of pieces(random, call.text))
            events.push({
              type: 'response.function_call_arguments.delta',
              item_id: item.id,
              output_index: index,
              delta: piece,
            });
          events.push({
            type: 'response.function_call_arguments.done',
            item_id: item.id,
            output_index: index,
            arguments: call.text,
          });
          events.push({
            type: 'response.output_item.done',
            output_index: index,
            item: { ...item, arguments: call.text, status: 'completed' },
          });
        });
        events.push({ type: 'response.completed', response: { id: 'resp_1', status: 'completed' } });
        server.reply({ kind: 'sse', named: true, events });
        const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Go.', stream: true });
        return collect(responses.streamCallEvents(stream, { executor, context: CONTEXT }));
      },
      asText,
    );
    expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
  });

  it('Anthropic Messages (input_json_delta per content block)', async () => {
    const { executor } = streamingExecutor();
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const seen = await rounds(
      3,
      async (calls, random) => {
        const events: unknown[] = [
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-6',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          },
        ];
        calls.forEach((call, index) => {
          events.push({
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
          });
          for (const piece of pieces(random, call.text))
            events.push({
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: piece },
            });
          events.push({ type: 'content_block_stop', index });
        });
        events.push({
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 5 },
        });
        events.push({ type: 'message_stop' });
        server.reply({ kind: 'sse', named: true, events });
        const stream = await client.messages.create({
          model: 'claude-sonnet-4-6',
          max_tokens: 1024,
          messages: [{ role: 'user', content: 'Go.' }],
          stream: true,
        });
        return collect(anthropic.streamCallEvents(stream, { executor, context: CONTEXT }));
      },
      asObject,
    );
    expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
  });

  it('Cohere v2 (tool-call-start, -delta, -end)', async () => {
    const { executor } = streamingExecutor();
    const client = new CohereClientV2({ token: 'test-token', environment: server.url });
    const seen = await rounds(
      4,
      async (calls, random) => {
        const events: unknown[] = [{ type: 'message-start', id: 'm1', delta: { message: { role: 'assistant' } } }];
        calls.forEach((call, index) => {
          events.push({
            type: 'tool-call-start',
            index,
            delta: {
              message: { tool_calls: { id: call.id, type: 'function', function: { name: call.name, arguments: '' } } },
            },
          });
          for (const piece of pieces(random, call.text))
            events.push({
              type: 'tool-call-delta',
              index,
              delta: { message: { tool_calls: { function: { arguments: piece } } } },
            });
          events.push({ type: 'tool-call-end', index });
        });
        events.push({ type: 'message-end', delta: { finish_reason: 'TOOL_CALL' } });
        server.reply({ kind: 'sse', done: '[DONE]', events });
        const stream = await client.chatStream({
          model: 'command-a-03-2025',
          messages: [{ role: 'user', content: 'Go.' }],
        });
        return collect(cohere.streamCallEvents(stream, { executor, context: CONTEXT }));
      },
      asText,
    );
    expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
  });

  it('Gemini (whole calls per chunk) and Vertex streamed function-call arguments (partialArgs)', async () => {
    const { executor } = streamingExecutor();
    const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url, fetch: sandboxFetch } });
    const seen = await rounds(
      5,
      async (calls, random) => {
        const chunks: unknown[] = [];
        const part = (functionCall: unknown) => ({
          candidates: [{ content: { role: 'model', parts: [{ functionCall }] }, index: 0 }],
        });
        for (const call of calls) {
          if (random() < 0.2) {
            chunks.push(part({ id: call.id, name: call.name, args: call.arguments }));
            continue;
          }
          // Empty arrays and objects have no scalar to carry a path: they come in the first part's `args`.
          const empties = Object.fromEntries(
            Object.entries(call.arguments).filter(
              ([, value]) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
            ),
          );
          const partials = partialArguments(random, call.arguments);
          chunks.push(
            part({
              id: call.id,
              name: call.name,
              args: empties,
              partialArgs: partials.slice(0, 1),
              willContinue: true,
            }),
          );
          for (const partial of partials.slice(1)) chunks.push(part({ partialArgs: [partial], willContinue: true }));
          chunks.push(part({ willContinue: false }));
        }
        server.reply({ kind: 'sse', events: chunks });
        const stream = await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Go.' });
        return collect(gemini.streamCallEvents(stream, { executor, context: CONTEXT }));
      },
      asObject,
    );
    expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
  });

  it('Ollama (whole calls per chunk)', async () => {
    const { executor } = streamingExecutor();
    const client = new Ollama({ host: server.url, fetch: sandboxFetch });
    await rounds(
      6,
      async (calls) => {
        const lines = calls.map((call) => ({
          model: 'qwen3:8b',
          created_at: '2026-12-07T00:00:00Z',
          message: {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: call.id, function: { name: call.name, arguments: call.arguments } }],
          },
          done: false,
        }));
        lines.push({
          model: 'qwen3:8b',
          created_at: '2026-12-07T00:00:00Z',
          message: { role: 'assistant', content: '', tool_calls: [] },
          done: true,
        });
        server.reply({ kind: 'ndjson', lines });
        const stream = await client.chat({
          model: 'qwen3:8b',
          messages: [{ role: 'user', content: 'Go.' }],
          stream: true,
        });
        return collect(ollama.streamCallEvents(stream, { executor, context: CONTEXT }));
      },
      asObject,
    );
  });

  it('Mistral (chat.stream: the ESM-only SDK runs in a child process and forwards each event it yields)', async () => {
    const { executor } = streamingExecutor();
    const client = startMistralClientProcess(server.url);
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id: 'cmpl-s',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'mistral-large-latest',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
    try {
      const seen = await rounds(
        7,
        async (calls, random) => {
          // Mistral's wire form: the first chunk of a call has its id and name; later ones carry `"id": "null"`.
          const lists = calls.map((call, index) => [
            chunk({ tool_calls: [{ index, id: call.id, function: { name: call.name, arguments: '' } }] }),
            ...pieces(random, call.text).map((piece) =>
              chunk({ tool_calls: [{ index, id: 'null', function: { name: '', arguments: piece } }] }),
            ),
          ]);
          server.reply({
            kind: 'sse',
            done: '[DONE]',
            events: [...interleave(random, lists), chunk({}, 'tool_calls')],
          });
          const stream = client.chat.stream({
            model: 'mistral-large-latest',
            messages: [{ role: 'user', content: 'Go.' }],
          });
          return collect(mistral.streamCallEvents(stream, { executor, context: CONTEXT }));
        },
        asText,
      );
      expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
    } finally {
      await client.close();
    }
  });

  it('Bedrock ConverseStream (contentBlockDelta toolUse input, AWS event stream over HTTP/2)', async () => {
    const { executor } = streamingExecutor();
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: http2Server.url,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      maxAttempts: 1,
    });
    const seen = await rounds(
      8,
      async (calls, random) => {
        const messages: Buffer[] = [eventMessage('messageStart', { role: 'assistant' })];
        calls.forEach((call, contentBlockIndex) => {
          messages.push(
            eventMessage('contentBlockStart', {
              contentBlockIndex,
              start: { toolUse: { toolUseId: call.id, name: call.name } },
            }),
          );
          for (const input of pieces(random, call.text))
            messages.push(eventMessage('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input } } }));
          messages.push(eventMessage('contentBlockStop', { contentBlockIndex }));
        });
        messages.push(eventMessage('messageStop', { stopReason: 'tool_use' }));
        http2Server.reset();
        http2Server.reply({
          kind: 'binary',
          contentType: 'application/vnd.amazon.eventstream',
          body: Buffer.concat(messages),
        });
        const response = await client.send(
          new ConverseStreamCommand({
            modelId: 'anthropic.claude-sonnet-4-6',
            messages: [{ role: 'user', content: [{ text: 'Go.' }] }],
          }),
        );
        return collect(bedrock.streamCallEvents(response.stream!, { executor, context: CONTEXT }));
      },
      asObject,
    );
    expect(seen.fields).toBeGreaterThan(ROUNDS * 10);
  });

  it('made at least 100,000 splits in all (run with the tests above)', () => {
    expect(splits).toBeGreaterThanOrEqual(100_000);
  });
});

/** A call's arguments as Vertex partial arguments: scalars by JSON path, strings cut into continuing pieces. */
function partialArguments(random: () => number, args: Record<string, unknown>): object[] {
  const partials: object[] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      const cuts = value === '' ? [''] : cut(random, value, MAX_PIECE);
      splits += cuts.length - 1;
      cuts.forEach((piece, index) =>
        partials.push({ jsonPath: path, stringValue: piece, willContinue: index < cuts.length - 1 }),
      );
    } else if (typeof value === 'number') partials.push({ jsonPath: path, numberValue: value });
    else if (typeof value === 'boolean') partials.push({ jsonPath: path, boolValue: value });
    else if (value === null) partials.push({ jsonPath: path, nullValue: 'NULL_VALUE' });
    else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
    else if (typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) visit(inner, `${path}.${key}`);
  };
  visit(args, '$');
  return partials;
}

describe('early refusal and broken partial JSON (Anthropic SDK against the stub)', () => {
  const client = (): Anthropic => new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
  const toolUse = (index: number, id: string, name: string, fragments: readonly string[]): unknown[] => [
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } },
    ...fragments.map((partial_json) => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json },
    })),
    { type: 'content_block_stop', index },
  ];
  const message = (blocks: unknown[]): unknown[] => [
    {
      type: 'message_start',
      message: {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    ...blocks,
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ];
  const request = () =>
    client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Go.' }],
      stream: true,
    });

  it('refuseEarly: an unknown tool ends the events at once, before its arguments, and closes the stream', async () => {
    const { executor } = streamingExecutor();
    server.reply({
      kind: 'sse',
      named: true,
      events: message([
        ...toolUse(0, 'toolu_1', 'book_flight', ['{"to": ', '"Lisbon"}']),
        ...toolUse(1, 'toolu_2', 'note', ['{"text": "never read"}']),
      ]),
    });
    const stream = await request();
    const events = await collect(anthropic.streamCallEvents(stream, { executor, context: CONTEXT, refuseEarly: true }));
    expect(events.map((event) => event.type)).toEqual(['call-start', 'call-refused']);
    const refused = events[1]!;
    expect(refused.type === 'call-refused' && refused.error.code).toBe('UNKNOWN_TOOL');
    expect(stream.controller.signal.aborted).toBe(true);
  });

  it('refuseEarly: an argument refused by its rule ends the events as soon as it is complete', async () => {
    const { executor } = streamingExecutor();
    server.reply({
      kind: 'sse',
      named: true,
      events: message(toolUse(0, 'toolu_1', 'plan_trip', ['{"title": "Trip", "da', 'ys": 400, "budget": 10', '.5}'])),
    });
    const events = await collect(
      anthropic.streamCallEvents(await request(), { executor, context: CONTEXT, refuseEarly: true }),
    );
    expect(events.map((event) => [event.type, 'path' in event ? event.path : undefined])).toEqual([
      ['call-start', undefined],
      ['field', 'title'],
      ['call-refused', undefined],
    ]);
    const refused = events[2]!;
    expect(refused.type === 'call-refused' && refused.error.issues[0]?.path).toBe('days');
  });

  it('without refuseEarly, a refused argument is reported and the call still ends with the executor refusal', async () => {
    const { executor } = streamingExecutor();
    server.reply({
      kind: 'sse',
      named: true,
      events: message(toolUse(0, 'toolu_1', 'plan_trip', ['{"title": "Trip", "days": 400}'])),
    });
    const events = await collect(anthropic.streamCallEvents(await request(), { executor, context: CONTEXT }));
    expect(events.map((event) => event.type)).toEqual(['call-start', 'field', 'field-refused', 'call-end']);
    const end = events[3]!;
    expect(end.type === 'call-end' && end.result?.ok).toBe(false);
  });

  it('fine-grained streaming: partial JSON that turns out invalid shows what was complete, then the executor decides', async () => {
    const { executor } = streamingExecutor();
    // A cut-off document (max_tokens mid-value): the executor refuses truncated text, never completes it.
    server.reply({
      kind: 'sse',
      named: true,
      events: message(toolUse(0, 'toolu_1', 'note', ['{"text": "kept", ', '"tags": ["a", "b'])),
    });
    const events = await collect(anthropic.streamCallEvents(await request(), { executor, context: CONTEXT }));
    expect(events.map((event) => event.type)).toEqual(['call-start', 'field', 'call-end']);
    const field = events[1]!;
    expect(field.type === 'field' && [field.path, field.value]).toEqual(['text', 'kept']);
    const end = events[2]!;
    expect(end.type === 'call-end' && end.result?.ok === false && end.result.error.code).toBe('MALFORMED_ARGUMENTS');
    // Python-style text the reader does not read early: nothing is shown early; the executor repairs it at the end.
    server.reply({
      kind: 'sse',
      named: true,
      events: message(toolUse(0, 'toolu_2', 'note', ["{'text': 'repaired', ", "'tags': ['a']}"])),
    });
    const repaired = await collect(anthropic.streamCallEvents(await request(), { executor, context: CONTEXT }));
    expect(repaired.map((event) => event.type)).toEqual(['call-start', 'call-end']);
    const done = repaired[1]!;
    expect(done.type === 'call-end' && done.result?.ok).toBe(true);
  });
});
