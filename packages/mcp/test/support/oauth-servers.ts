/**
 * A real OAuth-protected MCP server for tests, all on 127.0.0.1: a small authorization server (the MCP SDK's frozen legacy
 * `mcpAuthRouter`: metadata, dynamic registration, authorize with PKCE, token and refresh endpoints) over an
 * in-memory `OAuthServerProvider`, and a resource server (the SDK's `requireBearerAuth` and protected-resource
 * metadata) serving an SDK `McpServer` whose tools report which user's token each request carried.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import type { AuthInfo, OAuthClientInformationFull, OAuthMetadata, OAuthTokens } from '@modelcontextprotocol/server';
import {
  InvalidTokenError,
  InvalidGrantError,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
  requireBearerAuth,
} from '@modelcontextprotocol/server-legacy/auth';
import type {
  OAuthServerProvider,
  AuthorizationParams,
  OAuthRegisteredClientsStore,
} from '@modelcontextprotocol/server-legacy/auth';

/** The part of express (a dependency of the SDK's legacy auth helpers, no type declarations here) these servers use. */
type Handler = (request: ExpressRequest, response: ExpressResponse, next: (error?: unknown) => void) => void;
interface ExpressRequest extends IncomingMessage {
  body: unknown;
  auth?: AuthInfo;
  path: string;
}
interface ExpressResponse extends ServerResponse {
  req: ExpressRequest;
  redirect(url: string): void;
  status(code: number): ExpressResponse;
  json(body: unknown): void;
}
interface ExpressApp {
  use(...handlers: unknown[]): void;
  post(path: string, ...handlers: unknown[]): void;
  set(name: string, value: unknown): void;
  listen(port: number, host: string, callback: () => void): Server;
}
const express = require('express') as { (): ExpressApp; json(): Handler };

interface IssuedToken {
  readonly user: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  expired: boolean;
}

/** What the servers saw, in order. */
export interface OAuthServerLog {
  /** Every request to either server: `${server} ${method} ${path}`. */
  readonly requests: string[];
  readonly registrations: string[];
  /** Token endpoint grants: `${grant} ${user}`. */
  readonly grants: string[];
  /** Every MCP request that passed bearer authentication: its method, the token and whose it is. */
  readonly mcp: Array<{ readonly method: string; readonly token: string; readonly user: string }>;
  /** Elicitation results the MCP server received, per tool. */
  readonly elicitations: Array<{ readonly tool: string; readonly result: unknown }>;
  /** The elicitation capability the client declared, at each call of pick_color. */
  readonly declaredElicitation: unknown[];
}

