import 'reflect-metadata';
import { ArrayOf, Command, PersonaToolExecutor, ToolParam, ToolRegistry } from '@toolwright/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectMcpServers, serveMcp, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { startSdkHttpServer, type SdkHttpServer } from '../support/sdk-http-server';

class ForecastParams {
  @ToolParam({ description: 'City' }) city!: string;
}

class Day {
  @ToolParam({ description: 'ISO date' }) date!: string;
  @ToolParam({ type: 'float' }) highC!: number;
}

class Forecast {
  @ToolParam({ description: 'City' }) city!: string;
  @ArrayOf(() => Day, { minItems: 1 }) days!: Day[];
}

@Command({ name: 'forecast', description: 'The forecast of a city', params: ForecastParams, returns: Forecast })
class ForecastCommand {
  execute(params: ForecastParams): unknown {
    if (params.city === 'Nowhere') return { city: params.city, days: [] };
    return { city: params.city, days: [{ date: '2026-11-28', highC: 7.5 }] };
  }
}

describe('output schemas through serveMcp, with the official SDK client', () => {
  let handle: McpServerHandle;
  let client: Client;

  beforeAll(async () => {
    const registry = ToolRegistry.from([ForecastCommand], { logger: new RecordingLogger() });
    registry.registerJsonSchemaTool(
      { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
      (params) => ({ count: params['n'] }),
      { outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } },
    );
    handle = await serveMcp(registry, { transport: 'http', logger: new RecordingLogger() });
    client = new Client({ name: 'output-schema-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url!)));
  }, 30_000);

  afterAll(async () => {
    await client.close();
    await handle.close();
  });

  it('lists each output schema, and the SDK client accepts the structuredContent it checks against it', async () => {
    const { tools } = await client.listTools();
    const forecast = tools.find((tool) => tool.name === 'forecast')!;
    expect(forecast.outputSchema).toMatchObject({
      type: 'object',
      required: ['city', 'days'],
      properties: { days: { type: 'array', minItems: 1 } },
    });
    expect(tools.find((tool) => tool.name === 'count')!.outputSchema).toMatchObject({ required: ['count'] });

    // The SDK client validates structuredContent against the listed outputSchema (it throws on a mismatch).
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ city: 'Oslo', days: [{ date: '2026-11-28', highC: 7.5 }] });
    // The text form too (clients without structured output read it).
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    const counted = await client.callTool({ name: 'count', arguments: { n: '3' } });
    expect(counted.structuredContent).toEqual({ count: 3 });
  });

  it('sends a handler result that breaks its output schema as a generic error, never as structuredContent', async () => {
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Nowhere' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toBe(
      'The tool "forecast" failed: it produced an invalid result. The arguments were valid; do not retry this call.',
    );
  });
});

/** An MCP server written with the official SDK whose results we choose. */
function sdkServer(structured: () => Record<string, unknown>): Promise<SdkHttpServer> {
  return startSdkHttpServer((server) => {
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: 'weather',
          description: 'The weather now.',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          outputSchema: {
            type: 'object',
            properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
            required: ['temperature', 'conditions'],
          },
        },
      ],
    }));
    server.setRequestHandler('tools/call', () => {
      const value = structured();
      return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
    });
  });
}

describe('our MCP client and a remote output schema (an official SDK server)', () => {
  it('imports the output schema, passes matching structuredContent on typed, and reports content that breaks it', async () => {
    let answer: Record<string, unknown> = { temperature: 21.5, conditions: 'sunny' };
    const remote = await sdkServer(() => answer);
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    const connections = connectMcpServers(registry, [{ name: 'meteo', url: remote.url }], { logger });
    try {
      expect((await connections.ready).connected).toEqual(['meteo']);
      const definition = registry.get('meteo.weather')!;
      expect(definition.output?.properties.map((property) => property.name)).toEqual(['temperature', 'conditions']);

      const executor = new PersonaToolExecutor(registry, { logger });
      const ok = await executor.execute({ id: 'w1', name: 'meteo.weather', arguments: { city: 'Rome' } });
      expect(ok).toMatchObject({ ok: true, value: { temperature: 21.5, conditions: 'sunny' } });

      answer = { temperature: 'hot', conditions: 'sunny' };
      const broken = await executor.execute({ id: 'w2', name: 'meteo.weather', arguments: { city: 'Rome' } });
      expect(broken.ok).toBe(false);
      if (broken.ok) return;
      expect(broken.error.code).toBe('RESULT_INVALID');
      expect(broken.error.message).toBe(
        'The tool "meteo.weather" failed: its MCP server sent a result that does not match the tool\'s own output schema. Do not retry this call.',
      );
      // The detail is for the application (the issues and the log), not for the model.
      expect(broken.error.issues[0]!.message).toMatch(/output schema/);
      expect(logger.messages('error')).toEqual(['tool call meteo.weather failed: RESULT_INVALID']);
      // The tool is still there: a mismatch is not taken for a tool the server no longer has.
      expect(registry.has('meteo.weather')).toBe(true);
    } finally {
      await connections.close();
      await remote.close();
    }
  }, 30_000);
});
