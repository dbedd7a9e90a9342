import 'reflect-metadata';
import {
  Command,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type CommandHandler,
  type Logger,
} from '@toolwright/core';
import { connectMcpServers, currentMcpRequest, McpContent, serveMcp, type McpServerConfig } from '@toolwright/mcp';
import { SDK_SERVER } from '../support/processes';

/**
 * The snippets of docs/mcp.md, compiled (tsconfig.test.json) and run here, so the page cannot drift from the API.
 * Only the server list differs when run: the page's servers are replaced by the test's SDK fixture.
 */

// --- docs/mcp.md: "Client" -----------------------------------------------------------------------------------
export const servers: McpServerConfig[] = [
  {
    name: 'zwave',
    command: 'npx',
    args: ['-y', 'zwave-mcp-server'],
    env: { ZWAVE_URL: 'ws://127.0.0.1:3000' }, // added to HOME, LOGNAME, PATH, SHELL, TERM, USER; nothing else is inherited
    parameterAliases: { control_zwave_device: { device_name: 'deviceName', command: 'action' } },
    timeoutMs: 10_000,
  },
  { name: 'notes', url: 'https://notes.example.com/mcp', headers: { Authorization: 'Bearer <token>' } },
];

export async function startWithMcpTools(registry: ToolRegistry, mcpServers: McpServerConfig[], logger: Logger) {
  const connections = connectMcpServers(registry, mcpServers, { logger }); // returns at once
  const executor = new PersonaToolExecutor(registry, { logger });
  // ... the rest of startup runs meanwhile; local tools work already.
  const report = await connections.ready; // optional: wait for every server to connect or be given up
  for (const name of report.degraded) logger.warn(`running without ${name}`);
  return { connections, executor };
}

// --- docs/mcp.md: "Server" -----------------------------------------------------------------------------------
class ResizeParams {
  @ToolParam({ description: 'Width in pixels', type: 'int', min: 1 })
  width!: number;
}

@Command({
  name: 'resize_image',
  title: 'Resize an image',
  description: 'Resize the current image.',
  params: ResizeParams,
  annotations: { readOnlyHint: false, destructiveHint: true },
})
class ResizeImageCommand implements CommandHandler<ResizeParams> {
  async execute(params: ResizeParams) {
    const request = currentMcpRequest(); // set when serveMcp runs the call
    await request?.progress(50, 100, 'resizing');
    return new McpContent([{ type: 'text', text: `resized to ${params.width}px` }], { width: params.width });
  }
}

export async function serveOverHttp(logger: Logger) {
  const registry = ToolRegistry.from([ResizeImageCommand]);
  return serveMcp(registry, {
    transport: 'http', // 127.0.0.1, a free port unless `port` is given, endpoint /mcp
    logger,
    context: (session) => ({ persona: { name: session.headers?.['x-agent'] === 'editor' ? 'editor' : 'guest' } }),
  });
}

describe('docs/mcp.md snippets', () => {
  it('client: connects, registers namespaced tools, runs one through the executor', async () => {
    expect(servers.map((server) => server.name)).toEqual(['zwave', 'notes']);
    const registry = new ToolRegistry({ logger: silentLogger });
    const { connections, executor } = await startWithMcpTools(
      registry,
      [{ ...servers[0]!, command: process.execPath, args: [SDK_SERVER] }],
      silentLogger,
    );
    try {
      const result = await executor.execute({
        id: '1',
        name: 'zwave.control_zwave_device',
        arguments: { device_name: 'lamp', command: 'on' },
      });
      expect(result.ok && result.value).toEqual({ received: { deviceName: 'lamp', action: 'on' } });
    } finally {
      await connections.close();
    }
  });

  it('server: serves a decorated command over HTTP; the client side reads it back', async () => {
    const handle = await serveOverHttp(silentLogger);
    const registry = new ToolRegistry({ logger: silentLogger });
    const { connections, executor } = await startWithMcpTools(
      registry,
      [{ name: 'images', url: handle.url! }],
      silentLogger,
    );
    try {
      expect(registry.get('images.resize_image')!.options.title).toBe('Resize an image');
      const result = await executor.execute({ id: '1', name: 'images.resize_image', arguments: { width: '640' } });
      expect(result.ok && result.value).toEqual({ width: 640 });
    } finally {
      await connections.close();
      await handle.close();
    }
  });
});