/** An in-memory authorization server: the user is the `x-test-user` header of the authorization request. */
class TestAuthorizationProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<
    string,
    { user: string; clientId: string; challenge: string; scopes: string[]; redirectUri: string }
  >();
  readonly accessTokens = new Map<string, IssuedToken>();
  private readonly refreshTokens = new Map<string, IssuedToken>();

  constructor(private readonly log: OAuthServerLog) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (clientId) => this.clients.get(clientId),
      registerClient: (client) => {
        const registered = { ...client, client_id: `client-${this.clients.size + 1}`, client_id_issued_at: 0 };
        this.clients.set(registered.client_id, registered);
        this.log.registrations.push(registered.client_id);
        return registered;
      },
    };
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: ExpressResponse,
  ): Promise<void> {
    const user = res.req.headers['x-test-user'];
    const target = new URL(params.redirectUri);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    if (typeof user !== 'string' || user === 'denied') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'the user said no');
    } else {
      const code = randomBytes(12).toString('hex');
      this.codes.set(code, {
        user,
        clientId: client.client_id,
        challenge: params.codeChallenge,
        scopes: params.scopes ?? [],
        redirectUri: params.redirectUri,
      });
      target.searchParams.set('code', code);
    }
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (entry === undefined) throw new InvalidGrantError('unknown code');
    return entry.challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    this.codes.delete(code);
    if (entry === undefined || entry.clientId !== client.client_id) throw new InvalidGrantError('unknown code');
    this.log.grants.push(`authorization_code ${entry.user}`);
    return this.issue({ user: entry.user, clientId: client.client_id, scopes: entry.scopes, expired: false });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const entry = this.refreshTokens.get(refreshToken);
    this.refreshTokens.delete(refreshToken);
    if (entry === undefined || entry.clientId !== client.client_id)
      throw new InvalidGrantError('unknown refresh token');
    this.log.grants.push(`refresh_token ${entry.user}`);
    return this.issue({ ...entry, expired: false });
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.accessTokens.get(token);
    if (entry === undefined || entry.expired) throw new InvalidTokenError('the access token expired');
    return {
      token,
      clientId: entry.clientId,
      scopes: [...entry.scopes],
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      extra: { user: entry.user },
    };
  }

  /** Expires every access token of `user` (their refresh tokens stay valid). */
  expire(user: string): void {
    for (const entry of this.accessTokens.values()) if (entry.user === user) entry.expired = true;
  }

  private issue(entry: IssuedToken): OAuthTokens {
    const accessToken = `at-${entry.user}-${randomBytes(6).toString('hex')}`;
    const refreshToken = `rt-${entry.user}-${randomBytes(6).toString('hex')}`;
    this.accessTokens.set(accessToken, entry);
    this.refreshTokens.set(refreshToken, entry);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      scope: entry.scopes.join(' '),
    };
  }
}

function listen(app: ExpressApp): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server: Server = app.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** The MCP server's tools: who is calling, an action that needs the `admin` scope, and two questions to the client. */
/** Calls of `held_whoami` wait while the gate is held (a call in flight for as long as a test needs). */
class Gate {
  private opened: Promise<void> = Promise.resolve();

  hold(): () => void {
    let release!: () => void;
    this.opened = new Promise((resolve) => {
      release = resolve;
    });
    return release;
  }

  passed(): Promise<void> {
    return this.opened;
  }
}

function createMcpServer(auth: AuthInfo | undefined, log: OAuthServerLog, gate: Gate): McpServer {
  const server = new McpServer({ name: 'oauth-test-server', version: '1.0.0' });
  const owner = auth?.extra?.user;
  const user = typeof owner === 'string' ? owner : 'anonymous';
  server.registerTool('whoami', { description: 'Who the token belongs to' }, () => ({
    content: [{ type: 'text', text: user }],
  }));
  server.registerTool('held_whoami', { description: 'Who the token belongs to, once the gate opens' }, async () => {
    await gate.passed();
    return { content: [{ type: 'text', text: user }] };
  });
  server.registerTool('admin_action', { description: 'Needs the admin scope' }, () => ({
    content: [{ type: 'text', text: `done for ${user}` }],
  }));
  // Both ask on the call's own stream (`ctx.mcpReq.send` relates the request to the call).
  server.registerTool('pick_color', { description: 'Asks the user for a color (form mode)' }, async (ctx) => {
    log.declaredElicitation.push(server.server.getClientCapabilities()?.elicitation);
    try {
      const result = await ctx.mcpReq.send({
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which color?',
          requestedSchema: {
            type: 'object',
            properties: { color: { type: 'string', enum: ['red', 'blue'] } },
            required: ['color'],
          },
        },
      });
      log.elicitations.push({ tool: 'pick_color', result });
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    } catch (error) {
      log.elicitations.push({ tool: 'pick_color', result: { error: (error as Error).message } });
      return { content: [{ type: 'text', text: `no answer: ${(error as Error).message}` }], isError: true };
    }
  });
  server.registerTool('open_consent', { description: 'Sends the user to a page (URL mode)' }, async (ctx) => {
    const result = await ctx.mcpReq.send({
      method: 'elicitation/create',
      params: {
        mode: 'url',
        message: 'Please approve the payment',
        url: 'https://payments.example/approve/42',
        elicitationId: 'approve-42',
      },
    });
    log.elicitations.push({ tool: 'open_consent', result });
    return { content: [{ type: 'text', text: JSON.stringify(result) }] };
  });
  return server;
}

