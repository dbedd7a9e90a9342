import 'reflect-metadata';
import {
  PersonaToolExecutor,
  ToolRegistry,
  type ExecutionContext,
  type Logger,
  type ToolResult,
} from '@toolwright/core';
import {
  connectMcpServers,
  type McpConnections,
  type McpElicitationAnswer,
  type McpElicitationDetails,
  type McpElicitationHandler,
} from '@toolwright/mcp';
import type { ElicitRequestParams } from '@modelcontextprotocol/server';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-servers';

const warnings: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => warnings.push(message),
  error: (message) => warnings.push(message),
};

describe('client elicitation: a server question during a tool call goes to the app', () => {
  let servers: OAuthTestServers;
  let registry: ToolRegistry;
  let executor: PersonaToolExecutor;
  let connections: McpConnections | undefined;
  let asked: Array<{ request: ElicitRequestParams; context: ExecutionContext; details: McpElicitationDetails }>;

  async function connect(onElicitation?: McpElicitationHandler): Promise<void> {
    connections = connectMcpServers(registry, [{ name: 'asking', url: servers.mcpUrl }], {
      logger,
      retry: { attempts: 1 },
      connectTimeoutMs: 30_000,
      ...(onElicitation ? { onElicitation } : {}),
    });
    const report = await connections.ready;
    expect(report.connected).toEqual(['asking']);
  }

  /** The app's handler: records what it was asked, answers with `answer`. */
  function answering(answer: (request: ElicitRequestParams) => McpElicitationAnswer): McpElicitationHandler {
    return (request, context, details) => {
      asked.push({ request, context, details });
      return answer(request);
    };
  }

  function call(name: string, sessionId: string): Promise<ToolResult> {
    return executor.execute({ id: `${name}-1`, name: `asking.${name}`, arguments: {} }, { sessionId });
  }

  beforeEach(async () => {
    servers = await startOAuthTestServers({ protect: false });
    registry = new ToolRegistry({ logger });
    executor = new PersonaToolExecutor(registry, { logger, timeoutMs: 60_000 });
    asked = [];
    warnings.length = 0;
  });

  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    await servers.close();
  });

  it("form mode: the app answers with content for the call's own trusted context", async () => {
    await connect(answering(() => ({ action: 'accept', content: { color: 'blue' } })));
    const result = await call('pick_color', 's-1');
    expect(result.ok && result.value).toBe(JSON.stringify({ action: 'accept', content: { color: 'blue' } }));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ mode: 'form', message: 'Which color?' });
    expect(asked[0]!.context.sessionId).toBe('s-1');
    expect(asked[0]!.details).toMatchObject({ server: 'asking', tool: 'asking.pick_color', callId: 'pick_color-1' });
    expect(servers.log.declaredElicitation).toEqual([{ form: { applyDefaults: true }, url: {} }]);
  }, 60_000);

  it('URL mode reaches the app, which may decline', async () => {
    await connect(answering(() => ({ action: 'decline' })));
    const result = await call('open_consent', 's-2');
    expect(result.ok && result.value).toBe(JSON.stringify({ action: 'decline' }));
    expect(asked.map(({ request }) => request)).toEqual([
      {
        mode: 'url',
        message: 'Please approve the payment',
        url: 'https://payments.example/approve/42',
        elicitationId: 'approve-42',
      },
    ]);
    expect(asked[0]!.context.sessionId).toBe('s-2');
  }, 60_000);

  it('an answer that does not match the schema is refused here: nothing is sent, the call fails saying why', async () => {
    await connect(answering(() => ({ action: 'accept', content: { color: 'green' } })));
    const result = await call('pick_color', 's-3');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('HANDLER_ERROR');
    expect(result.error.message).toContain("The answer to MCP server 'asking''s question was not sent");
    expect(result.error.message).toContain('allowed values');
    // The server never saw the answer's content.
    expect(JSON.stringify(servers.log.elicitations)).not.toContain('green');
  }, 60_000);

  it('a malformed answer (content on a decline) is refused the same way', async () => {
    await connect(
      answering(() => ({ action: 'decline', content: { color: 'red' } }) as unknown as McpElicitationAnswer),
    );
    const result = await call('pick_color', 's-4');
    expect(!result.ok && result.error.message).toContain('a "decline" carries no content');
    expect(JSON.stringify(servers.log.elicitations)).not.toContain('"red"');
  }, 60_000);

  it('without a handler the client does not declare elicitation, and the server cannot ask', async () => {
    await connect();
    const result = await call('pick_color', 's-5');
    expect(result.ok).toBe(false);
    expect(servers.log.declaredElicitation).toEqual([undefined]);
    expect(servers.log.elicitations).toEqual([
      { tool: 'pick_color', result: { error: expect.stringMatching(/Method not found/) } },
    ]);
  }, 60_000);
});
