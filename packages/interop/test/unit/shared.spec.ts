import 'reflect-metadata';
import { InvalidToolInputError, NoSuchToolError } from 'ai';
import {
  Command,
  DefinitionError,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type ToolDefinition,
} from '@toolwright/core';
import { frameworkToolNames, pickExecutionContext, ToolResultError } from '@toolwright/interop';
import { createRepairToolCall, toAISDKTools } from '@toolwright/interop/ai-sdk';
import { toLangChainTools } from '@toolwright/interop/langchain';
import { toAgentsTools } from '@toolwright/interop/openai-agents';
import { meetingExecutor, TRUSTED_SESSION } from '../support/commands';

class NoteParams {
  @ToolParam({ description: 'The note' })
  text!: string;
}

@Command({ name: 'notes/save', description: 'Save a note.', params: NoteParams })
class SaveNoteCommand {
  execute(params: NoteParams) {
    return { saved: params.text };
  }
}

@Command({ name: 'notes.save', description: 'Save a note too.', params: NoteParams })
class SaveNoteTooCommand {
  execute(params: NoteParams) {
    return { saved: params.text };
  }
}

function definition(name: string): ToolDefinition {
  return { name } as ToolDefinition;
}

describe('framework tool names', () => {
  it('keeps names that fit and replaces other characters with _', () => {
    expect([
      ...frameworkToolNames(
        [definition('schedule_meeting'), definition('decision/propose'), definition('math.factorial')],
        'test',
      ).keys(),
    ]).toEqual(['schedule_meeting', 'decision_propose', 'math_factorial']);
  });

  it('refuses two tools that would get the same name, naming both and the fix', () => {
    expect(() => frameworkToolNames([definition('notes/save'), definition('notes.save')], 'toAISDKTools')).toThrow(
      DefinitionError,
    );
    expect(() => frameworkToolNames([definition('notes/save'), definition('notes.save')], 'toAISDKTools')).toThrow(
      /toAISDKTools: tools "notes\/save" and "notes.save" both become "notes_save".*Fix: rename one of them/,
    );
  });

  it('gives every adapter the same names and runs the registry tool behind each', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([SaveNoteCommand]), { logger: silentLogger });
    expect(Object.keys(toAISDKTools(executor))).toEqual(['notes_save']);
    const [langChainTool] = toLangChainTools(executor);
    expect(langChainTool!.name).toBe('notes_save');
    await expect(langChainTool!.invoke({ text: 'hi' })).resolves.toEqual({ saved: 'hi' });
    expect(toAgentsTools(executor).map((tool) => tool.name)).toEqual(['notes_save']);
  });

  it('exposes only the included tools, and refuses an unknown one', () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([SaveNoteCommand, SaveNoteTooCommand]), {
      logger: silentLogger,
    });
    expect(() => toAISDKTools(executor)).toThrow(/both become "notes_save"/);
    expect(Object.keys(toAISDKTools(executor, { include: ['notes.save'] }))).toEqual(['notes_save']);
    expect(() => toLangChainTools(executor, { include: ['notes.delete'] })).toThrow(
      /"notes.delete" is not a registered tool.*Fix: include only registered tools: notes\/save, notes.save/,
    );
  });
});

describe('pickExecutionContext', () => {
  it('copies only own ExecutionContext fields of an application object', () => {
    const signal = new AbortController().signal;
    expect(
      pickExecutionContext({
        sessionId: 's',
        jobId: 'j',
        userName: 'ana',
        password: 'x',
        signal,
        persona: { name: 'p' },
      }),
    ).toEqual({ sessionId: 's', jobId: 'j', signal, persona: { name: 'p' } });
    expect(pickExecutionContext(JSON.parse('{"__proto__": {"sessionId": "polluted"}}'))).toEqual({});
    expect(pickExecutionContext(Object.create({ sessionId: 'inherited' }))).toEqual({});
    expect(({} as Record<string, unknown>)['sessionId']).toBeUndefined();
    for (const value of [undefined, null, 'sessionId', 42]) expect(pickExecutionContext(value)).toEqual({});
  });
});

describe('createRepairToolCall', () => {
  const toolCall = (toolName: string, input: string) => ({
    type: 'tool-call' as const,
    toolCallId: 'call_1',
    toolName,
    input,
  });
  const invalid = (input: string) =>
    new InvalidToolInputError({ toolName: 'schedule_meeting', toolInput: input, cause: new Error('parse') });

  it('recovers Python-literal text, and hands cut-off text over unchanged for the executor to explain', async () => {
    const executor = meetingExecutor();
    const tools = toAISDKTools(executor, { context: { sessionId: TRUSTED_SESSION } });
    const repair = createRepairToolCall(executor);
    const base = { tools, messages: [], instructions: undefined, system: undefined, inputSchema: async () => ({}) };

    const repaired = await repair({
      ...base,
      toolCall: toolCall('schedule_meeting', "{'title': 'A', 'attendees': ['a@example.com'], 'durationMinutes': 30}"),
      error: invalid(''),
    });
    expect(JSON.parse(repaired!.input)).toEqual({ title: 'A', attendees: ['a@example.com'], durationMinutes: 30 });

    const cutOff = '{"title": "A", "attendees": ["a@example.com"';
    const handedOver = await repair({
      ...base,
      toolCall: toolCall('schedule_meeting', cutOff),
      error: invalid(cutOff),
    });
    expect(JSON.parse(handedOver!.input)).toBe(cutOff);
    const execute = tools['schedule_meeting']!.execute!;
    const failure = await Promise.resolve(
      execute(JSON.parse(handedOver!.input), { toolCallId: 'call_1', messages: [], context: {} }),
    ).catch((error: unknown) => error);
    expect(ToolResultError.isInstance(failure)).toBe(true);
    expect((failure as ToolResultError).code).toBe('MALFORMED_ARGUMENTS');
    expect((failure as ToolResultError).stack).not.toMatch(/\n\s+at /);
  });

  it("leaves tools that are not toolwright's, and unknown names it cannot resolve, to the AI SDK", async () => {
    const executor = meetingExecutor();
    const repair = createRepairToolCall(executor);
    const tools = { ...toAISDKTools(executor), other: { inputSchema: { type: 'object' } as never } };
    const base = { tools, messages: [], instructions: undefined, system: undefined, inputSchema: async () => ({}) };
    await expect(repair({ ...base, toolCall: toolCall('other', "{'a': 1}"), error: invalid('') })).resolves.toBeNull();
    await expect(
      repair({
        ...base,
        toolCall: toolCall('book_flight', '{}'),
        error: new NoSuchToolError({ toolName: 'book_flight' }),
      }),
    ).resolves.toBeNull();
  });
});
