import 'reflect-metadata';
import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { PersonaToolExecutor, ToolRegistry, silentLogger, type ToolResult } from '@toolwright/core';
import { adaptAll, getProviders } from '@toolwright/providers';
import {
  registerLangChainTool,
  toLangChainTools,
  ToolResultError,
  type ToolwrightArtifact,
} from '@toolwright/interop/langchain';
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
 * LangChain's own loop: a LangGraph StateGraph whose agent node is `ChatOpenAI.bindTools(tools)` (the official
 * client, pointed at a stub OpenAI server on 127.0.0.1) and whose tools node is LangGraph's ToolNode. The stub's first
 * answer calls schedule_meeting with arguments LangChain's own schema check refuses.
 */
// Each test runs a framework's whole loop over HTTP: generous on a loaded CI machine, still bounded.
jest.setTimeout(30_000);

let server: StubOpenAIServer;

beforeEach(async () => {
  server = await startStubOpenAIServer([
    {
      toolCalls: [{ id: 'call_lc', name: 'schedule_meeting', arguments: JSON.stringify(MALFORMED_MEETING_ARGUMENTS) }],
    },
    { text: 'The standup is scheduled.' },
  ]);
});

afterEach(async () => {
  await server.close();
});

function reactGraph(tools: StructuredToolInterface[]) {
  const model = new ChatOpenAI({
    model: 'gpt-4o-mini',
    apiKey: 'stub-key-no-network',
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  }).bindTools(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
}

function toolMessagesIn(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe('toLangChainTools with bindTools and LangGraph ToolNode against a stub server', () => {
  it('recovers what LangChain refuses, injects the trusted session id from the run config, and records every change', async () => {
    const executor = meetingExecutor();
    const results: ToolResult[] = [];
    const graph = reactGraph(toLangChainTools(executor, { onResult: (result) => results.push(result) }));

    const final = await graph.invoke(
      { messages: [new HumanMessage('Schedule the standup.')] },
      { configurable: { sessionId: TRUSTED_SESSION }, recursionLimit: 6 },
    );

    expect((final.messages.at(-1) as AIMessage).content).toBe('The standup is scheduled.');
    // bindTools sent the registry's schema: no context field for the model to fill.
    const sentTools = server.requests[0]!['tools'] as Array<{
      function: { name: string; parameters: { properties: Record<string, unknown> } };
    }>;
    expect(sentTools.map((sent) => sent.function.name)).toEqual(['schedule_meeting']);
    expect(Object.keys(sentTools[0]!.function.parameters.properties)).toEqual([
      'title',
      'attendees',
      'durationMinutes',
    ]);

    expect(receivedMeetings).toHaveLength(1);
    expect(receivedMeetings[0]).toBeInstanceOf(ScheduleMeetingParams);
    expect(receivedMeetings[0]).toMatchObject({
      title: 'Standup',
      attendees: ['ana@example.com', 'bo@example.com'],
      durationMinutes: 30,
      sessionId: TRUSTED_SESSION,
    });

    const [toolMessage] = toolMessagesIn(final.messages);
    expect(toolMessage!.status).toBe('success');
    const artifact = toolMessage!.artifact as ToolwrightArtifact;
    expect(artifact.toolwright.transformations.map((change) => change.rule).sort()).toEqual([...EXPECTED_RULES].sort());
    expect(results).toHaveLength(1);
    const [sentBack] = toolMessagesOf(server.requests[1]);
    expect(sentBack!.tool_call_id).toBe('call_lc');
    expect(sentBack!.content).toContain(TRUSTED_SESSION);
    expect(sentBack!.content).not.toContain('forged');
  });

  it('returns the model-facing message as an error ToolMessage when a value cannot be recovered', async () => {
    await server.close();
    server = await startStubOpenAIServer([
      {
        toolCalls: [
          {
            id: 'call_bad',
            name: 'schedule_meeting',
            arguments: JSON.stringify({ ...MALFORMED_MEETING_ARGUMENTS, attendees: [] }),
          },
        ],
      },
      { text: 'I need at least one attendee.' },
    ]);
    const graph = reactGraph(
      toLangChainTools(meetingExecutor(), {
        context: (config) => ({ sessionId: String(config.configurable?.['thread_id']) }),
      }),
    );
    const final = await graph.invoke(
      { messages: [new HumanMessage('Schedule the standup.')] },
      { configurable: { thread_id: TRUSTED_SESSION }, recursionLimit: 6 },
    );
    const [toolMessage] = toolMessagesIn(final.messages);
    expect(toolMessage!.status).toBe('error');
    expect(toolMessage!.content).toMatch(/attendees/);
    expect((toolMessage!.artifact as ToolwrightArtifact).toolwright).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS' },
    });
    expect(receivedMeetings).toHaveLength(0);
  });

  it('takes arguments as text or as an object when invoked directly; a failure throws the model-facing message', async () => {
    const [scheduleMeeting] = toLangChainTools(meetingExecutor(), { context: { sessionId: TRUSTED_SESSION } });
    await expect(scheduleMeeting!.invoke(JSON.stringify(MALFORMED_MEETING_ARGUMENTS))).resolves.toMatchObject({
      durationMinutes: 30,
      sessionId: TRUSTED_SESSION,
    });
    await expect(scheduleMeeting!.invoke({ ...MALFORMED_MEETING_ARGUMENTS, title: 'Object' })).resolves.toMatchObject({
      scheduled: 'Object',
      attendees: ['ana@example.com', 'bo@example.com'],
    });
    const failure = await scheduleMeeting!
      .invoke('{"title": "Cut off", "attendees": ["a@example.com"')
      .catch((error: unknown) => error);
    expect(ToolResultError.isInstance(failure)).toBe(true);
    expect((failure as ToolResultError).code).toBe('MALFORMED_ARGUMENTS');
    expect(receivedMeetings.map((meeting) => meeting.sessionId)).toEqual([TRUSTED_SESSION, TRUSTED_SESSION]);
  });
});

