import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolRegistry } from '@toolwright/core';
import { serveMcp, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { createTestRegistry, WaitForCancelCommand } from '../support/test-commands';
import { waitUntil } from '../support/processes';

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw HTTP request (headers exactly as given, Host included), for the transport-level checks. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers, setHost: headers['Host'] === undefined }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        // An SSE answer stays open; the first event is all these checks need.
        if (text.includes('\n\n') && response.headers['content-type']?.includes('text/event-stream'))
          response.destroy();
      });
      const done = () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text });
      response.on('end', done);
      response.on('close', done);
    });
    request.on('error', reject);
    request.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

async function connectClient(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('serveMcp over Streamable HTTP, with the official SDK client', () => {
  let registry: ToolRegistry;
  let handle: McpServerHandle;
  let logger: RecordingLogger;
  const clients: Client[] = [];

  beforeAll(async () => {
    registry = createTestRegistry();
    logger = new RecordingLogger();
    handle = await serveMcp(registry, {
      transport: 'http',
      logger,
      maxBodyBytes: 64 * 1024,
      context: (session) => ({ persona: { name: session.headers?.get('x-persona') ?? 'anonymous' } }),
    });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await handle.close();
  });

  const open = async (headers: Record<string, string> = {}) => {
    const connection = await connectClient(handle.url!, headers);
    clients.push(connection.client);
    return connection;
  };

  it('listens on 127.0.0.1 at /mcp', () => {
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/mcp`);
  });

  it('lists every tool (decorated, JSON Schema, compact) with schema, title, description and annotations; context fields absent', async () => {
    const { client } = await open();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'save_note',
      'list_notes',
      'explode',
      'report_progress',
      'wait_for_cancel',
      'set_address',
      'schedule',
    ]);
    const saveNote = tools[0]!;
    expect(saveNote).toEqual({
      name: 'save_note',
      title: 'Save a note',
      description: 'Save a note for this session.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          text: { type: 'string', description: 'The note text', minLength: 1 },
          priority: { type: 'string', description: 'How important the note is', enum: ['low', 'high'] },
        },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { title: 'Save a note', readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    });
    // The @FromContext('session_id') property is absent from every schema.
    expect(tools.map((tool) => Object.keys(tool.inputSchema.properties ?? {})).flat()).not.toContain('sessionId');
    expect(JSON.stringify(tools.map((tool) => tool.inputSchema))).not.toMatch(/session/i);
    expect(tools[1]!.annotations).toEqual({ readOnlyHint: true });
    // The JSON Schema tool keeps its schema as declared ($schema, $defs, $ref).
    expect(tools[5]!.inputSchema).toMatchObject({
      $defs: { address: { type: 'object' } },
      properties: { address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    });
    expect(tools[6]!.inputSchema).toMatchObject({
      properties: { times: { type: 'array', items: { type: 'string', format: 'date-time' } } },
      required: ['times'],
    });
  });

  it('runs calls through the executor with the session as trusted context: structuredContent plus the same JSON as text', async () => {
    const { client, transport } = await open({ 'x-persona': 'writer' });
    const result = await client.callTool({
      name: 'save_note',
      arguments: { text: 'buy milk', priority: 'HIGH', session_id: 'forged' },
    });
    const expected = { saved: 'buy milk', priority: 'high', sessionId: transport.sessionId, persona: 'writer' };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse(text(result))).toEqual(expected);
    expect(logger.messages('warn')).toContain(
      'security: the model tried to set trusted context field "session_id" of save_note; the value was dropped',
    );
  });

  it('sends an array result as JSON text', async () => {
    const { client } = await open();
    const result = await client.callTool({ name: 'list_notes', arguments: { limit: '2' } });
    expect(text(result)).toBe('["first","second"]');
    expect(result.structuredContent).toBeUndefined();
  });

  it('returns invalid arguments and handler failures as isError results with the model-facing message', async () => {
    const { client } = await open();
    const invalid = await client.callTool({
      name: 'save_note',
      arguments: { text: '', priority: 'urgent' },
    });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('The arguments for "save_note" are invalid');
    expect(text(invalid)).toContain('"priority"');
    const failed = await client.callTool({ name: 'explode', arguments: {} });
    expect(failed).toEqual({
      content: [
        {
          type: 'text',
          text: 'The tool "explode" failed while running. The arguments were valid; try again later or use another approach.',
        },
      ],
      isError: true,
    });
    expect(JSON.stringify(failed)).not.toContain('hunter2');
  });

  it('answers an unknown tool with a JSON-RPC error (-32602) naming the closest tools', async () => {
    const { client } = await open();
    await expect(client.callTool({ name: 'save_notes', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('save_note'),
    });
  });

  it('keeps sessions apart: each sees only its own session id, and the ids are secure random UUIDs', async () => {
    const first = await open({ 'x-persona': 'alice' });
    const second = await open({ 'x-persona': 'bob' });
    const calls = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second));
    const results = await Promise.all(
      calls.map(({ client }, index) => client.callTool({ name: 'save_note', arguments: { text: `note ${index}` } })),
    );
    results.forEach((result, index) => {
      const owner = calls[index]!;
      expect(result.structuredContent).toMatchObject({
        sessionId: owner.transport.sessionId,
        persona: owner === first ? 'alice' : 'bob',
      });
    });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(first.transport.sessionId).toMatch(uuid);
    expect(second.transport.sessionId).toMatch(uuid);
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
  });

  it('answers an unknown session with 404 and a session-less non-initialize request with 400', async () => {
    const unknown = await raw(
      handle.url!,
      'POST',
      { ...JSON_HEADERS, 'Mcp-Session-Id': 'not-a-session' },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(unknown.status).toBe(404);
    const noSession = await raw(
      handle.url!,
      'POST',
      JSON_HEADERS,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(noSession.status).toBe(400);
    const get = await raw(handle.url!, 'GET', { Accept: 'text/event-stream' });
    expect(get.status).toBe(400);
    const elsewhere = await raw(handle.url!.replace('/mcp', '/other'), 'POST', JSON_HEADERS, INITIALIZE);
    expect(elsewhere.status).toBe(404);
  });

  it('DNS-rebinding protection: a foreign Host or Origin gets 403; loopback ones are served', async () => {
    const port = handle.port!;
    const cases: Array<[Record<string, string>, number]> = [
      [{ Host: 'evil.example.com' }, 403],
      [{ Host: `evil.example.com:${port}` }, 403],
      [{ Host: `localhost.evil.com:${port}` }, 403],
      [{ Host: `127.0.0.1:${port}`, Origin: 'http://evil.example.com' }, 403],
      [{ Host: `127.0.0.1:${port}`, Origin: 'null' }, 403],
      [{ Host: `127.0.0.1:${port}`, Origin: `http://localhost.evil.com:${port}` }, 403],
      [{ Host: `127.0.0.1:${port}` }, 200],
      [{ Host: `localhost:${port}`, Origin: `http://localhost:${port}` }, 200],
      [{ Host: `[::1]:${port}`, Origin: `http://127.0.0.1:${port}` }, 200],
    ];
    for (const [headers, status] of cases) {
      const response = await raw(handle.url!, 'POST', { ...JSON_HEADERS, ...headers }, INITIALIZE);
      expect({ headers, status: response.status }).toEqual({ headers, status });
      if (status === 200) {
        const sessionId = response.headers['mcp-session-id'] as string;
        await raw(handle.url!, 'DELETE', { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
      }
    }
  });

  it('caps the body size: 413 before anything is parsed', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { padding: 'x'.repeat(70 * 1024) },
    });
    const response = await raw(handle.url!, 'POST', JSON_HEADERS, body);
    expect(response.status).toBe(413);
  });

  it('closes a session on DELETE', async () => {
    const { client, transport } = await open();
    const before = handle.sessionCount();
    await transport.terminateSession();
    expect(handle.sessionCount()).toBe(before - 1);
    await expect(client.listTools()).rejects.toThrow();
  });

  it('announces registry changes with notifications/tools/list_changed', async () => {
    const { client } = await open();
    let notified = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      notified++;
    });
    // Notifications outside a request travel on the client's GET stream, which the SDK client opens after
    // initialization; until it is open they are dropped (the transport's rule), so the change repeats until seen.
    for (let round = 0; notified === 0 && round < 60; round++) {
      registry.registerJsonSchemaTool(
        { name: 'added_later', description: 'Added while serving.', inputSchema: { type: 'object' } },
        () => 'ok',
      );
      registry.registerJsonSchemaTool(
        { name: 'added_later_too', description: 'Added while serving.', inputSchema: { type: 'object' } },
        () => 'ok',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (notified === 0) {
        registry.unregister('added_later');
        registry.unregister('added_later_too');
      }
    }
    expect(notified).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['added_later', 'added_later_too']),
    );
    registry.unregister('added_later');
    registry.unregister('added_later_too');
  });

  it('lets a handler report progress and send log messages to its session (logging/setLevel respected)', async () => {
    const { client } = await open();
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params);
    });
    await client.setLoggingLevel('info');
    const progress: number[] = [];
    const result = await client.request(
      { method: 'tools/call', params: { name: 'report_progress', arguments: {} } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.structuredContent).toEqual({ progressSent: [true, true, true] });
    expect(progress).toEqual([0, 50, 100]);
    expect(logs).toEqual([
      { level: 'info', data: 'working: 0%', logger: 'report_progress' },
      { level: 'info', data: 'working: 50%', logger: 'report_progress' },
      { level: 'info', data: 'working: 100%', logger: 'report_progress' },
    ]);
  });

  it('aborts the handler when the client cancels the request', async () => {
    const { client } = await open();
    WaitForCancelCommand.cancelled = [];
    const controller = new AbortController();
    const pending = client.callTool(
      { name: 'wait_for_cancel', arguments: {} },
      {
        signal: controller.signal,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    await waitUntil(() => WaitForCancelCommand.cancelled.length === 1, 3_000, 'the handler to see the cancellation');
    expect(WaitForCancelCommand.cancelled[0]!.reason).toBe('The call to "wait_for_cancel" was cancelled.');
  });
});

