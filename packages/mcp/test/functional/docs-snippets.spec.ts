import 'reflect-metadata';
import {
  Command,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type CommandHandler,
  type ExecutionContext,
  type Logger,
} from '@toolwright/core';
import {
  connectMcpServers,
  currentMcpRequest,
  McpContent,
  MemoryTokenStore,
  serveMcp,
  type McpServerConfig,
} from '@toolwright/mcp';
import { startOAuthTestServers } from '../support/oauth-servers';
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

// --- docs/mcp.md: "OAuth" ------------------------------------------------------------------------------------
/** The app's side of the redirect step, in the test: the user (the context's session) approves in the "browser". */
async function sendToUserAndWaitForCallback(authorizationUrl: URL, context: ExecutionContext): Promise<string> {
  const response = await fetch(authorizationUrl, {
    redirect: 'manual',
    headers: { 'x-test-user': context.sessionId ?? 'app' },
  });
  return response.headers.get('location')!;
}

export function connectWithOAuth(registry: ToolRegistry, logger: Logger, url = 'https://notes.example.com/mcp') {
  const tokenStore = new MemoryTokenStore(); // or FileTokenStore (a CLI), or your own TokenStore (a database)
  const connections = connectMcpServers(registry, [{ name: 'notes', url }], {
    logger,
    auth: {
      clientMetadata: { client_name: 'My app', redirect_uris: ['https://app.example.com/oauth/callback'] },
      tokenStore,
      // Whose token a call uses: from the call's trusted context, never from the model.
      // Disjoint key spaces: a session named "app" never gets the application's token.
      tokenKey: (context) => (context.sessionId !== undefined ? `session:${context.sessionId}` : 'app'),
      // The redirect step: send the user to the URL, resolve with the URL they came back to.
      authorize: ({ authorizationUrl, context }) => sendToUserAndWaitForCallback(authorizationUrl, context),
    },
  });
  return { connections, tokenStore };
}

// --- docs/mcp.md: "Elicitation" ------------------------------------------------------------------------------
const shownLinks: string[] = [];
async function showLink(context: ExecutionContext, url: string, message: string): Promise<boolean> {
  shownLinks.push(`${String(context.sessionId)}: ${message} ${url}`);
  return true;
}
async function askUser(
  _context: ExecutionContext,
  _message: string,
  _schema: unknown,
): Promise<Record<string, string> | undefined> {
  return { color: 'red' };
}

export function connectWithElicitation(registry: ToolRegistry, servers: McpServerConfig[], logger: Logger) {
  const connections = connectMcpServers(registry, servers, {
    logger,
    onElicitation: async (request, context, { server, tool }) => {
      logger.info(`${server} asks during ${tool}`);
      if (request.mode === 'url') {
        const opened = await showLink(context, request.url, request.message);
        return opened ? { action: 'accept' } : { action: 'decline' };
      }
      const answer = await askUser(context, request.message, request.requestedSchema);
      return answer === undefined ? { action: 'cancel' } : { action: 'accept', content: answer };
    },
  });
  return connections;
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

  it('OAuth: the connection and each user authorize through the redirect step; tokens per user', async () => {
    const oauthServers = await startOAuthTestServers();
    const registry = new ToolRegistry({ logger: silentLogger });
    const { connections, tokenStore } = connectWithOAuth(registry, silentLogger, oauthServers.mcpUrl);
    try {
      expect((await connections.ready).connected).toEqual(['notes']);
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
      const result = await executor.execute({ id: '1', name: 'notes.whoami', arguments: {} }, { sessionId: 'u-1' });
      expect(result.ok && result.value).toBe('u-1');
      expect(oauthServers.ownerOf(tokenStore.getTokens('notes', 'session:u-1')!.access_token)).toBe('u-1');
      // A session named "app" is a session like any other: it never gets the connection's (the application's) token.
      const named = await executor.execute({ id: '2', name: 'notes.whoami', arguments: {} }, { sessionId: 'app' });
      expect(named.ok && named.value).toBe('app');
      expect(tokenStore.getTokens('notes', 'session:app')!.access_token).not.toBe(
        tokenStore.getTokens('notes', 'app')!.access_token,
      );
    } finally {
      await connections.close();
      await oauthServers.close();
    }
  }, 60_000);

  it('elicitation: form and URL questions reach the handler with the call context', async () => {
    const asking = await startOAuthTestServers({ protect: false });
    const registry = new ToolRegistry({ logger: silentLogger });
    const connections = connectWithElicitation(registry, [{ name: 'shop', url: asking.mcpUrl }], silentLogger);
    try {
      await connections.ready;
      const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
      const form = await executor.execute({ id: '1', name: 'shop.pick_color', arguments: {} }, { sessionId: 's' });
      expect(form.ok && form.value).toBe(JSON.stringify({ action: 'accept', content: { color: 'red' } }));
      const url = await executor.execute({ id: '2', name: 'shop.open_consent', arguments: {} }, { sessionId: 's' });
      expect(url.ok && url.value).toBe(JSON.stringify({ action: 'accept' }));
      expect(shownLinks).toEqual(['s: Please approve the payment https://payments.example/approve/42']);
    } finally {
      await connections.close();
      await asking.close();
    }
  }, 60_000);
});
