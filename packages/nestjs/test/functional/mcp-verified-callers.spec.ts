import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { silentLogger, ToolRegistry } from '@toolwright/core';
import { jwtVerifier } from '@toolwright/mcp';
import { ToolwrightModule } from '@toolwright/nestjs';
import { ToolwrightMcpHttpModule } from '@toolwright/nestjs/mcp';
import type { JwtAuthorizationServer } from '../../../mcp/test/support/jwt-authorization-server';
import {
  ALICE_TOOLS,
  addScopedTools,
  BOB_TOOLS,
  connectAs,
  eventually,
  freePort,
  rawInitialize,
  SCOPES,
  searchedNames,
  startAuthorizationServer,
  toolNames,
} from '../../../mcp/test/support/verified-callers';

/**
 * `ToolwrightMcpHttpModule` with `auth`: the Nest app as an OAuth 2.1 resource server, tokens from a local
 * authorization server (JWT, JWKS); two users with different scopes against one app.
 */
describe('ToolwrightMcpHttpModule with verified callers', () => {
  let authorizationServer: JwtAuthorizationServer;
  let app: INestApplication;
  let registry: ToolRegistry;
  let url: string;
  const clients: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;

    @Module({
      imports: [
        ToolwrightModule.forRoot({ logger: silentLogger }),
        ToolwrightMcpHttpModule.forRoot({
          auth: {
            verifier: jwtVerifier({
              jwksUrl: authorizationServer.jwksUrl,
              issuer: authorizationServer.issuer,
              jwksCooldownMs: 0,
            }),
            resource: url,
            authorizationServer: authorizationServer.issuer,
            requiredScopes: ['mcp'],
          },
        }),
      ],
    })
    class AppModule {}
    app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
    registry = addScopedTools(app.get(ToolRegistry));
    await app.listen(port, '127.0.0.1');
  });

  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await app.close();
    await authorizationServer.close();
  });

  const connect = async (token: () => string) => {
    const connection = await connectAs(url, token);
    clients.push(connection.client);
    return connection;
  };

  it('serves the protected resource metadata on its own route', async () => {
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: url, authorization_servers: [authorizationServer.issuer] });
  });

  it('lets each user list, call and search only its own tools, and announces only its own changes', async () => {
    const alice = await authorizationServer.token('alice', SCOPES.alice, url);
    const bob = await authorizationServer.token('bob', SCOPES.bob, url);
    const a = await connect(() => alice);
    const b = await connect(() => bob);
    expect(await toolNames(a.client)).toEqual(ALICE_TOOLS);
    expect(await toolNames(b.client)).toEqual(BOB_TOOLS);
    expect((await b.client.callTool({ name: 'refund_order', arguments: { order: 'o-1' } })).isError).toBeFalsy();
    await expect(a.client.callTool({ name: 'refund_order', arguments: { order: 'o-1' } })).rejects.toThrow(
      'There is no tool named "refund_order"',
    );
    expect(await searchedNames(a.client, 'refund an order')).not.toContain('refund_order');
    expect(await searchedNames(b.client, 'refund an order')).toContain('refund_order');

    const notified = { alice: 0, bob: 0 };
    a.client.setNotificationHandler('notifications/tools/list_changed', () => void notified.alice++);
    b.client.setNotificationHandler('notifications/tools/list_changed', () => void notified.bob++);
    const addPublic = () => {
      registry.unregister('public_tool');
      registry.registerJsonSchemaTool({ name: 'public_tool', description: 'For everyone.' }, () => 'ok');
    };
    expect(await eventually(() => notified.alice > 0 && notified.bob > 0, addPublic)).toBe(true);
    await toolNames(a.client);
    await toolNames(b.client);
    const aliceBefore = notified.alice;
    const bobBefore = notified.bob;
    registry.registerJsonSchemaTool({ name: 'void_order', description: 'Void an order.' }, () => 'ok', {
      permissions: ['orders:write'],
    });
    expect(await eventually(() => notified.bob > bobBefore)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(notified.alice).toBe(aliceBefore);
    registry.unregister('void_order');
    registry.unregister('public_tool');
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
    expect(answer.headers.get('www-authenticate')).toContain(
      'resource_metadata="http://127.0.0.1:' + new URL(url).port + '/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('answers 403 to a valid token without the required scope, and follows a key rotation', async () => {
    const narrow = await authorizationServer.token('alice', 'orders:read', url);
    const refused = await rawInitialize(url, `Bearer ${narrow}`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    await authorizationServer.rotate();
    const rotated = await authorizationServer.token('alice', SCOPES.alice, url);
    expect((await rawInitialize(url, `Bearer ${rotated}`)).status).toBe(200);
  });

  it("refuses a session opened by one user to the other's token", async () => {
    const alice = await authorizationServer.token('alice', SCOPES.alice, url);
    const bob = await authorizationServer.token('bob', SCOPES.bob, url);
    const a = await connect(() => alice);
    expect((await rawInitialize(url, `Bearer ${bob}`, a.transport.sessionId)).status).toBe(404);
    expect((await rawInitialize(url, `Bearer ${alice}`, a.transport.sessionId)).status).toBe(200);
  });
});