export interface OAuthTestServers {
  /** The MCP endpoint. */
  readonly mcpUrl: string;
  readonly authorizationServerUrl: string;
  readonly log: OAuthServerLog;
  /** Expires every access token of `user`. */
  expire(user: string): void;
  /** Holds every later call of `held_whoami` until the returned function is called. */
  hold(): () => void;
  /** Who each access token belongs to. */
  ownerOf(token: string): string | undefined;
  close(): Promise<void>;
}

/**
 * Starts the two servers. `protect: false` serves the same MCP server without authorization (elicitation tests).
 */
export async function startOAuthTestServers(options: { protect?: boolean } = {}): Promise<OAuthTestServers> {
  const protect = options.protect ?? true;
  const log: OAuthServerLog = {
    requests: [],
    registrations: [],
    grants: [],
    mcp: [],
    elicitations: [],
    declaredElicitation: [],
  };
  const provider = new TestAuthorizationProvider(log);
  const gate = new Gate();
  const record =
    (name: string): Handler =>
    (request, _response, next) => {
      log.requests.push(`${name} ${request.method ?? ''} ${request.path}`);
      next();
    };

  const authorizationApp = express();
  authorizationApp.use(record('as'));
  const authorization = await listen(authorizationApp);
  const resourceApp = express();
  resourceApp.use(record('rs'));
  const resource = await listen(resourceApp);
  const mcpUrl = new URL('/mcp', resource.url);

  authorizationApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(authorization.url),
      scopesSupported: ['mcp', 'admin'],
      resourceServerUrl: mcpUrl,
      // Tests make many requests from one address.
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
    }),
  );
  const oauthMetadata = (await (
    await fetch(`${authorization.url}/.well-known/oauth-authorization-server`)
  ).json()) as OAuthMetadata;
  resourceApp.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: ['mcp'] }));

  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl });
  /** A call of admin_action with a token lacking `admin` gets 403 insufficient_scope (the client steps up). */
  const stepUp: Handler = (request, response, next) => {
    const body = request.body as { method?: string; params?: { name?: string } } | undefined;
    if (
      body?.method === 'tools/call' &&
      body.params?.name === 'admin_action' &&
      !request.auth?.scopes.includes('admin')
    ) {
      response.setHeader(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="${resourceMetadataUrl}"`,
      );
      response.status(403).json({ error: 'insufficient_scope', error_description: 'admin_action needs admin' });
      return;
    }
    next();
  };
  const recordMcp: Handler = (request, _response, next) => {
    const body = request.body as { method?: string } | undefined;
    if (request.auth) {
      const token = request.auth.token;
      log.mcp.push({ method: String(body?.method), token, user: String(request.auth.extra?.user) });
    }
    next();
  };
  /** Stateful sessions (a server's question during a call is answered on a later POST of the same session). */
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const serve: Handler = (request, response) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(request, response, request.body);
      return;
    }
    const server = createMcpServer(request.auth, log, gate);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(12).toString('hex'),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    void server
      .connect(transport)
      .then(() => transport.handleRequest(request, response, request.body))
      .catch((error: unknown) => {
        if (!response.headersSent) response.status(500).json({ error: String(error) });
      });
  };
  const methodNotAllowed: Handler = (_request, response) => {
    response.status(405).json({ error: 'method not allowed' });
  };
  const handlers = protect ? [bearer, stepUp, recordMcp, serve] : [serve];
  resourceApp.post('/mcp', express.json(), ...handlers);
  resourceApp.use('/mcp', methodNotAllowed);

  return {
    mcpUrl: mcpUrl.href,
    authorizationServerUrl: authorization.url,
    log,
    expire: (user) => provider.expire(user),
    hold: () => gate.hold(),
    ownerOf: (token) => provider.accessTokens.get(token)?.user,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await Promise.all([close(authorization.server), close(resource.server)]);
    },
  };
}
