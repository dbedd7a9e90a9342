import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { defaultLogger, DefinitionError, type Logger, type ToolRegistry } from '@toolwright/core';
import { createMcpHandler, isLegacyRequest, type EventStore, type McpHttpHandler } from '@modelcontextprotocol/server';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
  type NodeMcpRequestHandler,
} from '@modelcontextprotocol/node';
import { serveStdio as serveStdioConnection, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { serverMessages } from '../messages';
import {
  createRegistryMcpServer,
  defaultExecutor,
  type McpServerOptions,
  type RegistryMcpServer,
} from './create-mcp-server';
import { redirectConsoleToStderr, stderrLogger } from './stderr-logger';
import { callerKeyOf, McpBearerGate, type McpServerAuthOptions } from './bearer-auth';

export interface ServeMcpStdioOptions extends McpServerOptions {
  readonly transport: 'stdio';
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. */
  readonly stdout?: Writable;
  /** Route `console.log`/`info`/`debug` to stderr while serving (default true when stdout is `process.stdout`). */
  readonly redirectConsole?: boolean;
}

export interface ServeMcpHttpOptions extends McpServerOptions {
  readonly transport: 'http';
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Default 0: a free port (see the handle's `port` and `url`). */
  readonly port?: number;
  /** The MCP endpoint. Default `/mcp`. */
  readonly path?: string;
  /**
   * No sessions: every POST is served by a fresh server and transport, so any replica behind a load balancer can
   * answer any request. No server-to-client stream (GET) and no list-change notifications.
   */
  readonly stateless?: boolean;
  /** Largest request body; larger gets 413 before it is parsed. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Host names clients may use besides the loopback ones (required when binding a non-loopback interface): the
   * Host header is checked against them (with or without the port) to stop DNS rebinding.
   */
  readonly allowedHosts?: readonly string[];
  /** Origins browsers may send besides `http://localhost:PORT`, `http://127.0.0.1:PORT`, `http://[::1]:PORT`. */
  readonly allowedOrigins?: readonly string[];
  /** Most sessions at once; more get 503. Default 1,000. */
  readonly maxSessions?: number;
  /**
   * Most sessions one client may hold at once (clients told apart by `clientKey`); more get 429, so one client
   * cannot take every session. Default 100.
   */
  readonly maxSessionsPerClient?: number;
  /**
   * Who a request comes from, for `maxSessionsPerClient`. Default: the socket's remote address. Behind a reverse
   * proxy every client has the proxy's address: derive the key from something the proxy sets and you trust.
   */
  readonly clientKey?: (request: IncomingMessage) => string;
  /** Most TCP connections at once; more are closed as they arrive (`server.maxConnections`). Default 2,000. */
  readonly maxConnections?: number;
  /**
   * How long a connection may take to send a request's headers, counted from its first byte or from its opening
   * (an idle connection that sends nothing is closed too): 408 and closed. Default 10,000 ms.
   */
  readonly headersTimeoutMs?: number;
  /**
   * How long a client may take to send a whole request, body included (a slow-body client): 408 and closed.
   * Responses are not limited (a long tool call or an SSE stream may last). Default 30,000 ms.
   */
  readonly requestTimeoutMs?: number;
  /** How long a kept-alive connection may sit idle between requests. Default 5,000 ms (Node's). */
  readonly keepAliveTimeoutMs?: number;
  /** A session with no request for this long is closed. Default 30 minutes. */
  readonly sessionIdleTimeoutMs?: number;
  /** Answer with JSON instead of an SSE stream where possible. Default false. */
  readonly enableJsonResponse?: boolean;
  /** Resumability (SSE event replay): passed to the SDK transport. */
  readonly eventStore?: EventStore;
  /** The SSE `retry` hint, in ms: passed to the SDK transport. */
  readonly retryIntervalMs?: number;
  /**
   * An OAuth 2.1 resource server: every request needs a bearer token the verifier accepts (issuer, audience = this
   * endpoint's resource URL, expiry, `requiredScopes`), else 401/403 with `WWW-Authenticate`; the protected resource
   * metadata is served at its well-known URL; the verified caller is trusted context and picks the tools it sees.
   */
  readonly auth?: McpServerAuthOptions;
}

export type ServeMcpOptions = ServeMcpStdioOptions | ServeMcpHttpOptions;

/** A running MCP server. */
export interface McpServerHandle {
  readonly transport: 'stdio' | 'http';
  /** HTTP: the endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url?: string;
  /** HTTP: the bound port. */
  readonly port?: number;
  /** Resolves when the server has stopped (stdio: also when the client closes stdin). */
  readonly closed: Promise<void>;
  /** Open sessions (stdio: 1 until closed; stateless HTTP: requests in flight). */
  sessionCount(): number;
  close(): Promise<void>;
}

/**
 * Serves every tool of `registry` over MCP. `stdio`: one session on stdin/stdout, which carry only JSON-RPC (logs
 * go to stderr). `http`: Streamable HTTP on 127.0.0.1 by default, DNS-rebinding protection always on (Host and
 * Origin checked), a body size cap, one server and secure random session id per session, or a stateless mode.
 */
export async function serveMcp(registry: ToolRegistry, options: ServeMcpOptions): Promise<McpServerHandle> {
  if (options.transport === 'stdio') return serveStdio(registry, options);
  if (options.transport === 'http') return new McpHttpServer(registry, options).listen();
  throw new DefinitionError(`transport is ${JSON.stringify((options as { transport?: unknown }).transport)}.`, {
    target: 'serveMcp',
    fix: "use 'stdio' or 'http'.",
  });
}

/**
 * stdio through the SDK's `serveStdio`: the client's opening message picks the protocol generation (a 2025
 * `initialize` handshake, or the 2026-07-28 revision's per-request envelope) and one registry server from the factory
 * is pinned to the connection (the SDK may build a probe instance first and discard it; each is disposed when it
 * closes). One session id for the connection, whatever its generation.
 */
async function serveStdio(registry: ToolRegistry, options: ServeMcpStdioOptions): Promise<McpServerHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const logger = options.logger ?? stderrLogger;
  const restoreConsole =
    (options.redirectConsole ?? stdout === process.stdout) ? redirectConsoleToStderr() : () => undefined;
  const sessionId = randomUUID();
  const executor = defaultExecutor(registry, options, logger);
  const instances = new Set<() => void>();
  let open = true;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const wire = new StdioServerTransport(stdin, stdout);
  const connection = serveStdioConnection(
    () => {
      const { server, dispose } = createRegistryMcpServer(registry, options, {
        transport: 'stdio',
        sessionId,
        notifyListChanged: true,
        executor,
        logger,
      });
      instances.add(dispose);
      server.onclose = () => {
        if (instances.delete(dispose)) dispose();
      };
      return server;
    },
    { transport: wire, onerror: (error) => logger.warn(serverMessages.transportError(error)) },
  );
  const close = () => connection.close();
  const onEnd = () => void close();
  // The SDK's entry set the wire's close handler; ours runs after it (the connection is over, whoever closed it).
  const entryClosed = wire.onclose;
  wire.onclose = () => {
    entryClosed?.();
    if (!open) return;
    open = false;
    stdin.off('end', onEnd);
    for (const dispose of [...instances]) dispose();
    instances.clear();
    restoreConsole();
    resolveClosed();
  };
  // The client ends the session by closing our stdin (the spec's stdio shutdown).
  stdin.once('end', onEnd);
  logger.info(serverMessages.stdioReady(registry.size), { sessionId });
  return { transport: 'stdio', closed, sessionCount: () => (open ? 1 : 0), close };
}

/** Options of a Streamable HTTP endpoint mounted on another HTTP server (`host`, `port` and `path` are the host's). */
export type McpHttpEndpointOptions = Omit<ServeMcpHttpOptions, 'transport' | 'host' | 'port' | 'path'>;

/** The Streamable HTTP endpoint of `createMcpHttpEndpoint`: route every method of the MCP path to `handle`. */
export interface McpHttpEndpoint {
  /** Serves one request; `parsedBody` when a body parser already read it (express, Nest). */
  handle(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Open sessions (stateless: requests in flight). */
  sessionCount(): number;
  /** Closes every session. */
  close(): Promise<void>;
  /** With `auth`: the path of the protected resource metadata, to route (GET) to `handleMetadata`. */
  readonly metadataPath?: string;
  /** With `auth`: serves the protected resource metadata document. */
  handleMetadata(request: IncomingMessage, response: ServerResponse): void;
}

/**
 * The same Streamable HTTP endpoint as `serveMcp({ transport: 'http' })` (sessions, DNS-rebinding protection with
 * the loopback names at the port each request came in on plus `allowedHosts`/`allowedOrigins`, size cap, idle
 * sweep), without a server of its own, for mounting on an existing HTTP server (Nest's adapter, express), so that
 * server's middleware and guards apply.
 */
export function createMcpHttpEndpoint(registry: ToolRegistry, options: McpHttpEndpointOptions = {}): McpHttpEndpoint {
  return new McpHttpServer(registry, { ...options, transport: 'http', host: '127.0.0.1' }, true).endpoint();
}

interface HttpSession {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly mcp: RegistryMcpServer;
  /** Who opened it (`clientKey`), for the per-client quota. */
  readonly client: string;
  /** The verified caller that opened it: every request of the session must come from the same one. */
  readonly caller: string | undefined;
  /** Whether it holds one of its client's quota (given back once). */
  counted: boolean;
  lastSeen: number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The limits of `serveMcp` over HTTP that are counts and times. */
export interface McpHttpLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly maxConnections: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
}

/** The HTTP limits' defaults (documented in docs/mcp.md). */
export const MCP_HTTP_DEFAULTS: McpHttpLimits = Object.freeze({
  maxSessions: 1_000,
  maxSessionsPerClient: 100,
  maxConnections: 2_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

function positiveLimit(options: ServeMcpHttpOptions, name: keyof McpHttpLimits): number {
  const value = options[name] ?? MCP_HTTP_DEFAULTS[name];
  if (!(Number.isSafeInteger(value) && value > 0)) {
    throw new DefinitionError(`${name} is ${String(value)}.`, {
      target: 'serveMcp',
      property: name,
      fix: 'use a positive whole number.',
    });
  }
  return value;
}

/** The Streamable HTTP side of `serveMcp`. */
class McpHttpServer {
  private readonly http: HttpServer;
  private readonly sessions = new Map<string, HttpSession>();
  private readonly logger: Logger;
  private readonly executor;
  private readonly host: string;
  private readonly path: string;
  private allowedHosts: string[] = [];
  private allowedOrigins: string[] = [];
  private inFlight = 0;
  private readonly limits: McpHttpLimits;
  /** Open sessions per client key. */
  private readonly sessionsPerClient = new Map<string, number>();
  private sweeper?: NodeJS.Timeout;
  private closing?: Promise<void>;
  /** The 2026-07-28 side of the endpoint, made at its first request. */
  private modern?: { readonly handler: McpHttpHandler; readonly node: NodeMcpRequestHandler };
  /** With `auth`: the bearer gate (made at listen for `serveMcp`, whose default resource is its own URL). */
  private gate?: McpBearerGate;
  private resolveClosed!: () => void;
  private readonly closed = new Promise<void>((resolve) => {
    this.resolveClosed = resolve;
  });

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ServeMcpHttpOptions,
    mounted = false,
  ) {
    this.logger = options.logger ?? defaultLogger;
    this.executor = defaultExecutor(registry, options, this.logger);
    this.host = options.host ?? '127.0.0.1';
    this.path = options.path ?? '/mcp';
    if (!LOOPBACK_HOSTS.has(this.host) && (options.allowedHosts === undefined || options.allowedHosts.length === 0)) {
      throw new DefinitionError(serverMessages.nonLoopbackWithoutAllowedHosts(this.host), {
        target: 'serveMcp',
        property: 'allowedHosts',
      });
    }
    this.mounted = mounted;
    const limits = {
      maxSessions: positiveLimit(options, 'maxSessions'),
      maxSessionsPerClient: positiveLimit(options, 'maxSessionsPerClient'),
      maxConnections: positiveLimit(options, 'maxConnections'),
      headersTimeoutMs: positiveLimit(options, 'headersTimeoutMs'),
      requestTimeoutMs: positiveLimit(options, 'requestTimeoutMs'),
      keepAliveTimeoutMs: positiveLimit(options, 'keepAliveTimeoutMs'),
    };
    if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
      throw new DefinitionError(
        `headersTimeoutMs (${limits.headersTimeoutMs}) is longer than requestTimeoutMs (${limits.requestTimeoutMs}).`,
        {
          target: 'serveMcp',
          property: 'headersTimeoutMs',
          fix: 'give the headers at most the time of the whole request.',
        },
      );
    }
    this.limits = limits;
    this.http = createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        // Node checks the two timeouts on this interval (default 30 s, which would stretch a 10 s limit to 40 s).
        connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
      },
      (request, response) => {
        void this.handle(request, response);
      },
    );
    this.http.maxConnections = limits.maxConnections;
    // Mounted, the endpoint cannot know its public URL: the resource is required (checked by the gate).
    if (mounted && options.auth !== undefined) this.gate = new McpBearerGate(options.auth, undefined, this.logger);
  }

  private readonly mounted: boolean;
  private configuredPort?: number;

  /** The endpoint without its own server: another HTTP framework (Nest, express) routes requests to it. */
  endpoint(): McpHttpEndpoint {
    const idleMs = this.options.sessionIdleTimeoutMs ?? 30 * 60_000;
    this.sweeper = setInterval(() => this.sweep(idleMs), Math.max(1_000, Math.min(idleMs / 2, 60_000)));
    this.sweeper.unref();
    return {
      handle: (request, response, parsedBody) => this.handle(request, response, parsedBody),
      sessionCount: () => (this.options.stateless ? this.inFlight : this.sessions.size),
      close: () => this.close(),
      ...(this.gate !== undefined ? { metadataPath: this.gate.metadataPath } : {}),
      handleMetadata: (request, response) => {
        if (this.gate === undefined) return reply(response, 404, serverMessages.notFound('(no metadata without auth)'));
        this.gate.serveMetadata(request, response);
      },
    };
  }

  async listen(): Promise<McpServerHandle> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port ?? 0, this.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    const port = (this.http.address() as AddressInfo).port;
    this.configureRebindingProtection(port);
    const idleMs = this.options.sessionIdleTimeoutMs ?? 30 * 60_000;
    this.sweeper = setInterval(() => this.sweep(idleMs), Math.max(1_000, Math.min(idleMs / 2, 60_000)));
    this.sweeper.unref();
    const hostForUrl = this.host.includes(':') && !this.host.startsWith('[') ? `[${this.host}]` : this.host;
    const url = `http://${hostForUrl}:${port}${this.path}`;
    if (this.options.auth !== undefined) {
      try {
        this.gate = new McpBearerGate(this.options.auth, url, this.logger);
      } catch (error) {
        await new Promise<void>((resolve) => this.http.close(() => resolve()));
        throw error;
      }
    }
    this.logger.info(serverMessages.listening(url), { url, stateless: this.options.stateless === true });
    return {
      transport: 'http',
      url,
      port,
      closed: this.closed,
      sessionCount: () => (this.options.stateless ? this.inFlight : this.sessions.size),
      close: () => this.close(),
    };
  }

  private configureRebindingProtection(port: number): void {
    const names = LOOPBACK_HOSTS.has(this.host) ? ['127.0.0.1', 'localhost', '[::1]'] : [];
    for (const host of this.options.allowedHosts ?? [])
      names.push(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
    // The SDK compares the whole Host header, so every name is allowed with and without the port.
    this.allowedHosts = [...new Set(names.flatMap((name) => [`${name}:${port}`, ...(port === 80 ? [name] : [])]))];
    this.allowedOrigins = [
      ...(LOOPBACK_HOSTS.has(this.host)
        ? ['127.0.0.1', 'localhost', '[::1]'].map((name) => `http://${name}:${port}`)
        : []),
      ...(this.options.allowedOrigins ?? []),
    ];
  }

  private transportOptions() {
    return {
      enableDnsRebindingProtection: true,
      allowedHosts: this.allowedHosts,
      allowedOrigins: this.allowedOrigins,
      maxRequestBodySize: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      enableJsonResponse: this.options.enableJsonResponse ?? false,
      ...(this.options.eventStore ? { eventStore: this.options.eventStore } : {}),
      ...(this.options.retryIntervalMs !== undefined ? { retryInterval: this.options.retryIntervalMs } : {}),
    };
  }

  private async handle(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void> {
    try {
      if (this.mounted) {
        // Mounted: the host framework routed the request here; the Host check uses the port it came in on.
        const port = request.socket.localPort;
        if (port !== undefined && port !== this.configuredPort) {
          this.configuredPort = port;
          this.configureRebindingProtection(port);
        }
      } else {
        const path = (request.url ?? '/').split('?')[0];
        if (this.gate !== undefined && path === this.gate.metadataPath)
          return this.gate.serveMetadata(request, response);
        if (path !== this.path) return reply(response, 404, serverMessages.notFound(this.path));
      }
      if (this.closing) return reply(response, 503, 'Server is shutting down');
      // Every request is verified on its own (the 2026-07-28 revision has no session to remember a caller by).
      if (this.gate !== undefined && (await this.gate.authenticate(request, response)) === undefined) return;
      if (request.method === 'POST') {
        // One endpoint, both protocol generations: a request with the 2026-07-28 envelope goes to the SDK's
        // per-request handler; everything else is a 2025-era request for the session transport below.
        if (parsedBody === undefined) {
          const read = await this.readBody(request, response);
          if (read === undefined) return;
          parsedBody = read.body;
        }
        if (!(await isLegacyRequest(await toWebRequest(request, parsedBody), parsedBody)))
          return await this.handleModern(request, response, parsedBody);
      }
      if (this.options.stateless) return await this.handleStateless(request, response, parsedBody);
      const sessionHeader = request.headers['mcp-session-id'];
      if (typeof sessionHeader === 'string') {
        const session = this.sessions.get(sessionHeader);
        if (!session) return reply(response, 404, serverMessages.sessionNotFound(), -32001);
        // Another caller's token: the session does not exist for it (nothing to tell it apart from a wrong id).
        if (session.caller !== callerKeyOf(request)) {
          this.logger.warn(serverMessages.sessionOfAnotherCaller(sessionHeader), { sessionId: sessionHeader });
          return reply(response, 404, serverMessages.sessionNotFound(), -32001);
        }
        session.lastSeen = Date.now();
        return await session.transport.handleRequest(request, response, parsedBody);
      }
      if (request.method !== 'POST') return reply(response, 400, serverMessages.sessionRequired());
      const maxSessions = this.limits.maxSessions;
      if (this.sessions.size >= maxSessions) return reply(response, 503, serverMessages.tooManySessions(maxSessions));
      const client = this.clientKeyOf(request);
      const perClient = this.limits.maxSessionsPerClient;
      if ((this.sessionsPerClient.get(client) ?? 0) >= perClient)
        return reply(response, 429, serverMessages.tooManySessionsForClient(perClient));
      await this.openSession(request, response, client, parsedBody);
    } catch (error) {
      this.logger.error(serverMessages.transportError(error));
      if (!response.headersSent) reply(response, 500, 'Internal server error', -32603);
    }
  }

  private clientKeyOf(request: IncomingMessage): string {
    if (this.options.clientKey === undefined) return request.socket.remoteAddress ?? 'unknown';
    try {
      return String(this.options.clientKey(request));
    } catch (error) {
      this.logger.warn(serverMessages.clientKeyFailed(error));
      return request.socket.remoteAddress ?? 'unknown';
    }
  }

  private countSession(client: string, change: 1 | -1): void {
    const count = (this.sessionsPerClient.get(client) ?? 0) + change;
    if (count > 0) this.sessionsPerClient.set(client, count);
    else this.sessionsPerClient.delete(client);
  }

  /** A POST without a session: a new server and transport; kept only if the request was a valid `initialize`. */
  private async openSession(
    request: IncomingMessage,
    response: ServerResponse,
    client: string,
    parsedBody?: unknown,
  ): Promise<void> {
    const transport = new NodeStreamableHTTPServerTransport({
      ...this.transportOptions(),
      // 122 random bits (crypto.randomUUID): not guessable, not derived from anything.
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        // Called while the request is handled below, when `session` is set.
        this.sessions.set(sessionId, session);
        this.logger.debug(serverMessages.sessionOpened(sessionId), { sessionId });
      },
      onsessionclosed: (sessionId) => {
        void this.closeSession(sessionId, 'deleted by the client');
      },
    });
    const mcp = createRegistryMcpServer(this.registry, this.options, {
      transport: 'http',
      notifyListChanged: true,
      executor: this.executor,
      logger: this.logger,
    });
    const session: HttpSession = {
      transport,
      mcp,
      client,
      caller: callerKeyOf(request),
      counted: true,
      lastSeen: Date.now(),
    };
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId !== undefined && this.sessions.get(sessionId) === session) this.forget(sessionId, session);
      mcp.dispose();
    };
    // The client's quota is taken now, so concurrent initialize requests cannot overrun it; given back if not kept.
    this.countSession(client, 1);
    let kept = false;
    try {
      await mcp.server.connect(transport);
      await transport.handleRequest(request, response, parsedBody);
      const sessionId = transport.sessionId;
      kept = sessionId !== undefined && this.sessions.get(sessionId) === session;
    } finally {
      if (!kept) this.uncount(session);
    }
    // Not an initialize, a forged Host/Origin, a malformed body: nothing to keep.
    if (!kept) await mcp.server.close();
  }

  /** The body of a POST, parsed; undefined when an answer was sent (413 over the cap, 400 not JSON). */
  private async readBody(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<{ readonly body: unknown } | undefined> {
    let text: string;
    try {
      text = await (
        await toWebRequest(request, undefined, {
          maxRequestBodySize: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        })
      ).text();
    } catch (error) {
      if ((error as { status?: unknown }).status === 413) {
        reply(response, 413, serverMessages.bodyTooLarge(this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
        return undefined;
      }
      throw error;
    }
    try {
      return { body: JSON.parse(text) as unknown };
    } catch {
      reply(response, 400, 'Parse error: Invalid JSON', -32700);
      return undefined;
    }
  }

  /**
   * A 2026-07-28 request: no session, one fresh server per request (the SDK's `createMcpHandler`), after the same
   * Host and Origin checks the session transport makes.
   */
  private async handleModern(request: IncomingMessage, response: ServerResponse, parsedBody: unknown): Promise<void> {
    const host = request.headers.host;
    if (host === undefined || !this.allowedHosts.includes(host))
      return reply(response, 403, serverMessages.hostNotAllowed(host ?? ''));
    const origin = request.headers.origin;
    if (origin !== undefined && !this.allowedOrigins.includes(origin))
      return reply(response, 403, serverMessages.originNotAllowed(origin));
    this.modern ??= this.createModernHandler();
    this.inFlight++;
    try {
      await this.modern.node(request, response, parsedBody);
    } finally {
      this.inFlight--;
    }
  }

  private createModernHandler(): { readonly handler: McpHttpHandler; readonly node: NodeMcpRequestHandler } {
    const handler = createMcpHandler(
      () => {
        const mcp = createRegistryMcpServer(this.registry, this.options, {
          transport: 'http',
          notifyListChanged: false,
          executor: this.executor,
          logger: this.logger,
        });
        return mcp.server;
      },
      {
        legacy: 'reject',
        ...(this.options.enableJsonResponse ? { responseMode: 'json' as const } : {}),
        onerror: (error) => this.logger.warn(serverMessages.transportError(error)),
      },
    );
    return {
      handler,
      node: toNodeHandler(handler, {
        onerror: (error) => this.logger.error(serverMessages.transportError(error)),
        maxRequestBodySize: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      }),
    };
  }

  private async handleStateless(
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> {
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return reply(response, 405, serverMessages.methodNotAllowed(request.method ?? ''));
    }
    const transport = new NodeStreamableHTTPServerTransport({
      ...this.transportOptions(),
      sessionIdGenerator: undefined,
    });
    const mcp = createRegistryMcpServer(this.registry, this.options, {
      transport: 'http',
      notifyListChanged: false,
      executor: this.executor,
      logger: this.logger,
    });
    this.inFlight++;
    response.once('close', () => {
      this.inFlight--;
      mcp.dispose();
      void mcp.server.close();
    });
    await mcp.server.connect(transport);
    await transport.handleRequest(request, response, parsedBody);
  }

  private async closeSession(sessionId: string, reason: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.forget(sessionId, session);
    this.logger.debug(serverMessages.sessionClosed(sessionId, reason), { sessionId });
    await session.mcp.server.close().catch(() => undefined);
  }

  private forget(sessionId: string, session: HttpSession): void {
    this.sessions.delete(sessionId);
    this.uncount(session);
  }

  private uncount(session: HttpSession): void {
    if (!session.counted) return;
    session.counted = false;
    this.countSession(session.client, -1);
  }

  private sweep(idleMs: number): void {
    const now = Date.now();
    for (const [sessionId, session] of this.sessions) {
      if (now - session.lastSeen > idleMs) void this.closeSession(sessionId, `idle for more than ${idleMs} ms`);
    }
  }

  private close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.sweeper) clearInterval(this.sweeper);
      await this.modern?.handler.close();
      await Promise.all([...this.sessions.keys()].map((sessionId) => this.closeSession(sessionId, 'server closed')));
      if (!this.mounted || this.http.listening) {
        await new Promise<void>((resolve) => {
          this.http.close(() => resolve());
          this.http.closeAllConnections();
        });
      }
      this.resolveClosed();
    })();
    return this.closing;
  }
}

/** A JSON-RPC error answer outside any session (id null: there is no request to answer). */
function reply(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
