import 'reflect-metadata';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PersonaToolExecutor, ToolContent, ToolRegistry, type ToolResult } from '@toolwright/core';
import { modelContent } from '@toolwright/core/internal';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { connectMcpServers, McpContent, serveMcp, type McpConnections, type McpServerHandle } from '@toolwright/mcp';
import { z } from 'zod';
import { startSdkHttpServer } from '../support/sdk-http-server';
import { RecordingLogger } from '../../../core/test/support/recording-logger';

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND): its base64 must arrive byte for byte. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const IMAGE = { type: 'image', data: PNG, mimeType: 'image/png' } as const;
const TEXT = { type: 'text', text: 'a chart of 3 points' } as const;
const OUTPUT_SCHEMA = {
  type: 'object',
  properties: { points: { type: 'integer' }, unit: { type: 'string' } },
  required: ['points'],
};

function connect(url: string): { registry: ToolRegistry; executor: PersonaToolExecutor; connections: McpConnections } {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger });
  const executor = new PersonaToolExecutor(registry, { logger });
  const connections = connectMcpServers(registry, [{ name: 'charts', url }], { logger, retry: { attempts: 1 } });
  return { registry, executor, connections };
}

function success(result: ToolResult): Extract<ToolResult, { ok: true }> {
  if (!result.ok) throw new Error(`call failed: ${result.error.code} ${result.error.message}`);
  return result;
}

it('the PNG fixture is a PNG', () => {
  expect(Buffer.from(PNG, 'base64').subarray(0, 8)).toEqual(
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  );
});

/** Our client against serveMcp (both ends in this process, Streamable HTTP over loopback TCP). */
describe('MCP round trip of image content: toolwright client to serveMcp', () => {
  let server: McpServerHandle;
  let client: ReturnType<typeof connect>;

  beforeAll(async () => {
    const remote = new ToolRegistry({ logger: new RecordingLogger() });
    remote.registerJsonSchemaTool(
      { name: 'chart', description: 'Draws a chart.', inputSchema: { type: 'object' } },
      () => new ToolContent([IMAGE, TEXT]),
    );
    // With an output schema, serveMcp sends `structuredContent` beside the image.
    remote.registerJsonSchemaTool(
      {
        name: 'typed_chart',
        description: 'Draws a chart.',
        inputSchema: { type: 'object' },
        outputSchema: OUTPUT_SCHEMA,
      },
      () => new ToolContent([IMAGE, TEXT], { points: 3, unit: 'km' }),
    );
    // The same through a model view: the handler's value is the object, the model reads the image.
    remote.registerJsonSchemaTool(
      {
        name: 'viewed_chart',
        description: 'Draws a chart.',
        inputSchema: { type: 'object' },
        outputSchema: OUTPUT_SCHEMA,
      },
      () => ({ points: 3, unit: 'km' }),
      { toModelOutput: () => new ToolContent([IMAGE, TEXT]) },
    );
    server = await serveMcp(remote, { transport: 'http', logger: new RecordingLogger() });
    client = connect(server.url!);
    expect((await client.connections.ready).connected).toEqual(['charts']);
  });

  afterAll(async () => {
    await client.connections.close();
    await server.close();
  });

  it('keeps the image bytes, its media type and the text', async () => {
    const result = success(await client.executor.execute({ id: 'c1', name: 'charts.chart', arguments: {} }));
    expect(McpContent.isInstance(result.value)).toBe(true);
    const value = result.value as McpContent;
    expect(value.content).toEqual([IMAGE, TEXT]);
    expect(value.structuredContent).toBeUndefined();
    // What a provider adapter lowers: the image part itself, not its JSON.
    expect(modelContent(result)).toEqual([IMAGE, TEXT]);
  });

  it.each(['typed_chart', 'viewed_chart'])(
    'with structuredContent (%s): the object for the application, the image and text for the model',
    async (tool) => {
      // The remote output schema was imported, so the executor checked the result too.
      expect(client.registry.get(`charts.${tool}`)!.output).toBeDefined();
      const result = success(await client.executor.execute({ id: 'c2', name: `charts.${tool}`, arguments: {} }));
      expect(McpContent.isInstance(result.value)).toBe(true);
      const value = result.value as McpContent;
      expect(value.structuredContent).toEqual({ points: 3, unit: 'km' });
      expect(value.content).toEqual([IMAGE, TEXT]);
      expect(modelContent(result)).toEqual([IMAGE, TEXT]);
      expect(result.modelOutput?.structuredContent).toEqual({ points: 3, unit: 'km' });
      const image = modelContent(result)[0] as { data: string; mimeType: string };
      expect(Buffer.from(image.data, 'base64').equals(Buffer.from(PNG, 'base64'))).toBe(true);
    },
  );
});

