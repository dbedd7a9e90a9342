/**
 * A small OAuth 2.1 authorization server for tests, on 127.0.0.1, signing JWT access tokens (RFC 9068) with jose:
 * RFC 8414 metadata, a JWKS, the client-credentials grant (with RFC 8707 `resource` as the audience) and token
 * introspection (RFC 7662). Its signing key can be rotated while it runs; `sign` makes the tokens a test needs that
 * the token endpoint would never issue (expired, another audience, another issuer, a forged signature).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { CryptoKey, JWK, JWTPayload } from 'jose';

const jose = require('jose') as typeof import('jose');

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export interface TestClient {
  readonly secret: string;
  /** The token's subject. */
  readonly subject: string;
  readonly tenant?: string;
  /** The scopes the client may ask for. */
  readonly scopes: readonly string[];
}

export interface SignOptions {
  readonly subject: string;
  readonly scope: string;
  readonly audience: string | readonly string[];
  readonly tenant?: string;
  readonly issuer?: string;
  /** Seconds from now; negative for an expired token. Default 300. */
  readonly expiresIn?: number;
  /** Sign with a key of its own that no JWKS publishes, under the current key's id (a forgery). */
  readonly forged?: boolean;
}

export class JwtAuthorizationServer {
  private key!: SigningKey;
  private readonly http: Server;
  private readonly clients = new Map<string, TestClient>();
  /** How many times the JWKS was fetched. */
  jwksFetches = 0;
  issuer = '';
  /** Introspection credentials of the resource server. */
  readonly introspectionClient = { id: 'mcp-resource-server', secret: randomUUID() };

  private constructor() {
    this.http = createServer((request, response) => {
      void this.route(request.method ?? '', (request.url ?? '/').split('?')[0] ?? '/', request).then(
        ({ status, body }) => {
          response.writeHead(status, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify(body));
        },
      );
    });
  }

  static async start(clients: Record<string, TestClient>): Promise<JwtAuthorizationServer> {
    const server = new JwtAuthorizationServer();
    for (const [id, client] of Object.entries(clients)) server.clients.set(id, client);
    await server.rotate();
    await new Promise<void>((resolve) => server.http.listen(0, '127.0.0.1', resolve));
    server.issuer = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}`;
    return server;
  }

  get jwksUrl(): string {
    return `${this.issuer}/jwks`;
  }

  get introspectionEndpoint(): string {
    return `${this.issuer}/introspect`;
  }

  /** A new signing key replaces the old one; the JWKS publishes only the new one from now on. */
  async rotate(): Promise<void> {
    this.key = await newKey();
  }

  /** Client credentials grant, as a client would make it over HTTP. */
  async token(clientId: string, scope: string, resource: string): Promise<string> {
    const client = this.clients.get(clientId);
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${clientId}:${client?.secret ?? ''}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string };
    if (!response.ok || body.access_token === undefined) throw new Error(`token endpoint: ${JSON.stringify(body)}`);
    return body.access_token;
  }

  async sign(options: SignOptions): Promise<string> {
    const key = options.forged ? { ...(await newKey()), kid: this.key.kid } : this.key;
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload & Record<string, unknown> = {
      scope: options.scope,
      client_id: options.subject,
      ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
    };
    return new jose.SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(options.issuer ?? this.issuer)
      .setSubject(options.subject)
      .setAudience(typeof options.audience === 'string' ? options.audience : [...options.audience])
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 300))
      .setJti(randomUUID())
      .sign(key.privateKey);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private async route(
    method: string,
    path: string,
    request: import('node:http').IncomingMessage,
  ): Promise<{ status: number; body: unknown }> {
    if (method === 'GET' && path === '/.well-known/oauth-authorization-server')
      return {
        status: 200,
        body: {
          issuer: this.issuer,
          token_endpoint: `${this.issuer}/token`,
          jwks_uri: this.jwksUrl,
          introspection_endpoint: this.introspectionEndpoint,
          grant_types_supported: ['client_credentials'],
          response_types_supported: ['token'],
        },
      };
    if (method === 'GET' && path === '/jwks') {
      this.jwksFetches++;
      return { status: 200, body: { keys: [this.key.publicJwk] } };
    }
    const form = new URLSearchParams(await readText(request));
    const [id, secret] = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    if (method === 'POST' && path === '/token') {
      const client = this.clients.get(id ?? '');
      if (client === undefined || client.secret !== secret) return { status: 401, body: { error: 'invalid_client' } };
      const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
      if (asked.some((scope) => !client.scopes.includes(scope)))
        return { status: 400, body: { error: 'invalid_scope' } };
      const resource = form.get('resource');
      if (resource === null) return { status: 400, body: { error: 'invalid_target' } };
      const accessToken = await this.sign({
        subject: client.subject,
        scope: asked.join(' '),
        audience: resource,
        ...(client.tenant !== undefined ? { tenant: client.tenant } : {}),
      });
      return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 300 } };
    }
    if (method === 'POST' && path === '/introspect') {
      if (id !== this.introspectionClient.id || secret !== this.introspectionClient.secret)
        return { status: 401, body: { error: 'invalid_client' } };
      try {
        const { payload } = await jose.jwtVerify(
          form.get('token') ?? '',
          jose.createLocalJWKSet({ keys: [this.key.publicJwk] }),
          {
            issuer: this.issuer,
          },
        );
        return { status: 200, body: { active: true, ...payload } };
      } catch {
        return { status: 200, body: { active: false } };
      }
    }
    return { status: 404, body: { error: 'not_found' } };
  }
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await jose.exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

async function readText(request: import('node:http').IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}
