import 'reflect-metadata';
import { PersonaToolExecutor, ToolRegistry } from '@toolwright/core';
import {
  connectMcpServers,
  serveMcp,
  type McpConnections,
  type McpServerConfig,
  type McpServerHandle,
} from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';

/**
 * A remote schema that declares a trusted context name (issue 11): the model's session_id would be forwarded to
 * the server, and the session's own must never be. Decided: withheld by default (lint warning; the model's value is
 * dropped as a security event; a tool requiring one is refused), forwarded only when the server entry says
 * `contextParameters: 'forward'` (lint warning, a security event per call). Never filled from the context.
 */
describe('remote tools that declare a context name, with the official SDK over HTTP', () => {
  let server: McpServerHandle;
  const received: Array<Record<string, unknown>> = [];
  let connections: McpConnections | undefined;

  beforeAll(async () => {
    const remote = new ToolRegistry({ logger: new RecordingLogger() });
    const record = (params: Record<string, unknown>) => {
      received.push({ ...params });
      return 'ok';
    };
    remote.registerJsonSchemaTool(
      {
        name: 'track',
        inputSchema: {
          type: 'object',
          properties: { event: { type: 'string' }, session_id: { type: 'string' } },
          required: ['event'],
        },
      },
      record,
    );
    remote.registerJsonSchemaTool(
      {
        name: 'resume',
        inputSchema: { type: 'object', properties: { sessionId: { type: 'string' } }, required: ['sessionId'] },
      },
      record,
    );
    server = await serveMcp(remote, { transport: 'http', logger: new RecordingLogger() });
  });

  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    received.length = 0;
  });

  afterAll(async () => {
    await server.close();
  });

  async function connect(extra: Partial<McpServerConfig> = {}) {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    const executor = new PersonaToolExecutor(registry, { logger });
    connections = connectMcpServers(registry, [{ name: 'analytics', url: server.url!, ...extra } as McpServerConfig], {
      logger,
      retry: { attempts: 1 },
    });
    expect((await connections.ready).connected).toEqual(['analytics']);
    return { logger, registry, executor };
  }

  it('default: withheld from the model, its value dropped as a security event, the session id not sent; a tool requiring one is refused', async () => {
    const { logger, registry, executor } = await connect();
    expect(registry.list().map((tool) => tool.name)).toEqual(['analytics.track']);
    expect(Object.keys(registry.toJsonSchema('analytics.track').properties ?? {})).toEqual(['event']);
    expect(logger.messages('warn')).toEqual(
      expect.arrayContaining([
        `MCP server 'analytics': tool "track" declares "session_id", named like trusted context; withheld: the model does not see it, a value it sends is dropped (a security event), and nothing is filled from the context. Set contextParameters: 'forward' for this server if it needs a value the model chooses.`,
        expect.stringMatching(
          /^MCP server 'analytics': tool "resume" was not registered: .*requires "sessionId", named like trusted context/,
        ),
      ]),
    );
    const result = await executor.execute(
      { id: 'c1', name: 'analytics.track', arguments: { event: 'login', session_id: 'victim-session' } },
      { sessionId: 'our-session' },
    );
    expect(result.ok).toBe(true);
    expect(received).toEqual([{ event: 'login' }]);
    expect(logger.messages('warn')).toContain(
      'security: the model tried to set trusted context field "session_id" of analytics.track; the value was dropped',
    );
  });

  it("'forward': the model's value reaches the server with a security event; the session's own id never does", async () => {
    const { logger, registry, executor } = await connect({ contextParameters: 'forward' });
    expect(registry.list().map((tool) => tool.name)).toEqual(['analytics.track', 'analytics.resume']);
    expect(logger.messages('warn')).toEqual(
      expect.arrayContaining([
        `MCP server 'analytics': tool "track" declares "session_id", named like trusted context; forwarded as the model's own value (contextParameters: 'forward'), never filled from the context; each call that sends one is logged as a security event.`,
      ]),
    );
    const withValue = await executor.execute(
      { id: 'c2', name: 'analytics.track', arguments: { event: 'view', session_id: 'model-chosen' } },
      { sessionId: 'our-session' },
    );
    const withoutValue = await executor.execute(
      { id: 'c3', name: 'analytics.track', arguments: { event: 'view' } },
      { sessionId: 'our-session' },
    );
    expect(withValue.ok && withoutValue.ok).toBe(true);
    expect(received).toEqual([{ event: 'view', session_id: 'model-chosen' }, { event: 'view' }]);
    const events = logger.entries.filter((entry) => entry.message.startsWith("security: the model's value"));
    expect(events.map((entry) => entry.message)).toEqual([
      `security: the model's value of "session_id" (named like trusted context) was forwarded to MCP server 'analytics' in a call of analytics.track; it is the model's, not the session's`,
    ]);
    expect(events[0]?.details).toMatchObject({ callId: 'c2', sessionId: 'our-session', parameters: ['session_id'] });
  });
});
