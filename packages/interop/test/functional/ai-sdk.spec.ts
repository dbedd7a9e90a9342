import 'reflect-metadata';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ToolResult } from '@toolwright/core';
import { createRepairToolCall, toAISDKTools, ToolResultError } from '@toolwright/interop/ai-sdk';
import {
  EXPECTED_RULES,
  MALFORMED_MEETING_ARGUMENTS,
  meetingExecutor,
  receivedMeetings,
  ScheduleMeetingParams,
  TRUSTED_SESSION,
} from '../support/commands';
import { startStubOpenAIServer, toolMessagesOf, type StubOpenAIServer } from '../support/stub-openai-server';

/**
 * The Vercel AI SDK's own loop (`generateText` with `@ai-sdk/openai`'s Chat Completions model) against a stub
 * OpenAI server on 127.0.0.1 whose first answer carries two malformed tool calls: valid JSON whose values the AI SDK
 * would refuse (a JSON-string array, a number as a string, a snake_case key, a spoofed session id), and Python-literal
 * text the AI SDK's JSON parse refuses.
 */
const PYTHON_LITERAL_ARGUMENTS =
  "{'title': 'Retro', 'attendees': ['cy@example.com'], 'duration_minutes': '45', 'session_id': 'forged-too',}";

const SCRIPT = [
  {
    toolCalls: [
      { id: 'call_json', name: 'schedule_meeting', arguments: JSON.stringify(MALFORMED_MEETING_ARGUMENTS) },
      { id: 'call_python', name: 'schedule_meeting', arguments: PYTHON_LITERAL_ARGUMENTS },
    ],
  },
  { text: 'Both meetings are scheduled.' },
];

// Each test runs a framework's whole loop over HTTP: generous on a loaded CI machine, still bounded.
jest.setTimeout(30_000);

let server: StubOpenAIServer;

beforeEach(async () => {
  server = await startStubOpenAIServer(SCRIPT);
});

afterEach(async () => {
  await server.close();
});

function stubModel() {
  return createOpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network' }).chat('gpt-4o-mini');
}

