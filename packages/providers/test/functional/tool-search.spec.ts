import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import {
  DefinitionError,
  PersonaToolExecutor,
  registerToolSearch,
  SEARCH_TOOLS_TOOL_NAME,
  silentLogger,
  ToolRegistry,
} from '@toolwright/core';
import * as anthropic from '@toolwright/providers/anthropic';
import * as openai from '@toolwright/providers/openai';
import { startStubServer, type StubServer } from '../support/stub-server';

const noop = () => undefined;

function registry(): ToolRegistry {
  const tools = new ToolRegistry({ logger: silentLogger });
  for (const [name, description] of [
    ['weather.forecast', 'Weather forecast for a city.'],
    ['convert_currency', 'Convert an amount between currencies.'],
    ['add_note', 'Add a note to the notebook.'],
    ['send_email', 'Send an email to a recipient.'],
  ] as const)
    tools.registerJsonSchemaTool(
      { name, description, parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      noop,
    );
  registerToolSearch(tools);
  return tools;
}

/** Runs `run`, which must throw a DefinitionError, and returns its message. */
function definitionErrorOf(run: () => unknown): string {
  expect(run).toThrow(DefinitionError);
  try {
    run();
  } catch (error) {
    return (error as DefinitionError).message;
  }
  return '';
}

describe('createToolSet({ only })', () => {
  it('sends only the named tools, in registration order, with the names the provider needs', () => {
    const tools = registry();
    const found = tools.search('weather forecast', { limit: 1 }).map((result) => result.name);
    const set = openai.createToolSet(tools, { only: [SEARCH_TOOLS_TOOL_NAME, 'add_note', ...found] });
    expect(set.definitions.map((definition) => definition.name)).toEqual([
      'weather.forecast',
      'add_note',
      SEARCH_TOOLS_TOOL_NAME,
    ]);
    expect(set.tools.map((tool) => tool.function.name)).toEqual(['weather_forecast', 'add_note', 'search_tools']);
    // The codec reads the calls back to registry names.
    expect(set.codec.decode('weather_forecast')).toBe('weather.forecast');
    expect(anthropic.createToolSet(tools, { only: [] }).tools).toEqual([]);
  });

  it('refuses a name the source does not hold, and anything but an array of names', () => {
    expect(
      definitionErrorOf(() => openai.createToolSet(registry(), { only: ['add_note', 'nope', 'weather_forecast'] })),
    ).toBe(
      'createToolSet.only: names tools the tool set does not hold: "nope", "weather_forecast". Fix: name registered tools (registry names, not the provider-encoded ones)',
    );
    expect(
      definitionErrorOf(() => anthropic.createToolSet(registry(), { only: 'add_note' as unknown as string[] })),
    ).toBe(
      'createToolSet.only: must be an array of tool names. Fix: pass the registry names of the tools, e.g. ["search_tools", "add_note"]',
    );
  });
});

describe('Anthropic tool search: defer_loading and the tool search tool', () => {
  let server: StubServer;
  beforeAll(async () => {
    server = await startStubServer();
  });
  afterAll(() => server.close());

  it('defers every tool but the core ones; the request typed and sent by the official SDK carries them as built', async () => {
    const tools = registry();
    const set = anthropic.createToolSet(tools, { deferLoading: { except: [SEARCH_TOOLS_TOOL_NAME, 'add_note'] } });
    expect(set.tools.map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['weather_forecast', true],
      ['convert_currency', true],
      ['add_note', undefined],
      ['send_email', true],
      ['search_tools', undefined],
    ]);
    const searchTool: Anthropic.Messages.ToolSearchToolBm25_20251119 = anthropic.anthropicToolSearchTool();
    const regexTool: Anthropic.Messages.ToolSearchToolRegex20251119 = anthropic.anthropicToolSearchTool('regex');
    expect(regexTool).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    const requestTools: Anthropic.Messages.ToolUnion[] = [searchTool, ...set.tools];

    server.reply({
      kind: 'json',
      body: {
        id: 'msg_search',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'weather' } },
          {
            type: 'tool_search_tool_result',
            tool_use_id: 'srvtoolu_1',
            content: {
              type: 'tool_search_tool_search_result',
              tool_references: [{ type: 'tool_reference', tool_name: 'weather_forecast' }],
            },
          },
          { type: 'tool_use', id: 'toolu_1', name: 'weather_forecast', input: { text: 'Berlin' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      },
    });
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const response = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather in Berlin?' }],
      tools: requestTools,
    });
    expect(server.requests[0]?.body.tools).toEqual([
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
      ...set.tools,
    ]);
    // The server tool's blocks are the provider's; only the custom tool call is read, back to its registry name.
    const calls = anthropic.parseToolCalls(response, set);
    expect(calls.map((call) => [call.id, call.name])).toEqual([['toolu_1', 'weather.forecast']]);
    const executor = new PersonaToolExecutor(tools, { logger: silentLogger });
    expect((await executor.executeAll(calls, {}))[0]?.ok).toBe(true);
  });

  it('refuses deferLoading and the tool search tool before 2025-11-19, and an except name the set lacks', () => {
    expect(
      definitionErrorOf(() => anthropic.createToolSet(registry(), { deferLoading: {}, version: '2025-11-13' })),
    ).toBe(
      'anthropic.version: defer_loading (tool search) is not in the anthropic API version "2025-11-13" (it came on 2025-11-19). Fix: leave deferLoading off, or pin 2025-11-19 or later.',
    );
    expect(definitionErrorOf(() => anthropic.anthropicToolSearchTool('bm25', { version: '2025-06' }))).toContain(
      'the tool search tool is not in the anthropic API version "2025-06"',
    );
    expect(
      definitionErrorOf(() =>
        anthropic.createToolSet(registry(), { deferLoading: { except: ['add_note', 'addNote'] } }),
      ),
    ).toBe(
      'anthropic.deferLoading.except: names a tool the tool set does not hold: "addNote". Fix: name registered tools (registry names, not the provider-encoded ones)',
    );
    expect(definitionErrorOf(() => anthropic.anthropicToolSearchTool('fuzzy' as unknown as 'bm25'))).toContain(
      'unknown tool search variant "fuzzy"',
    );
    // Without deferLoading nothing is deferred, whatever the version.
    expect(anthropic.toTools(registry()).some((tool) => tool.defer_loading !== undefined)).toBe(false);
  });
});