/** Our client against a server written with the SDK's own `McpServer` (`registerTool`), stateless Streamable HTTP. */
describe("MCP round trip of image content: toolwright client to the SDK's McpServer", () => {
  let http: HttpServer;
  let client: ReturnType<typeof connect>;
  let structuredContent: Record<string, unknown> = { points: 3, unit: 'km' };

  beforeAll(async () => {
    http = createServer((request, response) => {
      const server = new McpServer({ name: 'sdk-charts', version: '1.0.0' });
      server.registerTool(
        'chart',
        {
          description: 'Draws a chart.',
          inputSchema: z.object({}),
          outputSchema: z.object({ points: z.number().int(), unit: z.string() }),
        },
        () => ({ content: [IMAGE, TEXT], structuredContent }),
      );
      server.registerTool('plain_chart', { description: 'Draws a chart.', inputSchema: z.object({}) }, () => ({
        content: [TEXT, IMAGE],
      }));
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(request, response));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = connect(`http://127.0.0.1:${port}/mcp`);
    expect((await client.connections.ready).connected).toEqual(['charts']);
  });

  afterAll(async () => {
    await client.connections.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('keeps the image bytes and media type beside the structured content', async () => {
    const result = success(await client.executor.execute({ id: 's1', name: 'charts.chart', arguments: {} }));
    const value = result.value as McpContent;
    expect(McpContent.isInstance(value)).toBe(true);
    expect(value.structuredContent).toEqual({ points: 3, unit: 'km' });
    expect(value.content).toEqual([IMAGE, TEXT]);
    expect(modelContent(result)).toEqual([IMAGE, TEXT]);
  });

  it('keeps them without structured content too', async () => {
    const result = success(await client.executor.execute({ id: 's2', name: 'charts.plain_chart', arguments: {} }));
    expect((result.value as McpContent).content).toEqual([TEXT, IMAGE]);
  });

  it("the SDK's McpServer itself refuses to send structured content its output schema refuses", async () => {
    structuredContent = { points: 'three' };
    try {
      const result = await client.executor.execute({ id: 's3', name: 'charts.chart', arguments: {} });
      expect(result).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR' } });
      if (!result.ok) expect(result.error.message).toMatch(/Invalid structured content for tool chart/);
    } finally {
      structuredContent = { points: 3, unit: 'km' };
    }
  });
});

/** A server that sends an image beside structured content its own output schema refuses (the SDK's low-level `Server`). */
describe('MCP image content beside invalid structured content', () => {
  it('is refused as RESULT_INVALID: the image never carries a result the output schema refuses', async () => {
    const server = await startSdkHttpServer((sdk) => {
      sdk.setRequestHandler('tools/list', () => ({
        tools: [{ name: 'chart', inputSchema: { type: 'object' }, outputSchema: OUTPUT_SCHEMA }],
      }));
      sdk.setRequestHandler('tools/call', () => ({ content: [IMAGE, TEXT], structuredContent: { points: 'three' } }));
    });
    const client = connect(server.url);
    try {
      expect((await client.connections.ready).connected).toEqual(['charts']);
      const result = await client.executor.execute({ id: 'b1', name: 'charts.chart', arguments: {} });
      expect(result).toMatchObject({ ok: false, error: { code: 'RESULT_INVALID' } });
    } finally {
      await client.connections.close();
      await server.close();
    }
  });
});
