import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand, type Message as BedrockMessage } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';
import {
  Command,
  PersonaToolExecutor,
  silentLogger,
  ToolContent,
  ToolRegistry,
  type ImageDataPart,
  type ToolResult,
} from '@toolwright/core';
import * as anthropic from '@toolwright/providers/anthropic';
import * as bedrock from '@toolwright/providers/bedrock';
import * as gemini from '@toolwright/providers/gemini';
import * as mcp from '@toolwright/providers/mcp';
import * as openai from '@toolwright/providers/openai';
import * as responses from '@toolwright/providers/openai-responses';
import { startStubServer, type StubServer } from '../support/stub-server';

/** A real 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const PNG_BYTES = Buffer.from(PNG, 'base64');

class NoParams {}

@Command({ name: 'chart', description: 'Draws the sales chart', params: NoParams })
class ChartCommand {
  execute(): ToolContent {
    return new ToolContent([
      { type: 'text', text: 'Sales by month' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]);
  }
}

let server: StubServer;
let http2Server: StubServer;
let result: ToolResult;

beforeAll(async () => {
  server = await startStubServer();
  http2Server = await startStubServer({ http2: true });
  const registry = new ToolRegistry();
  registry.register(ChartCommand);
  result = await new PersonaToolExecutor(registry, { logger: silentLogger }).execute({
    id: 'call_chart1',
    name: 'chart',
    arguments: '{}',
  });
  expect(result.ok).toBe(true);
});
afterAll(async () => {
  await server.close();
  await http2Server.close();
});
beforeEach(() => {
  server.requests.splice(0);
  http2Server.requests.splice(0);
});

describe('a command returning a PNG and a text part, through each official SDK to a stub server', () => {
  it('openai (Responses): function_call_output content with input_text and input_image (a data URL)', async () => {
    server.reply({
      kind: 'json',
      body: {
        id: 'resp_1',
        object: 'response',
        created_at: 0,
        status: 'completed',
        model: 'gpt-5',
        output: [
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'A chart.', annotations: [] }],
          },
        ],
      },
    });
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'Show me the sales chart.' },
      { type: 'function_call', call_id: 'call_chart1', name: 'chart', arguments: '{}' },
      responses.toToolResultMessage(result),
    ];
    await client.responses.create({ model: 'gpt-5', input });
    expect(server.requests[0]?.url).toBe('/v1/responses');
    expect(server.requests[0]?.body.input[2]).toEqual({
      type: 'function_call_output',
      call_id: 'call_chart1',
      output: [
        { type: 'input_text', text: 'Sales by month' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });

  it('anthropic: a tool_result with a text block and a base64 image block', async () => {
    server.reply({
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'text', text: 'A chart.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const messages: Anthropic.Messages.MessageParam[] = [
      { role: 'user', content: 'Show me the sales chart.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_chart1', name: 'chart', input: {} }] },
      anthropic.toToolResultMessage(result),
    ];
    await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, messages });
    expect(server.requests[0]?.body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_chart1',
          content: [
            { type: 'text', text: 'Sales by month' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ],
    });
  });

  const geminiClient = (): GoogleGenAI =>
    new GoogleGenAI({
      apiKey: 'test-key',
      httpOptions: { baseUrl: server.url, fetch: (input, init) => fetch(input, init) },
    });
  const geminiReply = {
    kind: 'json' as const,
    body: { candidates: [{ content: { role: 'model', parts: [{ text: 'A chart.' }] }, finishReason: 'STOP' }] },
  };
  const geminiHistory: Content[] = [
    { role: 'user', parts: [{ text: 'Show me the sales chart.' }] },
    { role: 'model', parts: [{ functionCall: { id: 'call_chart1', name: 'chart', args: {} } }] },
  ];

  it('gemini: a functionResponse with the text as output and the image in its parts (inlineData)', async () => {
    server.reply(geminiReply);
    await geminiClient().models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: [...geminiHistory, gemini.toToolResultMessage(result)],
    });
    expect(server.requests[0]?.body.contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call_chart1',
            name: 'chart',
            response: { output: 'Sales by month' },
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
          },
        },
      ],
    });
  });

  it('gemini, for a model that rejects functionResponse parts: a note, and the image as a part of the same user turn', async () => {
    server.reply(geminiReply);
    await geminiClient().models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [...geminiHistory, ...gemini.toToolResultMessages([result], { media: 'user-parts' })],
    });
    expect(server.requests[0]?.body.contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call_chart1',
            name: 'chart',
            response: { output: 'Sales by month\n\n[The media part follows this function response in the same turn.]' },
          },
        },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ],
    });
  });

  it('bedrock: a toolResult with a text block and an image block (bytes base64 on the wire)', async () => {
    http2Server.reply({
      kind: 'json',
      body: {
        output: { message: { role: 'assistant', content: [{ text: 'A chart.' }] } },
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        metrics: { latencyMs: 1 },
      },
    });
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: http2Server.url,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      maxAttempts: 1,
    });
    const messages: BedrockMessage[] = [
      { role: 'user', content: [{ text: 'Show me the sales chart.' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_chart1', name: 'chart', input: {} } }] },
      bedrock.toToolResultMessage(result),
    ];
    const message = bedrock.toToolResultMessage(result);
    const image = message.content[0]!.toolResult.content[1] as { image: { source: { bytes: Uint8Array } } };
    expect(Buffer.from(image.image.source.bytes).equals(PNG_BYTES)).toBe(true);
    await client.send(new ConverseCommand({ modelId: 'anthropic.claude-sonnet-4-6-v1:0', messages }));
    expect(http2Server.requests[0]?.body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'call_chart1',
            content: [{ text: 'Sales by month' }, { image: { format: 'png', source: { bytes: PNG } } }],
            status: 'success',
          },
        },
      ],
    });
  });

  it('openai (Chat Completions, no images in tool messages): a note, and the image in a following user message', async () => {
    expect(openai.toToolResultMessages([result])).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_chart1',
        content: `Sales by month\n\n[image 2 (image/png, ${PNG_BYTES.length} B) follows in the next user message]`,
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: `image 2 (image/png, ${PNG_BYTES.length} B) of tool call call_chart1:` },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
    // One message alone cannot carry the image: the model is told it was left out, never silently.
    expect(openai.toToolResultMessage(result).content).toBe(
      `Sales by month\n\n[image 2 (image/png, ${PNG_BYTES.length} B) left out: OpenAI Chat Completions does not take this kind of content in a tool result]`,
    );
  });

  it('mcp: an image block', () => {
    expect(mcp.toToolResultMessage(result, { successFlag: 'omitted' })).toEqual({
      content: [
        { type: 'text', text: 'Sales by month' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    });
  });

  it('an image over a provider limit is never sent: left out with a note, or replaced by the application hook', () => {
    const big: ImageDataPart = { type: 'image', data: 'A'.repeat(8 * 1024 * 1024), mimeType: 'image/png' };
    const oversized: ToolResult = {
      callId: 'call_big',
      tool: 'chart',
      ok: true,
      value: new ToolContent([big]),
      transformations: [],
      durationMs: 0,
    };
    const block = anthropic.toToolResultBlock(oversized);
    expect(block.content).toEqual([
      { type: 'text', text: "[image 1 (image/png, 6.0 MB) left out: over Anthropic's limit of 5.0 MB for one image]" },
    ]);
    const resized = anthropic.toToolResultBlock(oversized, {
      oversizedImage: (image, limit) => {
        expect(limit).toBe(5 * 1024 * 1024);
        return { ...image, data: PNG };
      },
    });
    expect(resized.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
    const bedrockBlock = bedrock.toToolResultBlock(oversized);
    expect(bedrockBlock.toolResult.content).toEqual([
      { text: "[image 1 (image/png, 6.0 MB) left out: over Bedrock's limit of 3.8 MB for one image]" },
    ]);
  });
});
