import 'reflect-metadata';
import { connect as tcpConnect, type Socket } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DefinitionError } from '@toolwright/core';
import { MCP_HTTP_DEFAULTS, serveMcp, type McpServerHandle, type ServeMcpHttpOptions } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { createTestRegistry } from '../support/test-commands';
import { waitUntil } from '../support/processes';

/** A raw TCP connection to the server, recording what it receives and when it is closed. */
class RawConnection {
  readonly socket: Socket;
  received = '';
  closed = false;
  constructor(port: number) {
    this.socket = tcpConnect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.received += chunk;
    });
    this.socket.on('close', () => {
      this.closed = true;
    });
    this.socket.on('error', () => undefined);
  }
  async opened(): Promise<void> {
    if (this.socket.readyState === 'open') return;
    await new Promise((resolve) => this.socket.once('connect', resolve));
  }
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('serveMcp over HTTP bounds sockets and sessions (issue 11)', () => {
  const handles: McpServerHandle[] = [];
  const sockets: Socket[] = [];
  const clients: Client[] = [];

  async function serve(options: Partial<ServeMcpHttpOptions> = {}): Promise<McpServerHandle> {
    const handle = await serveMcp(createTestRegistry(), {
      transport: 'http',
      logger: new RecordingLogger(),
      ...options,
    });
    handles.push(handle);
    return handle;
  }

  function raw(port: number): RawConnection {
    const connection = new RawConnection(port);
    sockets.push(connection.socket);
    return connection;
  }

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });

  it('documents its defaults', () => {
    expect(MCP_HTTP_DEFAULTS).toEqual({
      maxSessions: 1_000,
      maxSessionsPerClient: 100,
      maxConnections: 2_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it('closes a connection that sends nothing, and one that trickles its headers, after headersTimeoutMs (408)', async () => {
    const handle = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const idle = raw(handle.port!);
    const trickle = raw(handle.port!);
    await Promise.all([idle.opened(), trickle.opened()]);
    trickle.socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => trickle.socket.write('X-Slow: 1\r\n'), 50);
    try {
      await waitUntil(() => idle.closed && trickle.closed, 5_000, 'both connections to be closed');
    } finally {
      clearInterval(timer);
    }
    expect(idle.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(trickle.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a slow-body request after requestTimeoutMs (408), and never reaches the handler', async () => {
    const handle = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const slow = raw(handle.port!);
    await slow.opened();
    slow.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${INITIALIZE.length}\r\n\r\n`,
    );
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < INITIALIZE.length - 1) slow.socket.write(INITIALIZE[sent++]!);
    }, 20);
    try {
      await waitUntil(() => slow.closed, 5_000, 'the slow-body connection to be closed');
    } finally {
      clearInterval(timer);
    }
    expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(handle.sessionCount()).toBe(0);
  });

  it('a tool call that runs longer than requestTimeoutMs is not cut: only receiving the request is timed', async () => {
    const handle = await serve({ headersTimeoutMs: 100, requestTimeoutMs: 150 });
    const client = new Client({ name: 'slow-call', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url!)));
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'wait_for_cancel', arguments: {} },
      {
        signal: controller.signal,
        timeout: 5_000,
      },
    );
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    // Three request timeouts' worth: the stream is still open and the session alive.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(handle.sessionCount()).toBe(1);
    const list = await client.callTool({ name: 'list_notes', arguments: { limit: 1 } });
    expect(list.isError).toBeFalsy();
    controller.abort();
    expect(await settled).toBe('rejected');
  });

  it('refuses connections beyond maxConnections', async () => {
    const handle = await serve({ maxConnections: 2 });
    const first = raw(handle.port!);
    const second = raw(handle.port!);
    await Promise.all([first.opened(), second.opened()]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = raw(handle.port!);
    await waitUntil(() => third.closed, 5_000, 'the third connection to be closed');
    expect(third.received).toBe('');
    expect(first.closed || second.closed).toBe(false);
  });

  it('a client holds at most maxSessionsPerClient sessions (429 past it); closing one frees a place; other clients are not affected', async () => {
    const handle = await serve({
      maxSessionsPerClient: 2,
      clientKey: (request) => String(request.headers['x-client'] ?? 'anonymous'),
    });
    const open = async (who: string) => {
      const client = new Client({ name: who, version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(handle.url!), { requestInit: { headers: { 'x-client': who } } }),
      );
      clients.push(client);
      return client;
    };
    const first = await open('alice');
    await open('alice');
    await expect(open('alice')).rejects.toThrow(/429|Too many MCP sessions from this client \(limit 2\)/);
    expect(handle.sessionCount()).toBe(2);
    // Someone else still gets in.
    await open('bob');
    expect(handle.sessionCount()).toBe(3);
    // The quota is given back when a session ends (DELETE by the SDK client on terminateSession).
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    await waitUntil(() => handle.sessionCount() === 2, 5_000, 'the session to close');
    await open('alice');
    expect(handle.sessionCount()).toBe(3);
  });

  it('refuses limits that are not positive whole numbers, and headers given more time than the request', async () => {
    await expect(serveMcp(createTestRegistry(), { transport: 'http', maxSessionsPerClient: 0 })).rejects.toThrow(
      DefinitionError,
    );
    await expect(serveMcp(createTestRegistry(), { transport: 'http', requestTimeoutMs: Number.NaN })).rejects.toThrow(
      /requestTimeoutMs is NaN/,
    );
    await expect(
      serveMcp(createTestRegistry(), { transport: 'http', headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 }),
    ).rejects.toThrow(/headersTimeoutMs \(2000\) is longer than requestTimeoutMs \(1000\)/);
  });
});
