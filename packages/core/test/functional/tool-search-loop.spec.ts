import 'reflect-metadata';
import {
  Command,
  PersonaToolExecutor,
  registerToolSearch,
  runToolLoop,
  ScriptedChatModel,
  SEARCH_TOOLS_TOOL_NAME,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ChatMessage,
  type SearchToolsResult,
} from '@toolwright/core';

class ForecastParams {
  @ToolParam({ description: 'City name, e.g. "Berlin"' }) city!: string;
  @ToolParam({ type: 'int', description: 'Days ahead, 1-7', min: 1, max: 7 }) days!: number;
}
@Command({
  name: 'weather.forecast',
  description: 'Weather forecast for a city. Returns one entry per day.',
  params: ForecastParams,
})
class WeatherForecast {
  execute(params: ForecastParams) {
    return { city: params.city, days: params.days, forecast: 'sunny' };
  }
}

class ConvertParams {
  @ToolParam({ type: 'float' }) amount!: number;
  @ToolParam({ description: 'ISO currency code to convert from' }) from!: string;
  @ToolParam({ description: 'ISO currency code to convert to' }) to!: string;
}
@Command({ name: 'convert_currency', description: 'Convert an amount between currencies.', params: ConvertParams })
class ConvertCurrency {
  execute(params: ConvertParams) {
    return params.amount * 2;
  }
}

class NoteParams {
  @ToolParam() text!: string;
}
@Command({ name: 'add_note', description: 'Add a note to the user notebook.', params: NoteParams })
class AddNote {
  execute() {
    return 'ok';
  }
}
@Command({
  name: 'delete_all_notes',
  description: 'Delete every note of the notebook.',
  params: NoteParams,
  permissions: ['notes:admin'],
})
class DeleteAllNotes {
  execute() {
    return 'deleted';
  }
}

