import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import { connectMcpServers, serveMcp, type McpConnections, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';

/**
 * Issue 28, failure 2, through the official SDK over HTTP: a server's tool with a 262,144-character title (and
 * description and parameter title) is imported with each text clipped to 4,096 characters, saying so.
 */
describe('text of remote tools is capped on import (official SDK over HTTP)', () => {
  const HUGE = 262_144;
  let server: McpServerHandle;
  let connections: McpConnections | undefined;

  beforeAll(async () => {
    const remote = new ToolRegistry({ logger: new RecordingLogger() });
    remote.registerJsonSchemaTool(
      {
        name: 'big',
        title: 't'.repeat(HUGE),
        description: 'd'.repeat(HUGE),
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', title: 'p'.repeat(HUGE), description: 'q'.repeat(HUGE) } },
        },
      },
      () => 'ok',
    );
    server = await serveMcp(remote, { transport: 'http', logger: new RecordingLogger() });
  });

  afterAll(async () => {
    await connections?.close();
    await server.close();
  });

  it('clips the title, the description and the parameter texts', async () => {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    connections = connectMcpServers(registry, [{ name: 'remote', url: server.url! }], {
      logger,
      retry: { attempts: 1 },
    });
    expect((await connections.ready).connected).toEqual(['remote']);
    const definition = registry.get('remote.big')!;
    const clipped = (letter: string) => `${letter.repeat(4_096)}... [clipped from ${HUGE} characters]`;
    expect(definition.options.title).toBe(clipped('t'));
    expect(definition.description).toBe(clipped('d'));
    const [text] = definition.parameters.properties;
    expect(text!.schema.title).toBe(clipped('p'));
    expect(text!.schema.description).toBe(clipped('q'));
    const result = await new PersonaToolExecutor(registry, { logger }).execute({
      id: 'c1',
      name: 'remote.big',
      arguments: { text: 'x' },
    });
    expect(result.ok).toBe(true);
  }, 60_000);
});