describe('toAISDKTools with generateText and @ai-sdk/openai against a stub server', () => {
  it('recovers what the AI SDK refuses, injects the trusted session id, and records every change', async () => {
    const executor = meetingExecutor();
    const results: ToolResult[] = [];
    const tools = toAISDKTools(executor, { onResult: (result) => results.push(result) });

    const response = await generateText({
      model: stubModel(),
      tools,
      toolsContext: { schedule_meeting: { sessionId: TRUSTED_SESSION } },
      repairToolCall: createRepairToolCall(executor),
      prompt: 'Schedule the standup and the retro.',
      stopWhen: stepCountIs(3),
    });

    expect(response.text).toBe('Both meetings are scheduled.');
    expect(server.requests).toHaveLength(2);
    const firstStep = response.steps[0]!;
    expect(firstStep.content.filter((part) => part.type === 'tool-error')).toEqual([]);
    expect(firstStep.toolResults.map((part) => part.toolCallId).sort()).toEqual(['call_json', 'call_python']);

    // The command received validated DTOs: real arrays and integers, and the session id from the trusted context.
    expect(receivedMeetings).toHaveLength(2);
    for (const meeting of receivedMeetings) {
      expect(meeting).toBeInstanceOf(ScheduleMeetingParams);
      expect(meeting.sessionId).toBe(TRUSTED_SESSION);
    }
    const byTitle = Object.fromEntries(receivedMeetings.map((meeting) => [meeting.title, meeting]));
    expect(byTitle['Standup']).toMatchObject({ attendees: ['ana@example.com', 'bo@example.com'], durationMinutes: 30 });
    expect(byTitle['Retro']).toMatchObject({ attendees: ['cy@example.com'], durationMinutes: 45 });

    // Every change is visible in the result: the JSON call's value repairs, the Python call's text repairs first.
    const jsonCall = results.find((result) => result.callId === 'call_json')!;
    expect(jsonCall.transformations.map((change) => change.rule).sort()).toEqual([...EXPECTED_RULES].sort());
    expect(jsonCall.transformations.find((change) => change.rule === 'dropped-context-field')).toMatchObject({
      path: 'sessionId',
      from: 'forged-by-the-model',
    });
    const pythonCall = results.find((result) => result.callId === 'call_python')!;
    expect(pythonCall.transformations.slice(0, 2).map((change) => change.rule)).toEqual([
      'single-quotes',
      'trailing-commas',
    ]);
    expect(pythonCall.transformations.map((change) => change.rule)).toEqual(
      expect.arrayContaining(['key-case', 'string-to-integer', 'dropped-context-field']),
    );
    expect(executor.stats.securityEvents).toBeGreaterThanOrEqual(2);

    // The model got the results with the trusted session id, never the forged one.
    const toolMessages = toolMessagesOf(server.requests[1]);
    expect(toolMessages).toHaveLength(2);
    for (const message of toolMessages) {
      expect(message.content).toContain(TRUSTED_SESSION);
      expect(message.content).not.toContain('forged');
    }
  });

  it('works the same in streamText: the streamed calls are recovered and run with the trusted session id', async () => {
    const executor = meetingExecutor();
    const results: ToolResult[] = [];
    const stream = streamText({
      model: stubModel(),
      tools: toAISDKTools(executor, {
        context: { sessionId: TRUSTED_SESSION },
        onResult: (result) => results.push(result),
      }),
      repairToolCall: createRepairToolCall(executor),
      prompt: 'Schedule the standup and the retro.',
      stopWhen: stepCountIs(3),
    });
    expect(await stream.text).toBe('Both meetings are scheduled.');
    expect(server.requests.every((request) => request['stream'] === true)).toBe(true);
    expect(
      receivedMeetings.map((meeting) => [meeting.title, meeting.durationMinutes, meeting.sessionId]).sort(),
    ).toEqual([
      ['Retro', 45, TRUSTED_SESSION],
      ['Standup', 30, TRUSTED_SESSION],
    ]);
    expect(results.find((result) => result.callId === 'call_python')!.transformations[0]!.rule).toBe('single-quotes');
  });

  it("sends the executor's model-facing message as the tool error when a value cannot be recovered", async () => {
    await server.close();
    server = await startStubOpenAIServer([
      {
        toolCalls: [
          {
            id: 'call_bad',
            name: 'schedule_meeting',
            arguments: JSON.stringify({ ...MALFORMED_MEETING_ARGUMENTS, duration_minutes: '30x' }),
          },
        ],
      },
      { text: 'I will fix the duration.' },
    ]);
    const executor = meetingExecutor();
    const response = await generateText({
      model: stubModel(),
      tools: toAISDKTools(executor, { context: { sessionId: TRUSTED_SESSION } }),
      repairToolCall: createRepairToolCall(executor),
      prompt: 'Schedule the standup.',
      stopWhen: stepCountIs(3),
    });
    const errors = response.steps[0]!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toHaveLength(1);
    const error = (errors[0] as { error: unknown }).error;
    expect(ToolResultError.isInstance(error)).toBe(true);
    expect((error as ToolResultError).code).toBe('INVALID_ARGUMENTS');
    expect(receivedMeetings).toHaveLength(0);
    const [message] = toolMessagesOf(server.requests[1]);
    expect(message!.content).toContain('durationMinutes');
    expect(message!.content).toContain('30x');
    expect(message!.content).not.toMatch(/\n\s+at /);
  });

  it('resolves a tool name the AI SDK does not know through the repair hook', async () => {
    await server.close();
    server = await startStubOpenAIServer([
      {
        toolCalls: [
          {
            id: 'call_prefixed',
            name: 'functions.Schedule-Meeting',
            arguments: JSON.stringify(MALFORMED_MEETING_ARGUMENTS),
          },
        ],
      },
      { text: 'Scheduled.' },
    ]);
    const executor = meetingExecutor();
    const results: ToolResult[] = [];
    const response = await generateText({
      model: stubModel(),
      tools: toAISDKTools(executor, {
        context: { sessionId: TRUSTED_SESSION },
        onResult: (result) => results.push(result),
      }),
      repairToolCall: createRepairToolCall(executor),
      prompt: 'Schedule the standup.',
      stopWhen: stepCountIs(3),
    });
    expect(response.steps[0]!.toolResults.map((part) => part.toolName)).toEqual(['schedule_meeting']);
    expect(results[0]!.transformations[0]).toEqual({
      path: '',
      rule: 'tool-name',
      from: 'functions.Schedule-Meeting',
      to: 'schedule_meeting',
    });
    expect(receivedMeetings.map((meeting) => meeting.sessionId)).toEqual([TRUSTED_SESSION]);
  });
});

describe('the same calls through the AI SDK alone (a zod tool), as evidence of the value added', () => {
  it('refuses both calls: the command never runs and the model is asked again', async () => {
    const executed: unknown[] = [];
    const tools: ToolSet = {
      schedule_meeting: tool({
        description: 'Schedule a meeting for this session.',
        inputSchema: z.object({
          title: z.string().min(1),
          attendees: z.array(z.string()).min(1),
          durationMinutes: z.number().int(),
          sessionId: z.string().optional(),
        }),
        execute: async (input) => {
          executed.push(input);
          return input;
        },
      }),
    };
    const response = await generateText({
      model: stubModel(),
      tools,
      prompt: 'Schedule the standup and the retro.',
      stopWhen: stepCountIs(3),
    });

    expect(executed).toEqual([]);
    const errors = response.steps[0]!.content.filter((part) => part.type === 'tool-error');
    expect(errors.map((part) => part.toolCallId).sort()).toEqual(['call_json', 'call_python']);
    // If an AI SDK upgrade starts repairing these arguments, this fails: then the comparison in docs/interop.md needs a look.
    const errorOf = (id: string) => String((errors.find((part) => part.toolCallId === id) as { error: unknown }).error);
    expect(errorOf('call_json')).toMatch(/^AI_InvalidToolInputError: .*AI_TypeValidationError/);
    expect(errorOf('call_python')).toMatch(/^AI_InvalidToolInputError: .*AI_JSONParseError/);
    // Each refusal cost a round trip: the model was sent the parse errors and had to answer again.
    const toolMessages = toolMessagesOf(server.requests[1]);
    expect(toolMessages).toHaveLength(2);
    for (const message of toolMessages) expect(message.content).toMatch(/Invalid input for tool schedule_meeting/);
  });
});
