import 'reflect-metadata';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ToolRegistry } from '@toolwright/core';
import { connectMcpServers, introspectionVerifier, jwtVerifier, serveMcp, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import type { JwtAuthorizationServer } from '../support/jwt-authorization-server';
import {
  ALICE_TOOLS,
  BOB_TOOLS,
  connectAs,
  createScopedRegistry,
  eventually,
  rawInitialize,
  SCOPES,
  searchedNames,
  startAuthorizationServer,
  toolNames,
} from '../support/verified-callers';

/**
 * serveMcp as an OAuth 2.1 resource server: tokens from a local authorization server (JWT, JWKS) verified on every
 * request with the SDK's bearer helpers; two users with different scopes see and call only their own tools.
 */
describe('serveMcp over HTTP with verified callers', () => {
  let authorizationServer: JwtAuthorizationServer;
  let registry: ToolRegistry;
  let handle: McpServerHandle;
  let url: string;
  const logger = new RecordingLogger();
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer();
    registry = createScopedRegistry();
    handle = await serveMcp(registry, {
      transport: 'http',
      logger,
      auth: {
        verifier: jwtVerifier({
          jwksUrl: authorizationServer.jwksUrl,
          issuer: authorizationServer.issuer,
          jwksCooldownMs: 0,
        }),
        authorizationServer: authorizationServer.issuer,
        requiredScopes: ['mcp'],
        scopesSupported: ['mcp', 'orders:read', 'orders:write'],
      },
    });
    url = handle.url!;
  });

  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  afterAll(async () => {
    await handle.close();
    await authorizationServer.close();
  });

  const tokenFor = (user: 'alice' | 'bob', scope: string = SCOPES[user]) => authorizationServer.token(user, scope, url);

  const connect = async (token: () => string, revision?: '2025-11-25' | '2026-07-28') => {
    const connection = await connectAs(url, token, revision);
    closers.push(() => connection.client.close());
    return connection;
  };

  it('publishes its protected resource metadata and answers 401 with a challenge naming it', async () => {
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', url).href;
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: url,
      authorization_servers: [authorizationServer.issuer],
      scopes_supported: ['mcp', 'orders:read', 'orders:write'],
    });
    const answer = await rawInitialize(url, undefined);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="Missing Authorization header", scope="mcp", resource_metadata="${metadataUrl}"`,
    );
  });

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'each user lists and calls only its own tools (%s)',
    async (revision) => {
      const alice = await tokenFor('alice');
      const bob = await tokenFor('bob');
      const a = await connect(() => alice, revision);
      const b = await connect(() => bob, revision);
      expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
      expect(await toolNames(b.client)).toEqual(BOB_TOOLS);
      const refunded = await b.client.callTool({ name: 'refund_order', arguments: { order: 'o-7' } });
      expect(refunded.isError).toBeFalsy();
      expect(JSON.parse((refunded.content as { text: string }[])[0]!.text)).toEqual({ refunded: 'o-7' });
      // For alice the tool does not exist: a protocol error that names none of the tools she may not use.
      const refused = await a.client.callTool({ name: 'refund_order', arguments: { order: 'o-7' } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code).toBe(-32602);
      expect((refused as ProtocolError).message).toContain('There is no tool named "refund_order"');
      // A near miss is suggested only from her own set.
      const nearMiss = await a.client.callTool({ name: 'refund_ordr', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error as ProtocolError,
      );
      expect(nearMiss?.message).not.toContain('refund_order');
      // The verified identity is trusted context: the persona holds the token's scopes, the caller is the subject.
      const who = await a.client.callTool({
        name: 'whoami',
        arguments: { persona: { permissions: ['orders:write'] } },
      });
      expect(JSON.parse((who.content as { text: string }[])[0]!.text)).toMatchObject({
        persona: { name: 'alice', permissions: ['mcp', 'orders:read'] },
        caller: { subject: 'alice', tenant: 'acme', clientId: 'alice', scopes: ['mcp', 'orders:read'] },
      });
      expect(JSON.stringify(who)).not.toContain(alice);
    },
  );

  it('search_tools finds only the tools of the caller', async () => {
    const alice = await tokenFor('alice');
    const bob = await tokenFor('bob');
    const a = await connect(() => alice);
    const b = await connect(() => bob);
    expect(await searchedNames(a.client, 'refund an order')).not.toContain('refund_order');
    expect(await searchedNames(b.client, 'refund an order')).toContain('refund_order');
    expect(await searchedNames(a.client, 'read the orders')).toContain('read_orders');
  });

  it('sends list_changed to a caller only when its own set changes', async () => {
    const alice = await tokenFor('alice');
    const bob = await tokenFor('bob');
    const a = await connect(() => alice);
    const b = await connect(() => bob);
    const notified = { alice: 0, bob: 0 };
    a.client.setNotificationHandler('notifications/tools/list_changed', () => void notified.alice++);
    b.client.setNotificationHandler('notifications/tools/list_changed', () => void notified.bob++);
    await toolNames(a.client);
    await toolNames(b.client);
    // A tool for everyone: both are told (repeated until each GET stream, opened after initialization, is up).
    const addPublic = () => {
      registry.unregister('public_tool');
      registry.registerJsonSchemaTool({ name: 'public_tool', description: 'For everyone.' }, () => 'ok');
    };
    expect(await eventually(() => notified.alice > 0 && notified.bob > 0, addPublic)).toBe(true);
    await toolNames(a.client);
    await toolNames(b.client);
    const aliceBefore = notified.alice;
    const bobBefore = notified.bob;
    // A tool only bob may use: bob is told, alice is not (her set did not change).
    registry.registerJsonSchemaTool({ name: 'void_order', description: 'Void an order.' }, () => 'ok', {
      permissions: ['orders:write'],
    });
    expect(await eventually(() => notified.bob > bobBefore)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(notified.alice).toBe(aliceBefore);
    expect(await toolNames(b.client)).toContain('void_order');
    expect(await toolNames(a.client)).not.toContain('void_order');
    registry.unregister('void_order');
    registry.unregister('public_tool');
  });

  it("sends list_changed when the caller's own scopes change within its session", async () => {
    let token = await tokenFor('alice');
    const a = await connect(() => token);
    let notified = 0;
    a.client.setNotificationHandler('notifications/tools/list_changed', () => void notified++);
    expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
    // The same user with a token holding more scopes (a step-up): the next request sees and announces the new set.
    token = await authorizationServer.sign({
      subject: 'alice',
      tenant: 'acme',
      scope: 'mcp orders:read orders:write',
      audience: url,
    });
    const refunded = await a.client.callTool({ name: 'refund_order', arguments: { order: 'o-9' } });
    expect(refunded.isError).toBeFalsy();
    expect(await eventually(() => notified > 0)).toBe(true);
    expect(await toolNames(a.client)).toEqual(BOB_TOOLS);
  });

  it.each([
    ['forged', { forged: true }],
    ['expired', { expiresIn: -120 }],
    ['for another audience', { audience: 'http://127.0.0.1:1/mcp' }],
    ['from another issuer', { issuer: 'http://127.0.0.1:2' }],
  ] as const)('answers 401 to a %s token', async (_case, override) => {
    const token = await authorizationServer.sign({ subject: 'alice', scope: SCOPES.alice, audience: url, ...override });
    const sessions = handle.sessionCount();
    const answer = await rawInitialize(url, `Bearer ${token}`);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"/);
    expect(handle.sessionCount()).toBe(sessions);
  });

  it('answers 403 insufficient_scope to a valid token without the required scope', async () => {
    const token = await tokenFor('alice', 'orders:read');
    const answer = await rawInitialize(url, `Bearer ${token}`);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain('Bearer error="insufficient_scope"');
    expect(answer.headers.get('www-authenticate')).toContain('scope="mcp"');
  });

  it('follows a JWKS key rotation without a restart', async () => {
    const before = await tokenFor('alice');
    expect((await rawInitialize(url, `Bearer ${before}`)).status).toBe(200);
    const fetches = authorizationServer.jwksFetches;
    await authorizationServer.rotate();
    const after = await tokenFor('alice');
    expect((await rawInitialize(url, `Bearer ${after}`)).status).toBe(200);
    expect(authorizationServer.jwksFetches).toBeGreaterThan(fetches);
    // The retired key is gone from the set: its tokens are refused from now on.
    expect((await rawInitialize(url, `Bearer ${before}`)).status).toBe(401);
  });

  it("refuses a session opened by one user to the other's token", async () => {
    const alice = await tokenFor('alice');
    const bob = await tokenFor('bob');
    const a = await connect(() => alice);
    const sessionId = a.transport.sessionId!;
    const stolen = await rawInitialize(url, `Bearer ${bob}`, sessionId);
    expect(stolen.status).toBe(404);
    expect(logger.entries.some((entry) => entry.message.includes("carried another caller's token"))).toBe(true);
    // Alice's own token still works in her session.
    const own = await rawInitialize(url, `Bearer ${alice}`, sessionId);
    expect(own.status).toBe(200);
    expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
  });

  it("never passes a caller's token on to the upstream MCP servers whose tools it serves", async () => {
    const seenUpstream: (string | null)[] = [];
    const upstream = await serveMcp(createScopedRegistry(), {
      transport: 'http',
      logger: new RecordingLogger(),
      context: (session) => {
        seenUpstream.push(session.headers?.get('authorization') ?? null);
        return {};
      },
    });
    closers.push(() => upstream.close());
    const gatewayRegistry = new ToolRegistry();
    const connections = connectMcpServers(
      gatewayRegistry,
      [{ name: 'upstream', url: upstream.url!, headers: { Authorization: 'Bearer gateway-own-credential' } }],
      { logger: new RecordingLogger() },
    );
    closers.push(() => connections.close());
    expect((await connections.ready).connected).toEqual(['upstream']);
    const gateway = await serveMcp(gatewayRegistry, {
      transport: 'http',
      logger: new RecordingLogger(),
      auth: {
        verifier: jwtVerifier({ jwksUrl: authorizationServer.jwksUrl, issuer: authorizationServer.issuer }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    closers.push(() => gateway.close());
    const alice = await authorizationServer.token('alice', SCOPES.alice, gateway.url!);
    const a = await connectAs(gateway.url!, () => alice);
    closers.push(() => a.client.close());
    const listed = await a.client.callTool({ name: 'upstream.list_notes', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(seenUpstream.length).toBeGreaterThan(0);
    expect(seenUpstream.every((authorization) => authorization === 'Bearer gateway-own-credential')).toBe(true);
  });

  it('filters per caller in stateless mode too (every request verified on its own)', async () => {
    const stateless = await serveMcp(createScopedRegistry(), {
      transport: 'http',
      stateless: true,
      logger: new RecordingLogger(),
      auth: {
        verifier: jwtVerifier({ jwksUrl: authorizationServer.jwksUrl, issuer: authorizationServer.issuer }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    closers.push(() => stateless.close());
    const alice = await authorizationServer.token('alice', SCOPES.alice, stateless.url!);
    const bob = await authorizationServer.token('bob', SCOPES.bob, stateless.url!);
    const a = await connectAs(stateless.url!, () => alice);
    const b = await connectAs(stateless.url!, () => bob);
    closers.push(
      () => a.client.close(),
      () => b.client.close(),
    );
    expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
    expect(await toolNames(b.client)).toEqual(BOB_TOOLS);
    expect((await rawInitialize(stateless.url!, undefined)).status).toBe(401);
  });

  it('records the verified subject as the approver of a call approved through elicitation', async () => {
    const approvals = createScopedRegistry();
    approvals.registerJsonSchemaTool(
      { name: 'close_account', description: 'Close the account.', inputSchema: { type: 'object', properties: {} } },
      (_params, invocation) => ({ approvedBy: invocation.context.approval?.by ?? null }),
      { approval: true },
    );
    const server = await serveMcp(approvals, {
      transport: 'http',
      logger: new RecordingLogger(),
      auth: {
        verifier: jwtVerifier({ jwksUrl: authorizationServer.jwksUrl, issuer: authorizationServer.issuer }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    closers.push(() => server.close());
    const alice = await authorizationServer.token('alice', SCOPES.alice, server.url!);
    const client = new Client(
      { name: 'approving-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { approve: true } }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url!), { authProvider: { token: async () => alice } }),
    );
    closers.push(() => client.close());
    const result = await client.callTool({ name: 'close_account', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ approvedBy: 'alice' });
  });

  it('verifies opaque tokens through introspection too', async () => {
    const introspected = await serveMcp(createScopedRegistry(), {
      transport: 'http',
      logger: new RecordingLogger(),
      auth: {
        verifier: introspectionVerifier({
          endpoint: authorizationServer.introspectionEndpoint,
          clientId: authorizationServer.introspectionClient.id,
          clientSecret: authorizationServer.introspectionClient.secret,
          issuer: authorizationServer.issuer,
        }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    closers.push(() => introspected.close());
    const bob = await authorizationServer.token('bob', SCOPES.bob, introspected.url!);
    const b = await connectAs(introspected.url!, () => bob);
    closers.push(() => b.client.close());
    expect(await toolNames(b.client)).toEqual(BOB_TOOLS);
    const expired = await authorizationServer.sign({
      subject: 'bob',
      scope: SCOPES.bob,
      audience: introspected.url!,
      expiresIn: -60,
    });
    expect((await rawInitialize(introspected.url!, `Bearer ${expired}`)).status).toBe(401);
    const elsewhere = await authorizationServer.token('bob', SCOPES.bob, url);
    expect((await rawInitialize(introspected.url!, `Bearer ${elsewhere}`)).status).toBe(401);
  });
});
