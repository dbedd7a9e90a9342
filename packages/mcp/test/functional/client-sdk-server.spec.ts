import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry, type ToolResult } from '@toolwright/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectMcpServers, McpContent, serveMcp, type McpConnections } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { alive, logFile, SDK_SERVER, waitForEvent, waitUntil } from '../support/processes';

/** Our client against a real MCP server process written with the official SDK (test/fixtures/sdk-stdio-server.js). */
describe('connectMcpServers against an SDK server (stdio child process)', () => {
  let registry: ToolRegistry;
  let logger: RecordingLogger;
  let executor: PersonaToolExecutor;
  let connections: McpConnections;
  let serverLog: string;

  beforeAll(async () => {
    process.env['TOOLWRIGHT_CANARY'] = 'secret-canary-value';
    serverLog = logFile('sdk-server');
    logger = new RecordingLogger();
    registry = new ToolRegistry({ logger });
    // A local tool with the same parameter names: the MCP mapping table must not touch it.
    registry.registerJsonSchemaTool(
      {
        name: 'local_device',
        description: 'A local command.',
        parameters: { type: 'object', properties: { deviceName: { type: 'string' }, action: { type: 'string' } } },
      },
      (params) => params,
    );
    executor = new PersonaToolExecutor(registry, { logger });
    connections = connectMcpServers(
      registry,
      [
        {
          name: 'zwave',
          command: process.execPath,
          args: [SDK_SERVER],
          env: { VISIBLE: 'yes', SDK_SERVER_LOG: serverLog },
          parameterAliases: { control_zwave_device: { device_name: 'deviceName', command: 'action' } },
          timeoutMs: 500,
        },
      ],
      { logger },
    );
    const report = await connections.ready;
    expect(report.connected).toEqual(['zwave']);
  });

  afterAll(async () => {
    delete process.env['TOOLWRIGHT_CANARY'];
    await connections.close();
  });

  const call = (name: string, args: unknown, id = 'call-1'): Promise<ToolResult> =>
    executor.execute({ id, name, arguments: args as Record<string, unknown> }, { sessionId: 'session-a' });

  it('registers every remote tool under the server namespace, with its schema, title and description', () => {
    expect(connections.get('zwave')!.status().tools).toEqual([
      'zwave.control_zwave_device',
      'zwave.echo',
      'zwave.fail',
      'zwave.snapshot',
      'zwave.environment',
      'zwave.add_tool',
      'zwave.slow',
      'zwave.notes/export',
    ]);
    // A ReDoS-prone pattern and a name with white space are refused, with the reason; a name outside SEP-986 that is a
    // fine registry name is registered with a warning; the other tools are unaffected.
    expect(logger.messages('warn')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^MCP server 'zwave': tool "match" was not registered: .*nests a quantifier inside a quantified group/,
        ),
        'MCP server \'zwave\': tool "bad name!" was not registered: its name is empty, longer than 128 characters, or contains white space or control characters',
        'MCP server \'zwave\': tool "notes/export" has a name outside ^[A-Za-z0-9._-]{1,128}$ (SEP-986); it is registered, but some clients would refuse it.',
      ]),
    );
    const definition = registry.get('zwave.control_zwave_device')!;
    expect(definition.description).toBe('Switch or dim a Z-Wave device.');
    expect(definition.options.title).toBe('Control a Z-Wave device');
    expect(definition.options.timeoutMs).toBe(500);
    // Hints from a server are untrusted unless the config says otherwise.
    expect(definition.options.annotations).toBeUndefined();
    expect(registry.toJsonSchema('zwave.control_zwave_device')).toMatchObject({
      type: 'object',
      properties: {
        deviceName: { type: 'string' },
        action: { enum: ['on', 'off', 'dim'] },
        brightnessLevel: { type: 'integer', minimum: 0, maximum: 100 },
      },
      required: ['deviceName', 'action'],
    });
  });

  it('applies the static mapping table as transformations, in the result and in the log', async () => {
    const result = await call(
      'zwave.control_zwave_device',
      JSON.stringify({ device_name: 'lamp', command: 'dim', brightness_level: '40' }),
      'map-1',
    );
    expect(result.ok).toBe(true);
    // The server received its own parameter names, and the integer the schema asks for.
    expect(result.ok && result.value).toEqual({ received: { deviceName: 'lamp', action: 'dim', brightnessLevel: 40 } });
    expect(result.transformations).toEqual([
      { path: 'deviceName', rule: 'alias-key', from: 'device_name', to: 'deviceName' },
      { path: 'action', rule: 'alias-key', from: 'command', to: 'action' },
      // Not in the table: the snake_case -> camelCase heuristic.
      { path: 'brightnessLevel', rule: 'key-case', from: 'brightness_level', to: 'brightnessLevel' },
      { path: 'brightnessLevel', rule: 'string-to-integer', from: '40', to: 40 },
    ]);
    const logged = logger.entries.find(
      (entry) => entry.message === 'tool call zwave.control_zwave_device ok' && entry.details?.['callId'] === 'map-1',
    );
    expect(logged?.details?.['transformations']).toEqual(result.transformations);
  });

  it('passes names without underscores unchanged', async () => {
    const result = await call('zwave.control_zwave_device', { deviceName: 'lamp', action: 'on' });
    expect(result.ok && result.value).toEqual({ received: { deviceName: 'lamp', action: 'on' } });
    expect(result.transformations).toEqual([]);
  });

  it('leaves local tools alone: the mapping table is not theirs', async () => {
    const result = await call('local_device', { device_name: 'lamp', command: 'on' });
    expect(result.ok && result.value).toEqual({ deviceName: 'lamp' });
    expect(result.transformations).toEqual([
      { path: 'deviceName', rule: 'key-case', from: 'device_name', to: 'deviceName' },
      { path: 'command', rule: 'dropped-unknown-key', from: 'on', to: undefined },
    ]);
  });

  it('validates against the remote schema before anything is sent', async () => {
    const result = await call('zwave.control_zwave_device', { deviceName: 'lamp', action: 'blink' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENTS');
    expect(!result.ok && result.error.message).toContain('"action"');
  });

  it('turns an isError result into HANDLER_ERROR with the server message for the model', async () => {
    const result = await call('zwave.fail', {});
    expect(!result.ok && result.error).toMatchObject({
      code: 'HANDLER_ERROR',
      message: 'The tool "zwave.fail" reported an error: Device "lamp" is offline.',
    });
  });

  it('returns plain text as a string and mixed content as McpContent', async () => {
    const echo = await call('zwave.echo', { text: 'hello' });
    expect(echo.ok && echo.value).toBe('hello');
    const snapshot = await call('zwave.snapshot', {});
    expect(snapshot.ok).toBe(true);
    const value = snapshot.ok ? snapshot.value : undefined;
    expect(McpContent.isInstance(value)).toBe(true);
    expect((value as McpContent).content.map((block) => block.type)).toEqual(['text', 'image']);
  });

  it('passes only the safe default environment and the configured variables to the server', async () => {
    const result = await call('zwave.environment', {});
    expect(result.ok && result.value).toEqual({ canary: null, visible: 'yes' });
  });

  it('times a hung call out through the executor and sends a cancellation to the server', async () => {
    const started = Date.now();
    const result = await executor.execute({ id: 'slow-1', name: 'zwave.slow', arguments: { ms: 10_000 } }, {});
    expect(!result.ok && result.error.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1_500);
    const cancelled = await waitForEvent(serverLog, (event) => event['event'] === 'cancelled');
    expect(cancelled['reason']).toContain('did not finish within 500 ms');
  });

  it('follows notifications/tools/list_changed: new tools registered, removed ones unregistered', async () => {
    const result = await call('zwave.add_tool', {});
    expect(result.ok).toBe(true);
    await waitUntil(
      () => registry.has('zwave.late_tool') && !registry.has('zwave.echo'),
      5_000,
      'the registry to follow the list change',
    );
    const late = await call('zwave.late_tool', { n: '7' });
    expect(late.ok && late.value).toBe('late 7');
    expect(logger.messages('info')).toContain("MCP server 'zwave' changed its tools: 1 added, 0 changed, 1 removed");
  });

  it('re-serves the remote tools with serveMcp: an MCP client reaches them through our pipeline', async () => {
    const handle = await serveMcp(registry, { transport: 'http', logger });
    const client = new Client({ name: 'downstream', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url!)));
      const listed = (await client.listTools()).tools.find((tool) => tool.name === 'zwave.control_zwave_device')!;
      expect(listed.title).toBe('Control a Z-Wave device');
      expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(['deviceName', 'action', 'brightnessLevel']);
      const result = await client.callTool({
        name: 'zwave.control_zwave_device',
        arguments: { device_name: 'hall', command: 'off' },
      });
      expect(result.structuredContent).toEqual({ received: { deviceName: 'hall', action: 'off' } });
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it('close() unregisters the tools and ends the server process', async () => {
    const extra = connectMcpServers(registry, [{ name: 'second', command: process.execPath, args: [SDK_SERVER] }], {
      logger: new RecordingLogger(),
    });
    await extra.ready;
    expect(registry.has('second.echo')).toBe(true);
    const pid = extra.get('second')!.status().pid!;
    expect(pid).toBeGreaterThan(0);
    expect(alive([pid])).toEqual([pid]);
    await extra.close();
    expect(registry.has('second.echo')).toBe(false);
    expect(extra.get('second')!.status().state).toBe('closed');
    expect(alive([pid])).toEqual([]);
  });
});
