import 'reflect-metadata';
import { DefinitionError } from '@toolwright/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import {
  createMcpHttpEndpoint,
  introspectionVerifier,
  jwtVerifier,
  serveMcp,
  type McpServerHandle,
} from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import type { JwtAuthorizationServer } from '../support/jwt-authorization-server';
import {
  createScopedRegistry,
  freePort,
  rawInitialize,
  SCOPES,
  startAuthorizationServer,
} from '../support/verified-callers';

/** The bearer gate's faults: bad configuration at startup, and verifiers or key sets that fail while serving. */
describe('serveMcp auth faults', () => {
  let authorizationServer: JwtAuthorizationServer;
  const handles: McpServerHandle[] = [];

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer();
  });

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });

  afterAll(async () => {
    await authorizationServer.close();
  });

  const serve = async (auth: Parameters<typeof serveMcp>[1] & { transport: 'http' }) => {
    const handle = await serveMcp(createScopedRegistry(), auth);
    handles.push(handle);
    return handle;
  };

  it.each([['HS256'], ['none']])('jwtVerifier refuses the %s algorithm at startup', (algorithm) => {
    expect(() =>
      jwtVerifier({
        jwksUrl: authorizationServer.jwksUrl,
        issuer: authorizationServer.issuer,
        algorithms: [algorithm],
      }),
    ).toThrow(DefinitionError);
  });

  it('refuses an authorization server without HTTPS outside localhost, and frees the port', async () => {
    const port = await freePort();
    await expect(
      serveMcp(createScopedRegistry(), {
        transport: 'http',
        port,
        logger: new RecordingLogger(),
        auth: {
          verifier: jwtVerifier({ jwksUrl: authorizationServer.jwksUrl, issuer: 'http://auth.example.com' }),
          authorizationServer: 'http://auth.example.com',
        },
      }),
    ).rejects.toThrow('auth.authorizationServer is "http://auth.example.com"');
    // The port is free again: a server can listen on it.
    const again = await serve({ transport: 'http', port, logger: new RecordingLogger() });
    expect(again.port).toBe(port);
  });

  it('refuses a mounted endpoint with auth but no resource, and a verifier without verifyAccessToken', () => {
    const verifier = jwtVerifier({ jwksUrl: authorizationServer.jwksUrl, issuer: authorizationServer.issuer });
    expect(() =>
      createMcpHttpEndpoint(createScopedRegistry(), {
        auth: { verifier, authorizationServer: authorizationServer.issuer },
      }),
    ).toThrow('auth.resource is null');
    expect(() =>
      createMcpHttpEndpoint(createScopedRegistry(), {
        auth: {
          verifier: {} as typeof verifier,
          resource: 'https://tools.example.com/mcp',
          authorizationServer: authorizationServer.issuer,
        },
      }),
    ).toThrow('auth.verifier has no verifyAccessToken(token) method.');
  });

  it('answers 500, never 401, when the key set cannot be fetched; the failure is logged', async () => {
    const logger = new RecordingLogger();
    const closedPort = await freePort();
    const handle = await serve({
      transport: 'http',
      logger,
      auth: {
        verifier: jwtVerifier({ jwksUrl: `http://127.0.0.1:${closedPort}/jwks`, issuer: authorizationServer.issuer }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    const token = await authorizationServer.sign({ subject: 'alice', scope: SCOPES.alice, audience: handle.url! });
    const answer = await rawInitialize(handle.url!, `Bearer ${token}`);
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({
      error: 'server_error',
      error_description: 'The signing keys are unavailable',
    });
    expect(
      logger.entries.some((entry) => entry.level === 'error' && entry.message.includes('could not be verified')),
    ).toBe(true);
  });

  it('answers 500 when introspection is unavailable', async () => {
    const closedPort = await freePort();
    const handle = await serve({
      transport: 'http',
      logger: new RecordingLogger(),
      auth: {
        verifier: introspectionVerifier({
          endpoint: `http://127.0.0.1:${closedPort}/introspect`,
          clientId: 'rs',
          clientSecret: 'secret',
          issuer: authorizationServer.issuer,
        }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    expect((await rawInitialize(handle.url!, 'Bearer opaque-token')).status).toBe(500);
  });

  it('answers 500 to a verifier that throws something else than an OAuthError, without the thrown text', async () => {
    const logger = new RecordingLogger();
    const handle = await serve({
      transport: 'http',
      logger,
      auth: {
        verifier: {
          verifyAccessToken: () => Promise.reject(new Error('database password is hunter2')),
        },
        authorizationServer: authorizationServer.issuer,
      },
    });
    const answer = await rawInitialize(handle.url!, 'Bearer anything');
    expect(answer.status).toBe(500);
    expect(await answer.text()).not.toContain('hunter2');
    expect(
      logger.entries.some((entry) => entry.level === 'error' && entry.message.includes('token verifier threw')),
    ).toBe(true);
  });

  it("a custom verifier's OAuthError is its answer: 401 with its description", async () => {
    const handle = await serve({
      transport: 'http',
      logger: new RecordingLogger(),
      auth: {
        verifier: {
          verifyAccessToken: () => Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'Token revoked')),
        },
        authorizationServer: authorizationServer.issuer,
      },
    });
    const answer = await rawInitialize(handle.url!, 'Bearer revoked');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error_description="Token revoked"');
  });

  it('a context hook that throws while listing gives a generic error, its text only in the log', async () => {
    const logger = new RecordingLogger();
    const handle = await serve({
      transport: 'http',
      logger,
      context: () => {
        throw new Error('directory password is hunter2');
      },
    });
    const client = new Client({ name: 'hook-fault', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url!)));
    try {
      const failure = await client.listTools().then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.message).toContain('Internal error');
      expect(failure?.message).not.toContain('hunter2');
      expect(logger.entries.some((entry) => entry.level === 'error' && entry.message.includes('hunter2'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serves the metadata for GET, HEAD and a CORS preflight only', async () => {
    const handle = await serve({
      transport: 'http',
      logger: new RecordingLogger(),
      auth: {
        verifier: jwtVerifier({ jwksUrl: authorizationServer.jwksUrl, issuer: authorizationServer.issuer }),
        authorizationServer: authorizationServer.issuer,
      },
    });
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', handle.url);
    expect((await fetch(metadataUrl, { method: 'HEAD' })).status).toBe(200);
    const preflight = await fetch(metadataUrl, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const post = await fetch(metadataUrl, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
