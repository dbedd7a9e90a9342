import 'reflect-metadata';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toStandardSchema } from '@toolwright/core';
import { MALFORMED_MEETING_ARGUMENTS, ScheduleMeetingParams, TRUSTED_SESSION } from '../support/commands';
import { startSdkHttpServer, type SdkHttpServer } from '../../../mcp/test/support/sdk-http-server';
import { startStubOpenAIServer, toolMessagesOf, type StubOpenAIServer } from '../support/stub-openai-server';

/**
 * A toolwright params DTO handed to other libraries as a Standard Schema (`toStandardSchema`): the AI SDK's own tool
 * loop (its `inputSchema`), and an MCP server written with the official SDK (its tool's input schema and argument
 * check), each in its real loop, with toolwright's repairs applied to what the model sent.
 */
jest.setTimeout(30_000);

const meeting = toStandardSchema(ScheduleMeetingParams, { context: { sessionId: TRUSTED_SESSION } });

describe('the trusted context never goes back to the model (generateText, a mock model recording its prompts)', () => {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };

  it('execute gets the trusted session; the next prompt carries the repaired input without it', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call_1',
              toolName: 'schedule_meeting',
              input: JSON.stringify(MALFORMED_MEETING_ARGUMENTS),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'Scheduled.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        },
      ],
    });
    const sessions: string[] = [];
    const response = await generateText({
      model,
      tools: {
        schedule_meeting: tool({
          description: 'Schedule a meeting.',
          inputSchema: meeting,
          execute: (input) => {
            sessions.push(input.sessionId);
            return { scheduled: input.title };
          },
        }),
      },
      prompt: 'Schedule the standup.',
      stopWhen: stepCountIs(3),
    });
    expect(response.text).toBe('Scheduled.');
    expect(sessions).toEqual([TRUSTED_SESSION]);
    expect(model.doGenerateCalls).toHaveLength(2);
    const next = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    // The model's own call, repaired, is in the next prompt; the trusted session id is not (nor the forged one).
    expect(next).toContain('"toolCallId":"call_1"');
    expect(next).toContain('"durationMinutes":30');
    expect(next).not.toContain(TRUSTED_SESSION);
    expect(next).not.toContain('sessionId');
    // Nor anywhere the application would store the conversation.
    expect(JSON.stringify(response.response.messages)).not.toContain(TRUSTED_SESSION);
    expect(JSON.stringify(response.steps.map((step) => step.toolCalls))).not.toContain(TRUSTED_SESSION);
  });
});

describe('a toolwright DTO as the AI SDK tool inputSchema (generateText, stub OpenAI server)', () => {
  let server: StubOpenAIServer;

  beforeEach(async () => {
    server = await startStubOpenAIServer([
      {
        toolCalls: [{ id: 'call_1', name: 'schedule_meeting', arguments: JSON.stringify(MALFORMED_MEETING_ARGUMENTS) }],
      },
      { text: 'Scheduled.' },
    ]);
  });

  afterEach(async () => {
    await server.close();
  });

  it('lists the DTO as JSON Schema and hands execute the repaired DTO, with the session from the trusted context', async () => {
    const received: ScheduleMeetingParams[] = [];
    const response = await generateText({
      model: createOpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network' }).chat('gpt-4o-mini'),
      tools: {
        schedule_meeting: tool({
          description: 'Schedule a meeting.',
          inputSchema: meeting,
          execute: (input) => {
            received.push(input);
            return { scheduled: input.title, durationMinutes: input.durationMinutes };
          },
        }),
      },
      prompt: 'Schedule the standup.',
      stopWhen: stepCountIs(3),
    });

    expect(response.text).toBe('Scheduled.');
    // What the AI SDK sent the model: the DTO's JSON Schema (draft 7), without the context field.
    const sent = (server.requests[0]!['tools'] as Array<{ function: { parameters: Record<string, unknown> } }>)[0]!;
    expect(Object.keys(sent.function.parameters['properties'] as object)).toEqual([
      'title',
      'attendees',
      'durationMinutes',
    ]);
    // The arguments the AI SDK's own parse accepted were repaired by toolwright's validate: a JSON-string array, a
    // snake_case key, a number as a string; the forged session id was dropped for the trusted one.
    expect(received).toHaveLength(1);
    expect(received[0]).toBeInstanceOf(ScheduleMeetingParams);
    expect(received[0]).toMatchObject({
      title: 'Standup',
      attendees: ['ana@example.com', 'bo@example.com'],
      durationMinutes: 30,
      sessionId: TRUSTED_SESSION,
    });
    expect(toolMessagesOf(server.requests[1])[0]!.content).toContain('"durationMinutes":30');
  });

  it("gives the model toolwright's messages when the arguments cannot be repaired", async () => {
    await server.close();
    server = await startStubOpenAIServer([
      {
        toolCalls: [
          {
            id: 'call_2',
            name: 'schedule_meeting',
            arguments: '{"title": "x", "attendees": [], "durationMinutes": 1}',
          },
        ],
      },
      { text: 'Gave up.' },
    ]);
    const response = await generateText({
      model: createOpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network' }).chat('gpt-4o-mini'),
      tools: { schedule_meeting: tool({ inputSchema: meeting, execute: () => 'never' }) },
      prompt: 'Schedule it.',
      stopWhen: stepCountIs(3),
    });
    const errors = response.steps[0]!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toHaveLength(1);
    const message = toolMessagesOf(server.requests[1])[0]!.content;
    expect(message).toContain('Invalid input for tool schedule_meeting');
    expect(message).toContain('must be an integer >= 5 and <= 480, but received 1');
  });
});

describe('a toolwright DTO as an MCP SDK tool input schema (official Server and Client)', () => {
  let remote: SdkHttpServer;
  const received: unknown[] = [];

  beforeAll(async () => {
    const standard = meeting['~standard'];
    remote = await startSdkHttpServer((server) => {
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [
          {
            name: 'schedule_meeting',
            description: 'Schedule a meeting.',
            inputSchema: { ...standard.jsonSchema.input({ target: 'draft-2020-12' }), type: 'object' as const },
          },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, async (call) => {
        const checked = await standard.validate(call.params.arguments ?? {});
        if (checked.issues !== undefined) {
          return {
            isError: true,
            content: checked.issues.map((issue) => ({ type: 'text' as const, text: issue.message })),
          };
        }
        received.push(checked.value);
        return { content: [{ type: 'text' as const, text: `scheduled ${checked.value.title}` }] };
      });
    });
  });

  afterAll(async () => {
    await remote.close();
  });

  it('lists the schema, repairs the arguments the client sent, and refuses what cannot be repaired', async () => {
    const client = new Client({ name: 'standard-schema-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(remote.url)));
    try {
      const { tools } = await client.listTools();
      expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).toEqual(['title', 'attendees', 'durationMinutes']);
      const ok = (await client.callTool({
        name: 'schedule_meeting',
        arguments: MALFORMED_MEETING_ARGUMENTS,
      })) as CallToolResult;
      expect(ok.isError).toBeUndefined();
      expect(received).toEqual([
        expect.objectContaining({
          attendees: ['ana@example.com', 'bo@example.com'],
          durationMinutes: 30,
          sessionId: TRUSTED_SESSION,
        }),
      ]);
      const refused = (await client.callTool({
        name: 'schedule_meeting',
        arguments: { title: 'x', attendees: ['a@example.com'], durationMinutes: 'soon' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toMatch(/^"durationMinutes" must be an integer/);
    } finally {
      await client.close();
    }
  });
});
