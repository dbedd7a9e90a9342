import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PersonaToolExecutor,
  ToolRegistry,
  type ExecutionContext,
  type Logger,
  type ToolResult,
} from '@toolwright/core';
import {
  connectMcpServers,
  McpAuthorizationError,
  MemoryTokenStore,
  type McpAuthorizationRequest,
  type McpConnections,
} from '@toolwright/mcp';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-servers';

const warnings: string[] = [];
const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => warnings.push(message),
  error: (message) => warnings.push(message),
};
const REDIRECT_URL = 'http://127.0.0.1:1/callback';

/** Polls `condition` every 10 ms, at most 10 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1_000 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error('condition not met within 10 s');
}

describe('connectMcpServers with OAuth against a real local authorization server and MCP server', () => {
  let servers: OAuthTestServers;
  let registry: ToolRegistry;
  let executor: PersonaToolExecutor;
  let connections: McpConnections | undefined;
  let store: MemoryTokenStore;
  let authorizations: McpAuthorizationRequest[];

  /** The app's redirect step: the "browser" of the user the token key names follows the authorization URL. */
  async function authorize(request: McpAuthorizationRequest): Promise<string> {
    authorizations.push(request);
    const response = await fetch(request.authorizationUrl, {
      redirect: 'manual',
      headers: { 'x-test-user': request.key },
    });
    const location = response.headers.get('location');
    if (location === null) throw new Error(`no redirect (${response.status})`);
    return location;
  }

  function connect(maxSessions?: number): McpConnections {
    connections = connectMcpServers(registry, [{ name: 'secure', url: servers.mcpUrl }], {
      logger: silent,
      retry: { attempts: 1 },
      connectTimeoutMs: 30_000,
      auth: {
        clientMetadata: { client_name: 'toolwright test', redirect_uris: [REDIRECT_URL] },
        tokenStore: store,
        tokenKey: (context) => context.sessionId ?? 'app',
        authorize,
        ...(maxSessions !== undefined ? { maxSessions } : {}),
      },
    });
    return connections;
  }

  function call(name: string, context: ExecutionContext): Promise<ToolResult> {
    return executor.execute(
      { id: `${name}-${String(context.sessionId)}`, name: `secure.${name}`, arguments: {} },
      context,
    );
  }

  beforeEach(async () => {
    servers = await startOAuthTestServers();
    registry = new ToolRegistry({ logger: silent });
    executor = new PersonaToolExecutor(registry, { logger: silent, timeoutMs: 60_000 });
    store = new MemoryTokenStore();
    authorizations = [];
  });

  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    await servers.close();
  });

  it("discovers, registers, authorizes with PKCE, and keeps two users' tokens apart", async () => {
    const report = await connect().ready;
    expect(report.servers[0]!.error?.message).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(report.connected).toEqual(['secure']);
    expect(registry.has('secure.whoami')).toBe(true);
    // Discovery: the resource's metadata (RFC 9728), then the authorization server's (RFC 8414); one registration.
    expect(servers.log.requests).toEqual(
      expect.arrayContaining([
        'rs GET /.well-known/oauth-protected-resource/mcp',
        'as GET /.well-known/oauth-authorization-server',
        'as POST /register',
      ]),
    );
    expect(servers.log.registrations).toEqual(['client-1']);
    // The connection's own requests authorized as the connection context's key, with PKCE S256 and a state.
    expect(authorizations.map((request) => request.key)).toEqual(['app']);
    const first = authorizations[0]!.authorizationUrl.searchParams;
    expect(first.get('code_challenge_method')).toBe('S256');
    expect(first.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(first.get('state')).toMatch(/^[\w-]{32}$/);
    expect(servers.log.grants).toEqual(['authorization_code app']);

    const [alice, bob, aliceAgain] = await Promise.all([
      call('whoami', { sessionId: 'alice' }),
      call('whoami', { sessionId: 'bob' }),
      call('whoami', { sessionId: 'alice' }),
    ]);
    expect([alice, bob, aliceAgain].map((result) => (result.ok ? result.value : result.error))).toEqual([
      'alice',
      'bob',
      'alice',
    ]);
    // Each user authorized once (concurrent calls of one key share its connection), with their own context.
    expect(authorizations.map((request) => request.key).sort()).toEqual(['alice', 'app', 'bob']);
    expect(authorizations.find((request) => request.key === 'bob')!.context.sessionId).toBe('bob');
    expect(servers.log.registrations).toHaveLength(1);
    // Every request carried a token of the user it was made for; each user's token is the one in their store slot.
    for (const request of servers.log.mcp) expect(servers.ownerOf(request.token)).toBe(request.user);
    const calls = servers.log.mcp.filter((request) => request.method === 'tools/call');
    expect(calls.map((request) => request.user).sort()).toEqual(['alice', 'alice', 'bob']);
    for (const request of calls) expect(request.token).toBe(store.getTokens('secure', request.user)!.access_token);
    expect(new Set(calls.map((request) => request.token)).size).toBe(2);
  }, 120_000);

  it("closes an evicted user's connection only after that user's call in flight has ended", async () => {
    await connect(1).ready;
    const release = servers.hold();
    // Alice's call waits on the server; Bob's first call opens a second per-key connection, past maxSessions: 1.
    const alice = call('held_whoami', { sessionId: 'alice' });
    await waitFor(() => servers.log.mcp.some((request) => request.user === 'alice' && request.method === 'tools/call'));
    const bob = await call('whoami', { sessionId: 'bob' });
    expect(bob.ok ? bob.value : bob.error).toBe('bob');
    release();
    const aliceResult = await alice;
    expect(aliceResult.ok ? aliceResult.value : aliceResult.error).toBe('alice');
    // Once her call ended, the evicted connection was closed: her next call opens (initializes) a new one.
    const initializes = () =>
      servers.log.mcp.filter((request) => request.user === 'alice' && request.method === 'initialize').length;
    expect(initializes()).toBe(1);
    const again = await call('whoami', { sessionId: 'alice' });
    expect(again.ok ? again.value : again.error).toBe('alice');
    expect(initializes()).toBe(2);
    expect(warnings).toEqual([]);
  }, 120_000);

  it('refreshes an expired token without asking the user, and steps up to a wider scope through the user', async () => {
    await connect().ready;
    expect((await call('whoami', { sessionId: 'alice' })).ok).toBe(true);
    const before = store.getTokens('secure', 'alice')!;
    servers.expire('alice');
    const asked = authorizations.length;

    const refreshed = await call('whoami', { sessionId: 'alice' });
    expect(refreshed.ok && refreshed.value).toBe('alice');
    expect(servers.log.grants).toContain('refresh_token alice');
    expect(authorizations).toHaveLength(asked);
    const after = store.getTokens('secure', 'alice')!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(servers.log.mcp.at(-1)).toMatchObject({ method: 'tools/call', token: after.access_token, user: 'alice' });

    // 403 insufficient_scope: a refresh cannot widen the grant, so the user authorizes the wider scope.
    const stepped = await call('admin_action', { sessionId: 'alice' });
    expect(stepped.ok && stepped.value).toBe('done for alice');
    const stepUp = authorizations.at(-1)!;
    expect(stepUp.key).toBe('alice');
    expect(stepUp.authorizationUrl.searchParams.get('scope')).toBe('mcp admin');
    expect(store.getTokens('secure', 'alice')!.scope).toBe('mcp admin');
    // Bob's token was never used for it, nor widened.
    expect(store.getTokens('secure', 'bob')).toBeUndefined();
  }, 120_000);

  it('names the failed step: a user who declines fails that call only, at "authorization"', async () => {
    await connect().ready;
    const declined = await call('whoami', { sessionId: 'denied' });
    expect(declined.ok).toBe(false);
    if (declined.ok) return;
    expect(declined.error.code).toBe('HANDLER_ERROR');
    expect(declined.error.message).toContain('authorization failed at authorization');
    expect(declined.error.message).toContain('access_denied');
    expect(store.getTokens('secure', 'denied')).toBeUndefined();
    const other = await call('whoami', { sessionId: 'bob' });
    expect(other.ok && other.value).toBe('bob');
  }, 120_000);

  it('names the failed step at connection: a server whose authorization server cannot be found or used', async () => {
    // 401 with a bare challenge on the MCP endpoint, 404 everywhere else: no metadata, no registration endpoint.
    const bare = createServer((request, response) => {
      if (request.url === '/mcp') response.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`;
      connections = connectMcpServers(registry, [{ name: 'bare', url }], {
        logger: silent,
        retry: { attempts: 1 },
        connectTimeoutMs: 30_000,
        auth: { clientMetadata: { client_name: 't', redirect_uris: [REDIRECT_URL] }, authorize },
      });
      const report = await connections.ready;
      expect(report.degraded).toEqual(['bare']);
      const cause = report.servers[0]!.error!.cause;
      expect(cause).toBeInstanceOf(McpAuthorizationError);
      // With no metadata the SDK falls back to the server's default endpoints (2025-03-26); /register is not there.
      expect((cause as McpAuthorizationError).step).toBe('registration');
      expect((cause as McpAuthorizationError).message).toContain(
        "MCP server 'bare': authorization failed at registration",
      );
      expect(authorizations).toHaveLength(0);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  }, 120_000);
});