function setup() {
  const registry = ToolRegistry.from([WeatherForecast, ConvertCurrency, AddNote, DeleteAllNotes], {
    logger: silentLogger,
  });
  registerToolSearch(registry);
  return { registry, executor: new PersonaToolExecutor(registry, { logger: silentLogger }) };
}

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });
const toolMessages = (messages: readonly ChatMessage[]) =>
  messages.filter((message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool');

describe('search_tools', () => {
  it('returns the best matches with the first sentence of their description', async () => {
    const { executor } = setup();
    const result = await executor.execute(call('s', SEARCH_TOOLS_TOOL_NAME, { query: 'weather forecast' }), {});
    expect(result).toMatchObject({
      ok: true,
      value: { tools: [{ name: 'weather.forecast', description: 'Weather forecast for a city.' }] },
    });
  });

  it('never returns itself, and says what to do when nothing matched', async () => {
    const { executor } = setup();
    const result = await executor.execute(call('s', SEARCH_TOOLS_TOOL_NAME, { query: 'search tools zebra' }), {});
    expect(result.ok && (result.value as SearchToolsResult)).toEqual({
      tools: [],
      hint: 'No tool matched. Search again with other words for the task (a synonym, the object it acts on), or answer without a tool.',
    });
  });

  it('returns only tools the calling persona may call', async () => {
    const { executor } = setup();
    const names = async (persona?: { permissions: string[] }) => {
      const result = await executor.execute(
        call('s', SEARCH_TOOLS_TOOL_NAME, { query: 'notes notebook' }),
        persona ? { persona } : {},
      );
      return result.ok ? (result.value as SearchToolsResult).tools.map((tool) => tool.name) : result.error.code;
    };
    expect(await names()).toEqual(['add_note']);
    expect(await names({ permissions: ['notes:admin'] })).toEqual(['delete_all_notes', 'add_note']);
  });

  it('validates its arguments like any tool: limit 1-20, a non-empty query', async () => {
    const { executor } = setup();
    const tooMany = await executor.execute(call('s', SEARCH_TOOLS_TOOL_NAME, { query: 'notes', limit: 50 }), {});
    expect(tooMany).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    const empty = await executor.execute(call('s', SEARCH_TOOLS_TOOL_NAME, { query: '' }), {});
    expect(empty).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    const one = await executor.execute(call('s', SEARCH_TOOLS_TOOL_NAME, { query: 'note', limit: '1' }), {});
    expect(one.ok && (one.value as SearchToolsResult).tools).toHaveLength(1);
  });

  it('applies the registration options: a default limit and a filter; refuses bad ones', async () => {
    const registry = ToolRegistry.from([WeatherForecast, ConvertCurrency, AddNote], { logger: silentLogger });
    registerToolSearch(registry, { defaultLimit: 1, filter: (definition) => definition.name !== 'add_note' });
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const result = await executor.execute(call('s', SEARCH_TOOLS_TOOL_NAME, { query: 'note weather currency' }), {});
    expect(result.ok && (result.value as SearchToolsResult).tools.map((tool) => tool.name)).toEqual([
      'convert_currency',
    ]);
    expect(() => registerToolSearch(new ToolRegistry(), { defaultLimit: 0 })).toThrow(
      'registerToolSearch: defaultLimit must be an integer from 1 to 20, but received 0.',
    );
    expect(() => registerToolSearch(new ToolRegistry(), { filter: 1 as unknown as () => boolean })).toThrow(TypeError);
  });
});

describe('runToolLoop with toolSearch: search, then call', () => {
  it('offers search_tools and the core tools first, then the tools found; calls are validated and retried', async () => {
    const { executor } = setup();
    const model = new ScriptedChatModel([
      { toolCalls: [call('s1', SEARCH_TOOLS_TOOL_NAME, { query: 'weather forecast for a city' })] },
      // An invalid call of the tool found: days out of range, retried with the usual message.
      { toolCalls: [call('f1', 'weather.forecast', { city: 'Berlin', days: 30 })] },
      { toolCalls: [call('f2', 'weather.forecast', { city: 'Berlin', days: '3' })] },
      { text: 'Sunny for three days.', toolCalls: [] },
    ]);
    const result = await runToolLoop({
      model,
      executor,
      messages: [{ role: 'user', content: 'Weather in Berlin for 3 days?' }],
      toolSearch: { core: ['add_note'] },
    });

    expect(result.status).toBe('completed');
    const offered = model.requests.map((request) => request.tools.map((tool) => tool.name));
    expect(offered).toEqual([
      ['add_note', SEARCH_TOOLS_TOOL_NAME],
      ['weather.forecast', 'add_note', SEARCH_TOOLS_TOOL_NAME],
      ['weather.forecast', 'add_note', SEARCH_TOOLS_TOOL_NAME],
      ['weather.forecast', 'add_note', SEARCH_TOOLS_TOOL_NAME],
    ]);
    const messages = toolMessages(result.messages);
    expect(JSON.parse(messages[0]!.content)).toEqual({
      tools: [{ name: 'weather.forecast', description: 'Weather forecast for a city.' }],
    });
    expect(messages[1]).toMatchObject({ tool: 'weather.forecast', isError: true });
    expect(messages[1]!.content).toContain('"days"');
    expect(messages[1]!.content).toContain('(Attempt 1 failed; 2 retries left.');
    expect(messages[2]).toMatchObject({
      tool: 'weather.forecast',
      isError: false,
      content: JSON.stringify({ city: 'Berlin', days: 3, forecast: 'sunny' }),
    });
    expect(result.steps[2]!.calls[0]!.result.transformations).toEqual([
      expect.objectContaining({ path: 'days', from: '3', to: 3 }),
    ]);
  });

  it('adds nothing for a failed search, and keeps adding across searches', async () => {
    const { executor } = setup();
    const model = new ScriptedChatModel([
      { toolCalls: [call('s1', SEARCH_TOOLS_TOOL_NAME, { query: '' })] },
      { toolCalls: [call('s2', SEARCH_TOOLS_TOOL_NAME, { query: 'convert currency' })] },
      { toolCalls: [call('s3', SEARCH_TOOLS_TOOL_NAME, { query: 'weather' })] },
      { text: 'done', toolCalls: [] },
    ]);
    await runToolLoop({ model, executor, messages: [{ role: 'user', content: 'hi' }], toolSearch: {} });
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      [SEARCH_TOOLS_TOOL_NAME],
      [SEARCH_TOOLS_TOOL_NAME],
      ['convert_currency', SEARCH_TOOLS_TOOL_NAME],
      ['weather.forecast', 'convert_currency', SEARCH_TOOLS_TOOL_NAME],
    ]);
  });

  it('refuses a loop whose tools lack search_tools, or whose core names an unknown tool', async () => {
    const registry = ToolRegistry.from([AddNote], { logger: silentLogger });
    const model = new ScriptedChatModel([]);
    await expect(runToolLoop({ model, registry, messages: [], toolSearch: {}, logger: silentLogger })).rejects.toThrow(
      'runToolLoop: toolSearch needs the search_tools tool among the tools: register it with registerToolSearch(registry).',
    );
    registerToolSearch(registry);
    await expect(
      runToolLoop({ model, registry, messages: [], toolSearch: { core: ['add_note', 'nope'] }, logger: silentLogger }),
    ).rejects.toThrow('runToolLoop: toolSearch.core names tools that are not among the tools: "nope".');
    expect(model.requests).toHaveLength(0);
  });
});
