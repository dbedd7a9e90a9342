import 'reflect-metadata';
import {
  Command,
  PersonaToolExecutor,
  registerRelativeDateTool,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ChatMessage,
  type ToolLoopStep,
} from '@toolwright/core';

class CalendarParams {
  @ToolParam({ type: 'array<datetime>', description: 'Absolute date-times', minItems: 1 })
  resolved_datetimes!: string[];
}

@Command({
  name: 'get_calendar_events',
  description: 'Calendar events at the given date-times',
  params: CalendarParams,
})
class GetCalendarEvents {
  execute(params: CalendarParams) {
    return params.resolved_datetimes.map((start) => ({ title: 'Standup', start }));
  }
}

class StrictParams {
  @ToolParam({ type: 'int' }) count!: number;
}

@Command({ name: 'count_things', description: 'Counts', params: StrictParams, coercion: 'strict', retries: 1 })
class CountThings {
  execute(params: StrictParams) {
    return params.count;
  }
}

const context = { now: new Date('2026-11-21T10:00:00Z'), timeZone: 'Europe/Berlin', sessionId: 's1' };

function setup() {
  const registry = ToolRegistry.from([GetCalendarEvents, CountThings], { logger: silentLogger });
  registerRelativeDateTool(registry);
  return { registry, executor: new PersonaToolExecutor(registry, { logger: silentLogger }) };
}

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });
const toolMessages = (messages: readonly ChatMessage[]) =>
  messages.filter((message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool');

describe('runToolLoop', () => {
  it('seed 001: an invalid relative date, a retry message, resolve_relative_date, then a valid call', async () => {
    const { executor } = setup();
    const model = new ScriptedChatModel([
      { toolCalls: [call('c1', 'get_calendar_events', { resolved_datetimes: 'tomorrow' })] },
      { toolCalls: [call('c2', 'resolve_relative_date', { phrase: 'tomorrow' })] },
      (messages) => {
        const resolved = JSON.parse(toolMessages(messages).at(-1)!.content) as { date: string };
        return {
          toolCalls: [call('c3', 'get_calendar_events', { resolved_datetimes: [`${resolved.date}T09:00:00+01:00`] })],
        };
      },
      { text: 'You have a standup tomorrow at 9.', toolCalls: [] },
    ]);
    const steps: ToolLoopStep[] = [];
    const result = await runToolLoop({
      model,
      executor,
      messages: [{ role: 'user', content: 'What is on my calendar tomorrow?' }],
      context,
      onStep: (step) => steps.push(step),
    });

    expect(result.status).toBe('completed');
    expect(result.text).toBe('You have a standup tomorrow at 9.');
    // The exact retry message the model received for its invalid call.
    expect(toolMessages(model.requests[1]!.messages)).toEqual([
      expect.objectContaining({
        callId: 'c1',
        tool: 'get_calendar_events',
        isError: true,
        content:
          'The arguments for "get_calendar_events" are invalid:\n' +
          '- "resolved_datetimes[0]" must be an ISO-8601 date-time with a UTC offset, but received "tomorrow": it is a relative phrase, not a date-time. ' +
          'Relative dates such as "tomorrow" are not accepted here: call resolve_relative_date with the phrase first, then use the date it returns. ' +
          'Example: "2026-01-31T09:00:00+01:00".\n' +
          'Fix these arguments and call "get_calendar_events" again.\n' +
          '(Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)',
      }),
    ]);
    expect(JSON.parse(toolMessages(model.requests[2]!.messages).at(-1)!.content)).toMatchObject({
      kind: 'date',
      date: '2026-11-22',
    });
    expect(toolMessages(result.messages).at(-1)).toMatchObject({
      callId: 'c3',
      isError: false,
      content: JSON.stringify([{ title: 'Standup', start: '2026-11-22T09:00:00+01:00' }]),
    });
    // One retry was used; each step was reported.
    expect(steps.map((step) => step.calls.map((entry) => [entry.result.tool, entry.result.ok, entry.attempt]))).toEqual(
      [
        [['get_calendar_events', false, 1]],
        [['resolve_relative_date', true, undefined]],
        [['get_calendar_events', true, undefined]],
        [],
      ],
    );
    expect(result.steps).toEqual(steps);
  });

  it('a model that never fixes its call stops after exactly 2 retries with the final error', async () => {
    const { executor } = setup();
    const invalid = { toolCalls: [call('x', 'get_calendar_events', { resolved_datetimes: 'next week' })] };
    const model = new ScriptedChatModel([invalid, invalid, invalid, { text: 'never reached', toolCalls: [] }]);
    const result = await runToolLoop({
      model,
      executor,
      messages: [{ role: 'user', content: 'Calendar next week?' }],
      context,
    });
    expect(result.status).toBe('failed');
    expect(model.requests).toHaveLength(3);
    expect(result.error).toMatchObject({ code: 'INVALID_ARGUMENTS', tool: 'get_calendar_events' });
    const contents = toolMessages(result.messages).map((message) => message.content.split('\n').at(-1));
    expect(contents).toEqual([
      '(Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)',
      '(Attempt 2 failed; 1 retry left. Send the call again with corrected arguments.)',
      '(This call failed 3 times; no retries are left. Do not call this tool again with these arguments; answer the user with what you have.)',
    ]);
  });

  it('a model that calls an unknown tool gets suggestions, and the call counts against the retries', async () => {
    const { executor } = setup();
    const model = new ScriptedChatModel([
      { toolCalls: [call('u', 'get_calender_event', {})] },
      { text: 'Sorry.', toolCalls: [] },
    ]);
    const result = await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'hi' }], context });
    expect(result.status).toBe('completed');
    expect(toolMessages(model.requests[1]!.messages)[0]!.content).toBe(
      'There is no tool named "get_calender_event". Did you mean "get_calendar_events"? Call one of the available tools by its exact name.\n' +
        '(Attempt 1 failed; 2 retries left. Send the call again with corrected arguments.)',
    );
  });

  it("runs parallel calls of one turn and answers each in call order; a success resets that tool's retries", async () => {
    const { executor } = setup();
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          call('a', 'resolve_relative_date', { phrase: 'today' }),
          call('b', 'get_calendar_events', { resolved_datetimes: ['2026-11-21T09:00:00Z'] }),
          call('c', 'resolve_relative_date', { phrase: 'gibberish words here' }),
        ],
      },
      { text: 'Done.', toolCalls: [] },
    ]);
    const result = await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'go' }], context });
    expect(toolMessages(result.messages).map((message) => [message.callId, message.isError])).toEqual([
      ['a', false],
      ['b', false],
      ['c', true],
    ]);
    expect(result.status).toBe('completed');
  });

  it("uses the command's own retries, and under strict nothing is auto-corrected", async () => {
    const { executor } = setup();
    const strictCall = { toolCalls: [call('s', 'count_things', { count: '10' })] };
    const model = new ScriptedChatModel([strictCall, strictCall, { text: 'x', toolCalls: [] }]);
    const result = await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'count' }], context });
    expect(result.status).toBe('failed');
    expect(model.requests).toHaveLength(2);
    expect(toolMessages(result.messages)[0]!.content).toContain('"count" must be an integer, but received "10"');
  });

  it('stops at maxSteps', async () => {
    const { registry } = setup();
    const valid = { toolCalls: [call('v', 'get_calendar_events', { resolved_datetimes: ['2026-11-21T09:00:00Z'] })] };
    const model = new ScriptedChatModel([valid, valid, valid]);
    const result = await runToolLoop({
      model,
      registry,
      messages: [{ role: 'user', content: 'loop' }],
      context,
      maxSteps: 2,
      logger: silentLogger,
    });
    expect(result.status).toBe('max-steps');
    expect(result.steps).toHaveLength(2);
  });

  it('the scripted model says clearly when its script runs out', async () => {
    const model = new ScriptedChatModel([]);
    await expect(model.complete({ messages: [], tools: [] })).rejects.toThrow(
      'The scripted model has no turn 1 (the script has 0).',
    );
  });
});