describe('serveMcp over Streamable HTTP, stateless', () => {
  let handle: McpServerHandle;

  beforeAll(async () => {
    handle = await serveMcp(createTestRegistry(), {
      transport: 'http',
      stateless: true,
      logger: new RecordingLogger(),
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  it('serves each request with a fresh server: no session id, calls work from any client', async () => {
    const { client, transport } = await connectClient(handle.url!);
    try {
      expect(transport.sessionId).toBeUndefined();
      const listed = await client.listTools();
      expect(listed.tools).toHaveLength(7);
      const result = await client.callTool({ name: 'list_notes', arguments: { limit: 1 } });
      expect(text(result)).toBe('["first"]');
      // A command that needs a session id cannot run without one: a clear, model-facing error.
      const needsSession = await client.callTool({ name: 'save_note', arguments: { text: 'x' } });
      expect(needsSession.isError).toBe(true);
      expect(text(needsSession)).toContain('cannot run in this session');
    } finally {
      await client.close();
    }
    expect(handle.sessionCount()).toBe(0);
  });

  it('refuses GET and DELETE (there is no session stream): 405', async () => {
    expect((await raw(handle.url!, 'GET', { Accept: 'text/event-stream' })).status).toBe(405);
    expect((await raw(handle.url!, 'DELETE', {})).status).toBe(405);
  });

  it('keeps DNS-rebinding protection on', async () => {
    expect((await raw(handle.url!, 'POST', { ...JSON_HEADERS, Host: 'evil.example.com' }, INITIALIZE)).status).toBe(
      403,
    );
  });
});

describe('serveMcp over Streamable HTTP, session limits', () => {
  let handle: McpServerHandle;

  beforeAll(async () => {
    handle = await serveMcp(createTestRegistry(), {
      transport: 'http',
      logger: new RecordingLogger(),
      maxSessions: 1,
      sessionIdleTimeoutMs: 200,
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  it('refuses a session over maxSessions with 503, and closes idle sessions', async () => {
    const { client } = await connectClient(handle.url!);
    try {
      expect(handle.sessionCount()).toBe(1);
      const refused = await raw(handle.url!, 'POST', JSON_HEADERS, INITIALIZE);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Too many MCP sessions (limit 1); close one and retry.' },
        id: null,
      });
      // The sweep runs every second at most; a session idle for more than 200 ms is then closed.
      await waitUntil(() => handle.sessionCount() === 0, 3_000, 'the idle session to be closed');
      await expect(client.listTools()).rejects.toThrow();
    } finally {
      await client.close();
    }
  });
});
