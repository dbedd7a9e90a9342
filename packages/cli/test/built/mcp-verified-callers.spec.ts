import 'reflect-metadata';
import { join } from 'node:path';
import type { JwtAuthorizationServer } from '../../../mcp/test/support/jwt-authorization-server';
import {
  ALICE_TOOLS,
  BOB_TOOLS,
  connectAs,
  eventually,
  rawInitialize,
  SCOPES,
  searchedNames,
  startAuthorizationServer,
  toolNames,
} from '../../../mcp/test/support/verified-callers';
import { FIXTURES, requireBuilt, runCli, startCli, stop } from '../support/run-cli';

/**
 * `toolwright mcp --http --auth-issuer`: the built CLI as an OAuth 2.1 resource server, its JWKS found through the
 * local authorization server's metadata; two users with different scopes against the one process.
 */
jest.setTimeout(60_000);

describe('toolwright mcp --http --auth-issuer', () => {
  let authorizationServer: JwtAuthorizationServer;
  let server: Awaited<ReturnType<typeof startCli>>;
  let url: string;
  const clients: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    requireBuilt();
    authorizationServer = await startAuthorizationServer();
    server = await startCli([
      'mcp',
      '--app',
      join(FIXTURES, 'scoped-app.mjs'),
      '--http',
      '--port',
      '0',
      '--auth-issuer',
      authorizationServer.issuer,
      '--auth-scope',
      'mcp',
    ]);
    url = server.url;
  });

  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    expect(await stop(server.child)).toBe(0);
    await authorizationServer.close();
  });

  const connect = async (token: () => string) => {
    const connection = await connectAs(url, token);
    clients.push(connection.client);
    return connection;
  };

  it('lets each user list, call and search only its own tools, with the caller in trusted context', async () => {
    const alice = await authorizationServer.token('alice', SCOPES.alice, url);
    const bob = await authorizationServer.token('bob', SCOPES.bob, url);
    const a = await connect(() => alice);
    const b = await connect(() => bob);
    expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
    expect(await toolNames(b.client)).toEqual(BOB_TOOLS);
    expect((await b.client.callTool({ name: 'refund_order', arguments: { order: 'o-3' } })).isError).toBeFalsy();
    await expect(a.client.callTool({ name: 'refund_order', arguments: { order: 'o-3' } })).rejects.toThrow(
      'There is no tool named "refund_order"',
    );
    expect(await searchedNames(a.client, 'refund an order')).not.toContain('refund_order');
    expect(await searchedNames(b.client, 'refund an order')).toContain('refund_order');
    const who = await b.client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((who.content as { text: string }[])[0]!.text)).toMatchObject({
      persona: { name: 'bob', permissions: ['mcp', 'orders:read', 'orders:write'] },
      caller: { subject: 'bob', tenant: 'globex' },
    });
  });

  it("sends list_changed when a caller's own scopes change, to that caller", async () => {
    let alice = await authorizationServer.token('alice', SCOPES.alice, url);
    const bob = await authorizationServer.token('bob', SCOPES.bob, url);
    const a = await connect(() => alice);
    const b = await connect(() => bob);
    const notified = { alice: 0, bob: 0 };
    a.client.setNotificationHandler('notifications/tools/list_changed', () => void notified.alice++);
    b.client.setNotificationHandler('notifications/tools/list_changed', () => void notified.bob++);
    expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
    expect(await toolNames(b.client)).toEqual(BOB_TOOLS);
    alice = await authorizationServer.token('alice', 'mcp orders:read orders:write', url);
    expect((await a.client.callTool({ name: 'refund_order', arguments: { order: 'o-4' } })).isError).toBeFalsy();
    expect(await eventually(() => notified.alice > 0)).toBe(true);
    expect(await toolNames(a.client)).toEqual(BOB_TOOLS);
    await b.client.callTool({ name: 'list_notes', arguments: {} });
    expect(notified.bob).toBe(0);
  });

  it.each([
    ['forged', { forged: true }],
    ['expired', { expiresIn: -120 }],
    ['for another audience', { audience: 'http://127.0.0.1:1/mcp' }],
    ['from another issuer', { issuer: 'http://127.0.0.1:2' }],
  ] as const)('answers 401 to a %s token', async (_case, override) => {
    const token = await authorizationServer.sign({ subject: 'alice', scope: SCOPES.alice, audience: url, ...override });
    const answer = await rawInitialize(url, `Bearer ${token}`);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('Bearer error="invalid_token"');
  });

  it('answers 403 to a valid token without the required scope', async () => {
    const token = await authorizationServer.token('alice', 'orders:read', url);
    const answer = await rawInitialize(url, `Bearer ${token}`);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", error_description="Insufficient scope", scope="mcp"',
    );
  });

  it("refuses a session opened by one user to the other's token", async () => {
    const alice = await authorizationServer.token('alice', SCOPES.alice, url);
    const bob = await authorizationServer.token('bob', SCOPES.bob, url);
    const a = await connect(() => alice);
    expect((await rawInitialize(url, `Bearer ${bob}`, a.transport.sessionId)).status).toBe(404);
    // The warning reaches stderr through a pipe, possibly after the answer.
    expect(await eventually(() => server.stderr().includes("carried another caller's token"))).toBe(true);
  });

  it('refuses --auth-issuer without --http, and with a persona in --context', async () => {
    const stdio = await runCli([
      'mcp',
      '--app',
      join(FIXTURES, 'scoped-app.mjs'),
      '--auth-issuer',
      authorizationServer.issuer,
    ]);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('--auth-issuer verifies HTTP bearer tokens. Fix: add --http.');
    const persona = await runCli([
      'mcp',
      '--app',
      join(FIXTURES, 'scoped-app.mjs'),
      '--http',
      '--port',
      '0',
      '--auth-issuer',
      authorizationServer.issuer,
      '--context',
      '{"persona":{"name":"admin"}}',
    ]);
    expect(persona.code).toBe(2);
    expect(persona.stderr).toContain('Fix: drop "persona" from --context.');
  });
});
