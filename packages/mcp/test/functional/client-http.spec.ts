import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import { connectMcpServers, serveMcp, type McpConnections, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { createTestRegistry } from '../support/test-commands';
import { waitUntil } from '../support/processes';

/** Our client over Streamable HTTP, against serveMcp (both ends in this process, over real loopback TCP). */
describe('connectMcpServers over Streamable HTTP', () => {
  let server: McpServerHandle;
  const seenHeaders: Array<string | undefined> = [];

  beforeAll(async () => {
    server = await serveMcp(createTestRegistry(), {
      transport: 'http',
      logger: new RecordingLogger(),
      context: (session) => {
        const authorization = session.headers?.get('authorization');
        seenHeaders.push(typeof authorization === 'string' ? authorization : undefined);
        return { persona: { name: authorization === 'Bearer token-1' ? 'trusted-agent' : 'anonymous' } };
      },
    });
  });

  afterAll(async () => {
    await server.close();
  });

  function connect(url: string, options: { retry?: { attempts?: number; initialDelayMs?: number } } = {}) {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    const executor = new PersonaToolExecutor(registry, { logger });
    const connections: McpConnections = connectMcpServers(
      registry,
      [{ name: 'notes', url, headers: { Authorization: 'Bearer token-1' } }],
      { logger, retry: options.retry },
    );
    return { logger, registry, executor, connections };
  }

  it('registers the remote tools, sends the configured headers, and runs calls through the pipeline', async () => {
    const { registry, executor, connections } = connect(server.url!);
    try {
      expect((await connections.ready).connected).toEqual(['notes']);
      expect(registry.list().map((definition) => definition.name)).toEqual([
        'notes.save_note',
        'notes.list_notes',
        'notes.explode',
        'notes.report_progress',
        'notes.wait_for_cancel',
        'notes.set_address',
        'notes.schedule',
      ]);
      // The remote tool's session_id context field was never in its schema, so it is not here either.
      expect(Object.keys(registry.toJsonSchema('notes.save_note').properties ?? {})).toEqual(['text', 'priority']);
      const result = await executor.execute({
        id: 'h1',
        name: 'notes.save_note',
        arguments: '{"text": "via http", "priority": "High"}',
      });
      expect(result.ok && result.value).toMatchObject({
        saved: 'via http',
        priority: 'high',
        persona: 'trusted-agent',
      });
      expect(result.transformations).toEqual([{ path: 'priority', rule: 'enum-case', from: 'High', to: 'high' }]);
      expect(seenHeaders.at(-1)).toBe('Bearer token-1');
      // A $ref schema from the server works through the importer.
      const address = await executor.execute({
        id: 'h2',
        name: 'notes.set_address',
        arguments: { name: 'Ada', address: { street: 'Main St', city: 'Paris' } },
      });
      expect(address.ok && address.value).toEqual({
        stored: { name: 'Ada', address: { street: 'Main St', city: 'Paris' } },
      });
      const failed = await executor.execute({ id: 'h3', name: 'notes.explode', arguments: {} });
      expect(!failed.ok && failed.error.message).toBe(
        'The tool "notes.explode" reported an error: The tool "explode" failed while running. The arguments were valid; try again later or use another approach.',
      );
    } finally {
      await connections.close();
    }
    expect(server.sessionCount()).toBe(0);
  });

  it('a server that goes away: calls fail fast with SERVICE_UNAVAILABLE and the client reconnects when it is back', async () => {
    const registry = createTestRegistry();
    const temporary = await serveMcp(registry, { transport: 'http', logger: new RecordingLogger() });
    const port = temporary.port!;
    const { logger, executor, connections } = connect(temporary.url!, { retry: { attempts: 20, initialDelayMs: 50 } });
    try {
      await connections.ready;
      await temporary.close();
      const started = performance.now();
      const result = await executor.execute({ id: 'd1', name: 'notes.list_notes', arguments: {} });
      expect(!result.ok && result.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(performance.now() - started).toBeLessThan(1_000);
      await logger.waitFor(/disconnected; reconnecting/);
      const again = await serveMcp(registry, { transport: 'http', port, logger: new RecordingLogger() });
      try {
        await waitUntil(() => connections.get('notes')!.status().state === 'connected', 5_000, 'reconnection');
        const after = await executor.execute({ id: 'd2', name: 'notes.list_notes', arguments: { limit: 1 } });
        // An array result travels as JSON text (structuredContent must be an object).
        expect(after.ok && after.value).toBe('["first"]');
      } finally {
        await connections.close();
        await again.close();
      }
    } finally {
      await connections.close();
    }
  });

  it('an unreachable URL: retried per the policy, then degraded with the reason', async () => {
    const { logger, registry, connections } = connect('http://127.0.0.1:9/mcp', {
      retry: { attempts: 2, initialDelayMs: 10 },
    });
    const report = await connections.ready;
    expect(report.degraded).toEqual(['notes']);
    expect(report.servers[0]!.error!.message).toMatch(
      /^MCP connection to 'notes' failed after 2 attempts \(last error: .*fetch failed.*\); server stderr: \(empty\)$/,
    );
    expect(logger.messages('warn')).toContain(
      "MCP server 'notes' is unavailable: degraded mode, the app continues without its tools (0 tools available)",
    );
    expect(registry.size).toBe(0);
  });
});
