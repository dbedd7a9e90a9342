import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import { connectMcpServers, serveMcp, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';

const MIB = 1024 * 1024;

/** A registry whose one tool returns `size` characters (the remote side of these tests). */
function bigResultRegistry(size: number): ToolRegistry {
  const registry = new ToolRegistry({ logger: new RecordingLogger() });
  registry.registerJsonSchemaTool(
    { name: 'dump', description: 'Returns a lot.', inputSchema: { type: 'object' } },
    () => 'z'.repeat(size),
  );
  return registry;
}

function connect(url: string, options: { maxResultChars?: number; maxResponseBytes?: number }) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger });
  const executor = new PersonaToolExecutor(registry, { logger });
  const connections = connectMcpServers(registry, [{ name: 'remote', url }], {
    logger,
    retry: { attempts: 1 },
    ...options,
  });
  return { logger, registry, executor, connections };
}

describe('remote results are bounded, over Streamable HTTP with the official SDK (issue 11)', () => {
  const handles: McpServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
  });

  it.each([false, true])(
    'a 9 MiB result reaches the model cut to maxResultChars, with a notice (JSON responses: %s)',
    async (enableJsonResponse) => {
      const handle = await serveMcp(bigResultRegistry(9 * MIB), {
        transport: 'http',
        logger: new RecordingLogger(),
        enableJsonResponse,
        // A remote server with no result budget of its own: what the client's bounds are for.
        executorOptions: { resultBudgetChars: Number.POSITIVE_INFINITY },
      });
      handles.push(handle);
      const { executor, connections } = connect(handle.url!, { maxResultChars: 50_000 });
      try {
        expect((await connections.ready).connected).toEqual(['remote']);
        const result = await executor.execute({ id: 'r1', name: 'remote.dump', arguments: {} });
        expect(result.ok).toBe(true);
        const value = result.ok ? (result.value as string) : '';
        expect(
          value.startsWith(
            'z'.repeat(50_000) +
              '\n[toolwright: the result was truncated: 9437184 characters long, the first 50000 are shown.',
          ),
        ).toBe(true);
        expect(value.length).toBeLessThan(50_200);
      } finally {
        await connections.close();
      }
      // 9 MiB built, encoded, sent and decoded: seconds on a loaded shared machine.
    },
    30_000,
  );

  it.each([false, true])(
    'a response above maxResponseBytes is not read; the call fails at once saying why (JSON responses: %s)',
    async (enableJsonResponse) => {
      const handle = await serveMcp(bigResultRegistry(2 * MIB), {
        transport: 'http',
        logger: new RecordingLogger(),
        enableJsonResponse,
        // A remote server with no result budget of its own: what the client's bounds are for.
        executorOptions: { resultBudgetChars: Number.POSITIVE_INFINITY },
      });
      handles.push(handle);
      const { executor, connections } = connect(handle.url!, { maxResponseBytes: 256 * 1024 });
      try {
        expect((await connections.ready).connected).toEqual(['remote']);
        const result = await executor.execute({ id: 'r2', name: 'remote.dump', arguments: {} });
        expect(!result.ok && result.error.code).toBe('HANDLER_ERROR');
        expect(!result.ok && result.error.message).toBe(
          'The tool "remote.dump" returned more than 262144 bytes, more than this client reads; nothing of it was kept. Ask for less (a narrower query, a page, a summary).',
        );
        // The connection is still good: the next call works.
        expect(connections.status()[0]?.state).toBe('connected');
      } finally {
        await connections.close();
      }
    },
  );
});

/**
 * A minimal Streamable HTTP MCP endpoint (JSON responses) whose tools/call answer streams `totalBytes` and records
 * how much it could write before the client hung up: the proof that the client stops reading, not just fails late.
 */
class FloodingServer {
  written = 0;
  finished = false;
  private readonly server: Server;
  constructor(private readonly totalBytes: number) {
    this.server = createServer((request, response) => void this.handle(request, response));
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const message = JSON.parse(body) as { id?: number; method: string };
    const json = (result: unknown) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'flood' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    if (message.id === undefined) return void response.writeHead(202).end();
    if (message.method === 'initialize')
      return json({
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'flood', version: '1' },
      });
    if (message.method === 'tools/list') return json({ tools: [{ name: 'flood', inputSchema: { type: 'object' } }] });
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
    const chunk = Buffer.alloc(64 * 1024, 'f');
    let open = true;
    response.once('close', () => {
      open = false;
    });
    while (open && this.written < this.totalBytes) {
      this.written += chunk.length;
      if (!response.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            response.off('drain', done);
            response.off('close', done);
            resolve();
          };
          response.on('drain', done);
          response.on('close', done);
        });
      }
    }
    if (open) {
      this.finished = true;
      response.end('"}]}}');
    }
  }
}

describe('the HTTP client transport buffers at most maxResponseBytes of one message (issue 11)', () => {
  it('a 300 MiB answer is cut off after about maxResponseBytes: the server could not write it all', async () => {
    const flood = new FloodingServer(300 * MIB);
    const url = await flood.listen();
    const { executor, connections } = connect(url, { maxResponseBytes: 1 * MIB });
    try {
      expect((await connections.ready).connected).toEqual(['remote']);
      const result = await executor.execute({ id: 'f1', name: 'remote.flood', arguments: {} });
      expect(!result.ok && result.error.message).toMatch(/^The tool "remote.flood" returned more than 1048576 bytes/);
      expect(flood.finished).toBe(false);
      // What socket buffers hold besides the 1 MiB read: far below the 300 MiB sent on main.
      expect(flood.written).toBeLessThan(16 * MIB);
    } finally {
      await connections.close();
      await flood.close();
    }
  }, 15_000);
});
