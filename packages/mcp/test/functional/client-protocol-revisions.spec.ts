import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import {
  connectMcpServers,
  serveMcp,
  type McpClientProtocol,
  type McpConnections,
  type McpServerHandle,
} from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { createTestRegistry } from '../support/test-commands';
import { startChangingSdkServer, type ChangingSdkServer } from '../support/changing-sdk-server';

/**
 * Our client's `protocol` option against serveMcp over HTTP (which answers both generations) and against an SDK
 * `McpServer` on the 2025 session transport only: the era the SDK client negotiated, and a tool called through it.
 */
describe('connectMcpServers speaks the protocol generation it is told to', () => {
  let served: McpServerHandle;
  let legacyOnly: ChangingSdkServer;
  const open: McpConnections[] = [];
  const versions = new Map<string, string>();

  beforeAll(async () => {
    served = await serveMcp(createTestRegistry(), {
      transport: 'http',
      logger: new RecordingLogger(),
      // The revision each client's calls came with, by the client's own label.
      context: (session) => {
        const label = session.headers?.get('x-client') ?? '';
        versions.set(label, session.headers?.get('mcp-protocol-version') ?? 'none');
        return {};
      },
    });
    legacyOnly = await startChangingSdkServer();
  });

  afterAll(async () => {
    await Promise.all(open.map((connections) => connections.close()));
    await served.close();
    await legacyOnly.close();
  });

  async function connect(url: string, protocol: McpClientProtocol | undefined) {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    const connections = connectMcpServers(
      registry,
      [
        {
          name: 'remote',
          url,
          headers: { 'x-client': String(protocol) },
          ...(protocol !== undefined ? { protocol } : {}),
        },
      ],
      { logger, retry: { attempts: 1 } },
    );
    open.push(connections);
    const report = await connections.ready;
    return { registry, report, logger, executor: new PersonaToolExecutor(registry, { logger }) };
  }

  it.each<[McpClientProtocol | undefined, string]>([
    [undefined, '2025-11-25'],
    ['legacy', '2025-11-25'],
    ['auto', '2026-07-28'],
    ['2026-07-28', '2026-07-28'],
  ])('protocol %s against serveMcp: negotiates %s, lists and calls', async (protocol, version) => {
    const { registry, report, executor } = await connect(served.url!, protocol);
    expect(report.connected).toEqual(['remote']);
    const result = await executor.execute(
      { id: 'c1', name: 'remote.list_notes', arguments: { limit: 2 } },
      { sessionId: 's1' },
    );
    expect(result.ok).toBe(true);
    expect(registry.has('remote.save_note')).toBe(true);
    expect(versions.get(String(protocol))).toBe(version);
  });

  it("protocol 'auto' falls back to the 2025 handshake with a server that only speaks it; a pinned 2026-07-28 fails", async () => {
    const auto = await connect(legacyOnly.url, 'auto');
    expect(auto.report.connected).toEqual(['remote']);
    expect((await auto.executor.execute({ id: 'c1', name: 'remote.lookup', arguments: { word: 'fig' } }, {})).ok).toBe(
      true,
    );
    const pinned = await connect(legacyOnly.url, '2026-07-28');
    expect(pinned.report.degraded).toEqual(['remote']);
  });
});