describe('the same call through LangChain alone (a zod tool in ToolNode), as evidence of the value added', () => {
  it('refuses the call: the function never runs and the model gets a schema error', async () => {
    const executed: unknown[] = [];
    const plain = tool(
      async (input) => {
        executed.push(input);
        return JSON.stringify(input);
      },
      {
        name: 'schedule_meeting',
        description: 'Schedule a meeting for this session.',
        schema: z.object({
          title: z.string().min(1),
          attendees: z.array(z.string()).min(1),
          durationMinutes: z.number().int(),
          session_id: z.string().optional(),
        }),
      },
    );
    const final = await reactGraph([plain]).invoke(
      { messages: [new HumanMessage('Schedule the standup.')] },
      { recursionLimit: 6 },
    );

    expect(executed).toEqual([]);
    const [toolMessage] = toolMessagesIn(final.messages);
    expect(toolMessage!.status).toBe('error');
    // If a LangChain upgrade starts accepting these arguments, this fails: then docs/interop.md needs a look.
    expect(toolMessage!.content).toMatch(/did not match expected schema/);
    expect(toolMessagesOf(server.requests[1])[0]!.content).toMatch(/did not match expected schema/);
  });
});

describe('registerLangChainTool', () => {
  function setLightTool(received: unknown[]) {
    return tool(
      async (input, config) => {
        received.push({ input, configurable: config?.configurable });
        return `light ${input.device_name} at ${input.level}%`;
      },
      {
        name: 'set_light',
        description: 'Set the brightness of a light.',
        schema: z.object({
          device_name: z.string().describe('The light to change'),
          level: z.number().int().min(0).max(100).describe('Brightness in percent'),
          session_id: z.string(),
        }),
      },
    );
  }

  it('runs an imported LangChain tool through the executor: normalized arguments, trusted context, recorded changes', async () => {
    const received: Array<{ input: unknown; configurable: Record<string, unknown> | undefined }> = [];
    const registry = new ToolRegistry();
    registerLangChainTool(registry, setLightTool(received));
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });

    const result = await executor.execute(
      {
        id: 'c1',
        name: 'set_light',
        arguments: '{"deviceName": "desk lamp", "level": "40", "session_id": "forged-by-the-model"}',
      },
      { sessionId: TRUSTED_SESSION },
    );

    expect(result).toMatchObject({ ok: true, value: 'light desk lamp at 40%' });
    expect(received).toEqual([
      {
        input: { device_name: 'desk lamp', level: 40, session_id: TRUSTED_SESSION },
        configurable: expect.objectContaining({ sessionId: TRUSTED_SESSION }),
      },
    ]);
    expect(result.transformations.map((change) => change.rule).sort()).toEqual([
      'dropped-context-field',
      'key-case',
      'string-to-integer',
    ]);

    const refused = await executor.execute(
      { id: 'c2', name: 'set_light', arguments: { device_name: 'desk lamp', level: 140 } },
      { sessionId: TRUSTED_SESSION },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(received).toHaveLength(1);
  });

  it("puts the imported tool's schema, without its context field, in every provider format", () => {
    const registry = new ToolRegistry();
    registerLangChainTool(registry, setLightTool([]));
    const providers = getProviders();
    expect(providers.length).toBeGreaterThanOrEqual(10);
    for (const provider of providers) {
      const [definition] = adaptAll(registry, provider.id);
      const text = JSON.stringify(definition);
      expect({
        provider: provider.id,
        hasName: text.includes('set_light'),
        hasParameter: text.includes('device_name') && text.includes('level'),
      }).toEqual({ provider: provider.id, hasName: true, hasParameter: true });
      expect({ provider: provider.id, leaksContext: text.includes('session_id') }).toEqual({
        provider: provider.id,
        leaksContext: false,
      });
    }
  });

  it('is usable from LangChain again: toLangChainTools over a registry holding the imported tool', async () => {
    const received: Array<{ input: unknown }> = [];
    const registry = new ToolRegistry();
    registerLangChainTool(registry, setLightTool(received));
    const [wrapped] = toLangChainTools(new PersonaToolExecutor(registry, { logger: silentLogger }), {
      context: { sessionId: TRUSTED_SESSION },
    });
    await expect(wrapped!.invoke({ 'device-name': 'hall', level: '5' })).resolves.toBe('light hall at 5%');
    expect(received[0]!.input).toEqual({ device_name: 'hall', level: 5, session_id: TRUSTED_SESSION });
  });

  it('refuses what it cannot import, naming the tool and the fix', () => {
    const registry = new ToolRegistry();
    expect(() => registerLangChainTool(registry, { name: 'broken' } as never)).toThrow(
      /registerLangChainTool\("broken"\).*needs a string `name` and an `invoke` function/,
    );
    expect(() => registerLangChainTool(registry, setLightTool([]), { contextFields: { missing: 'job_id' } })).toThrow(
      /does not declare.*Fix: use one of device_name, level, session_id/,
    );
  });
});
