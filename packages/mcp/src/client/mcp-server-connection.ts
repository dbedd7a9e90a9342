import { UnauthorizedError, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientOptions, Tool, Transport } from '@modelcontextprotocol/client';
import { DefinitionError, HandlerError, type ExecutionContext } from '@toolwright/core';
import { McpConnectionError } from '../errors/mcp-connection-error';
import { McpAuthorizationError } from '../errors/mcp-authorization-error';
import { clientMessages } from '../messages';
import { BoundedJsonSchemaValidator } from './bounded-schema-validator';
import { remoteCallScope } from './call-scope';
import { answerElicitations, elicitationCapabilities } from './elicitation';
import { KeyedSessions, type McpSession } from './keyed-sessions';
import { KeyAuthorization } from './oauth/key-authorization';
import type { ResolvedOAuthOptions } from './oauth/oauth-options';
import type { OAuthServerState } from './oauth/stored-oauth-provider';
import { boundedFetch } from './bounded-fetch';
import { isStdioConfig, type McpServerConfig } from './config';
import { ProcessGroupStdioTransport, UnparsableLineError } from './process-group-stdio-transport';
import { retryDelays } from './retry-policy';
import { StderrTail } from './stderr-tail';
import { remoteToolHandler, type CallForwardingHost, type CallSession } from './call-forwarding';
import type { ConnectionEnvironment } from './connection-environment';
import { listAllTools, RemoteToolSync } from './registry-sync';
import { ServerPins, type McpPinChange, type PinRound } from './pinning/tool-pinning';

export type McpServerState = 'connecting' | 'connected' | 'reconnecting' | 'degraded' | 'closed';

/** A snapshot of one server's connection. */
export interface McpServerStatus {
  readonly name: string;
  readonly state: McpServerState;
  /** Registry names of the tools it provides right now. */
  readonly tools: readonly string[];
  /** Why it is degraded: the final connection error. */
  readonly error?: McpConnectionError;
  /** Lines on its stdout that were not JSON-RPC messages (reported and skipped). */
  readonly badLines: number;
  /** stdio: the server's pid (its process group id) while it runs. */
  readonly pid?: number;
  /** Tools whose definition differs from its pin, until the change is accepted (`acceptToolChanges`). */
  readonly pinChanges: readonly McpPinChange[];
}

export type { ConnectionEnvironment } from './connection-environment';

/** How many times one request may go through the app's redirect step (a first authorization, then a step-up). */
const MAX_AUTHORIZATION_ROUNDS = 2;

/**
 * One MCP server (lifecycle; registry sync is `registry-sync.ts`, call forwarding `call-forwarding.ts`): connects with retry and backoff, registers its tools (and keeps them in sync with
 * `notifications/tools/list_changed`), runs their calls, reconnects when the connection is lost, and gives up
 * (degraded mode: its tools unregistered, the app goes on with the others) when the policy is exhausted.
 */
export class McpServerConnection {
  readonly name: string;
  /** Settles once: connected, degraded or closed (never rejects). */
  readonly ready: Promise<McpServerStatus>;

  private state: McpServerState = 'connecting';
  private client?: Client;
  private transport?: Transport;
  private attempting?: { readonly client: Client; readonly transport: Transport };
  private readonly tools: RemoteToolSync;
  private readonly pins?: ServerPins;
  private readonly stderr: StderrTail;
  private readonly closing = new AbortController();
  private closed?: Promise<void>;
  private restarts: number[] = [];
  private error?: McpConnectionError;
  private badLines = 0;
  private resolveReady!: (status: McpServerStatus) => void;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private stopWatchingRegistry?: () => void;
  /** Behind OAuth: what every token key shares, the connection's own key and its authorization, the other keys' sessions. */
  private readonly oauthShared: OAuthServerState = {};
  private readonly primaryKey?: string;
  private primaryAuthorization?: KeyAuthorization;
  private readonly sessions?: KeyedSessions;

  constructor(
    private readonly config: McpServerConfig,
    private readonly environment: ConnectionEnvironment,
    private readonly auth?: ResolvedOAuthOptions,
  ) {
    this.name = config.name;
    if (auth !== undefined) {
      const key: unknown = auth.tokenKey(auth.connectionContext);
      if (typeof key !== 'string' || key === '')
        throw new DefinitionError(`tokenKey(connectionContext) returned ${JSON.stringify(key)}.`, {
          target: `connectMcpServers: server "${config.name}"`,
          property: 'auth.tokenKey',
          fix: 'return a non-empty string for every context, including the connection context ({} by default).',
        });
      this.primaryKey = key;
      this.sessions = new KeyedSessions(auth.maxSessions, (key) => this.openKeyedSession(key), endSession);
    }
    this.stderr = new StderrTail(environment.stderrTailChars);
    const host: CallForwardingHost = {
      name: config.name,
      config,
      environment,
      session: (context) => this.sessionFor(context),
      unknownTool: () => this.scheduleRefresh(),
      connectionLost: (client) => this.connectionLost(client),
    };
    this.tools = new RemoteToolSync(config.name, config, environment, (name, remoteName, contextNamed) =>
      remoteToolHandler(host, name, remoteName, contextNamed),
    );
    const pinning = environment.pinning;
    if (pinning !== undefined && config.pinning !== false)
      this.pins = new ServerPins(config.name, config.pinning ?? pinning.policy, pinning.store, environment.logger);
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
  }

  /** Starts connecting in the background. */
  start(): void {
    this.stopWatchingRegistry = this.environment.registry.onChange((change) => this.tools.registryChanged(change));
    void this.connectOrDegrade().then(() => this.resolveReady(this.status()));
  }

  status(): McpServerStatus {
    return Object.freeze({
      name: this.name,
      state: this.state,
      tools: Object.freeze(this.tools.names()),
      ...(this.error ? { error: this.error } : {}),
      badLines: this.badLines,
      ...(this.transport instanceof ProcessGroupStdioTransport && this.transport.pid !== undefined
        ? { pid: this.transport.pid }
        : {}),
      pinChanges: Object.freeze(this.pins?.changes() ?? []),
    });
  }

  /**
   * Accepts the changed definitions of this server's tools (all pending, or those named in `tools`, by registry or
   * remote name): pins them as listed now and registers them again without what the policy added (a blocked tool
   * joins the registry; an approval-gated one no longer asks). Returns the accepted changes.
   */
  async acceptToolChanges(tools?: readonly string[]): Promise<McpPinChange[]> {
    if (this.pins === undefined) return [];
    const accepted = await this.pins.accept(tools);
    if (accepted.length === 0) return accepted;
    this.tools.invalidate(accepted.map((change) => change.tool));
    await this.refreshTools();
    return accepted;
  }

  /** The captured tail of the server's stderr (stdio servers), from the current or last connection attempt. */
  stderrTail(): string {
    return this.stderr.toString();
  }

  /** Reads the server's tool list again and syncs the registry (what `tools/list_changed` triggers). */
  async refreshTools(): Promise<void> {
    this.scheduleRefresh();
    await this.refreshing;
  }

  /** Unregisters the tools and ends the connection (for stdio, the server's whole process group). Idempotent. */
  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.closing.abort();
    this.state = 'closed';
    this.stopWatchingRegistry?.();
    this.tools.unregisterAll();
    const transports = [this.transport, this.attempting?.transport];
    // Closed on purpose: what closing aborts (a request in flight, the cancellation the SDK then tries) is no error.
    if (this.client !== undefined) this.client.onerror = () => undefined;
    this.client = undefined;
    this.transport = undefined;
    await Promise.all([
      ...transports.filter((transport) => transport !== undefined).map(endTransport),
      this.sessions?.closeAll(),
    ]);
    this.resolveReady(this.status());
  }

  private async connectOrDegrade(): Promise<void> {
    const connected = await this.connectWithRetry();
    if (!connected && !this.closing.signal.aborted) this.degrade();
  }

  /** Tries per the policy; true once connected, false when every attempt failed (`this.error` says why) or on close. */
  private async connectWithRetry(): Promise<boolean> {
    const { policy, clock, logger } = this.environment;
    const delays = retryDelays(policy, () => clock.random());
    let lastError: unknown;
    for (let index = 0; index < delays.length; index++) {
      const attempt = index + 1;
      const delayMs = delays[index]!;
      logger.info(clientMessages.attempt(this.name, attempt, delays.length, delayMs), {
        server: this.name,
        attempt,
        attempts: delays.length,
        delayMs,
      });
      if (delayMs > 0) await clock.sleep(delayMs, this.closing.signal);
      if (this.closing.signal.aborted) return false;
      try {
        await this.attempt();
        return true;
      } catch (error) {
        if (this.closing.signal.aborted) return false;
        lastError = error;
        logger.warn(clientMessages.attemptFailed(this.name, attempt, delays.length, error), {
          server: this.name,
          attempt,
          attempts: delays.length,
        });
        // The user declined, or the app's redirect step failed: asking again at once would not change that.
        if (error instanceof McpAuthorizationError && error.step === 'authorization') break;
      }
    }
    const stderr = this.stderr.toString();
    this.error = new McpConnectionError(
      clientMessages.connectionFailed(this.name, delays.length, lastError, stderr),
      this.name,
      delays.length,
      stderr,
      { cause: lastError },
    );
    return false;
  }

  /** One connection attempt: start the transport, initialize, read the tools, register them. */
  private async attempt(): Promise<void> {
    this.stderr.clear();
    if (this.auth !== undefined && this.primaryKey !== undefined) {
      const context = this.auth.connectionContext;
      this.primaryAuthorization = this.newAuthorization(this.primaryKey, context);
    }
    const authorization = this.primaryAuthorization;
    try {
      await this.connectAndList(authorization);
    } finally {
      this.attempting = undefined;
    }
  }

  private async connectAndList(authorization: KeyAuthorization | undefined): Promise<void> {
    const { logger } = this.environment;
    const { client, transport } = await this.connectClient(authorization, true);
    try {
      const list = () => listAllTools(client, this.name, this.environment, this.closing.signal);
      const tools =
        authorization === undefined
          ? await list()
          : await authorization.retrying(transport as StreamableHTTPClientTransport, this.closing.signal, list);
      if (this.closing.signal.aborted) throw new Error('closed');
      const round = await this.pins?.begin();
      if (this.closing.signal.aborted) throw new Error('closed');
      this.client = client;
      this.transport = transport;
      this.state = 'connected';
      this.tools.sync(tools, round);
      await this.finishPins(round, tools);
      logger.info(clientMessages.connected(this.name, this.tools.size), {
        server: this.name,
        tools: this.tools.names(),
      });
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A new client on a new transport, initialized. Behind OAuth, a request the server answers 401 (or 403 for more
   * scope) runs the SDK's flow; when that needs the user, the app's redirect step runs and the connection is made
   * again with the new token.
   */
  private async connectClient(
    authorization: KeyAuthorization | undefined,
    primary: boolean,
  ): Promise<{ client: Client; transport: Transport }> {
    for (let round = 0; ; round++) {
      const transport = this.createTransport(authorization);
      const client = this.createClient(primary);
      if (primary) this.attempting = { client, transport };
      try {
        await client.connect(transport, { timeout: this.environment.connectTimeoutMs });
        return { client, transport };
      } catch (error) {
        await transport.close().catch(() => undefined);
        if (authorization === undefined) throw error;
        if (
          round < MAX_AUTHORIZATION_ROUNDS &&
          !this.closing.signal.aborted &&
          (await authorization.complete(transport as StreamableHTTPClientTransport, error, this.closing.signal))
        )
          continue;
        throw authorization.explain(error);
      }
    }
  }

  /** The SDK client of one connection: the bounded schema validator, and elicitation when the app answers it. */
  private createClient(primary: boolean): Client {
    const { logger, onElicitation, resolvedSchemaLimits } = this.environment;
    const validator = new BoundedJsonSchemaValidator(resolvedSchemaLimits, (problem) =>
      logger.warn(clientMessages.outputSchemaRefused(this.name, problem), { server: this.name }),
    );
    const client = new Client(
      { name: this.environment.clientInfo.name, version: this.environment.clientInfo.version },
      {
        capabilities: elicitationCapabilities(onElicitation),
        jsonSchemaValidator: validator,
        ...versionNegotiation(this.config.protocol),
        ...(primary
          ? { listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => this.scheduleRefresh() } } }
          : {}),
      },
    );
    if (onElicitation) answerElicitations(client, this.name, onElicitation, validator, resolvedSchemaLimits, logger);
    client.onerror = (error) => this.reportError(error);
    if (primary) client.onclose = () => this.connectionClosed(client);
    else client.onclose = () => this.sessions?.drop(client);
    return client;
  }

  private newAuthorization(key: string, context: ExecutionContext): KeyAuthorization {
    const config = this.config;
    if (this.auth === undefined || isStdioConfig(config)) throw new Error('no OAuth for this server');
    return new KeyAuthorization(
      this.name,
      key,
      this.auth,
      this.oauthShared,
      new URL(String(config.url)),
      () => remoteCallScope.getStore()?.invocation.context ?? context,
    );
  }

  private keyOf(context: ExecutionContext): string {
    const key: unknown = this.auth!.tokenKey(context);
    if (typeof key !== 'string' || key === '') throw new HandlerError(clientMessages.noTokenKey(this.name));
    return key;
  }

  /** The connection a call with this trusted context travels on (undefined while the server is not connected). */
  private async sessionFor(context: ExecutionContext): Promise<CallSession | undefined> {
    const client = this.client;
    if (client === undefined) return undefined;
    if (this.auth === undefined) return { client };
    const key = this.keyOf(context);
    if (key === this.primaryKey)
      return {
        client,
        transport: this.transport as StreamableHTTPClientTransport,
        authorization: this.primaryAuthorization,
      };
    const lease = await this.sessions!.acquire(key);
    return { ...lease.session, release: lease.release };
  }

  /** A connection for another token key, opened on its first call (the authorization is that call's user's). */
  private async openKeyedSession(key: string): Promise<McpSession> {
    const context = remoteCallScope.getStore()?.invocation.context ?? this.auth!.connectionContext;
    const authorization = this.newAuthorization(key, context);
    const { client, transport } = await this.connectClient(authorization, false);
    return { client, transport: transport as StreamableHTTPClientTransport, authorization };
  }

  private createTransport(authorization?: KeyAuthorization): Transport {
    const config = this.config;
    if (isStdioConfig(config)) {
      const environment = this.environment;
      return new ProcessGroupStdioTransport({
        command: config.command,
        args: config.args,
        env: config.env,
        cwd: config.cwd,
        maxBufferSize: environment.maxLineBytes,
        stdinGraceMs: environment.stdinGraceMs,
        terminateGraceMs: environment.terminateGraceMs,
        descendantScanMs: environment.descendantScanMs,
        reaper: environment.reaper,
        onStderr: (text) => {
          this.stderr.append(text);
          environment.logger.debug(clientMessages.stderr(this.name, text), { server: this.name });
        },
      });
    }
    const fetch = boundedFetch(this.environment.maxResponseBytes, this.name);
    return new StreamableHTTPClientTransport(new URL(String(config.url)), {
      requestInit: { headers: { ...config.headers } },
      fetch: authorization ? authorization.fetch(fetch) : fetch,
      ...(authorization ? { authProvider: authorization.provider } : {}),
    });
  }

  /** A transport error the client does not turn into a close (HTTP: the server went away, or forgot the session). */
  private connectionLost(client: Client): void {
    if (client !== this.client) {
      this.sessions?.drop(client);
      return;
    }
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    void transport?.close().catch(() => undefined);
    void this.reconnect();
  }

  /** The client's `onclose`: for the live connection, the server went away. */
  private connectionClosed(client: Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.transport = undefined;
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    if (this.closing.signal.aborted) return;
    const { policy, clock, logger } = this.environment;
    logger.warn(clientMessages.disconnected(this.name, this.stderr.toString()), { server: this.name });
    const now = clock.now();
    this.restarts = this.restarts.filter((time) => now - time < policy.restartWindowMs);
    this.restarts.push(now);
    if (this.restarts.length > policy.maxRestarts) {
      const stderr = this.stderr.toString();
      this.error = new McpConnectionError(
        clientMessages.restartBudgetExhausted(this.name, this.restarts.length, policy.restartWindowMs),
        this.name,
        0,
        stderr,
      );
      this.degrade();
      return;
    }
    this.state = 'reconnecting';
    await this.connectOrDegrade();
  }

  /** Gives the server up: its tools leave the registry, the app goes on with the rest. */
  private degrade(): void {
    const { logger, registry } = this.environment;
    this.state = 'degraded';
    this.tools.unregisterAll();
    if (this.error) logger.error(this.error.message, { server: this.name, attempts: this.error.attempts });
    logger.warn(clientMessages.degraded(this.name, registry.size), { server: this.name, tools: registry.size });
  }

  private reportError(error: Error): void {
    const { logger } = this.environment;
    // The transport reports the SDK's call for the user's authorization here too; the request's caller handles it.
    if (error instanceof UnauthorizedError) return;
    if (error instanceof UnparsableLineError) {
      this.badLines++;
      logger.warn(clientMessages.badLine(this.name, error), { server: this.name, badLines: this.badLines });
      return;
    }
    logger.warn(clientMessages.protocolError(this.name, error), { server: this.name });
  }

  /**
   * Records a sync's pins. A store that cannot write is logged and the sync stands: the tools seen for the first time
   * stay unpinned, to be pinned as first seen by a later connection (a store that cannot be read fails the sync before
   * anything registers).
   */
  private async finishPins(round: PinRound | undefined, tools: readonly Tool[]): Promise<void> {
    if (round === undefined || this.pins === undefined) return;
    try {
      await this.pins.finish(round, new Set(tools.map((tool) => tool.name)));
    } catch (error) {
      this.environment.logger.error(clientMessages.pinStoreFailed(this.name, error), { server: this.name });
    }
  }

  private scheduleRefresh(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.refreshLoop().finally(() => {
      this.refreshing = undefined;
    });
  }

  private async refreshLoop(): Promise<void> {
    const { logger } = this.environment;
    do {
      this.refreshAgain = false;
      const client = this.client;
      if (client === undefined) return;
      try {
        const tools = await listAllTools(client, this.name, this.environment, this.closing.signal);
        const round = await this.pins?.begin();
        if (client !== this.client) return;
        const counts = this.tools.sync(tools, round);
        await this.finishPins(round, tools);
        if (counts.added + counts.changed + counts.removed > 0) {
          logger.info(clientMessages.toolsRefreshed(this.name, counts.added, counts.changed, counts.removed), {
            server: this.name,
            ...counts,
            tools: this.tools.names(),
          });
        }
      } catch (error) {
        logger.warn(clientMessages.refreshFailed(this.name, error), { server: this.name });
      }
    } while (this.refreshAgain);
  }
}

/** The SDK client's negotiation for a server's `protocol` (absent or `'legacy'`: none, the 2025 handshake). */
function versionNegotiation(protocol: McpServerConfig['protocol']): Pick<ClientOptions, 'versionNegotiation'> {
  if (protocol === undefined || protocol === 'legacy') return {};
  return { versionNegotiation: { mode: protocol === 'auto' ? 'auto' : { pin: protocol } } };
}

/** How long `close()` gives an HTTP server to acknowledge the end of the session. */
const TERMINATE_SESSION_TIMEOUT_MS = 1_000;

function endSession(session: McpSession): Promise<void> {
  // Closed on purpose (evicted once its last call ended, lost, or shutdown): what closing aborts (a response stream
  // still open after its result, the cancellation the SDK then tries to send) is not a protocol error to report.
  session.client.onerror = () => undefined;
  return endTransport(session.transport);
}

/** Closes a transport; over HTTP, first ends the session on the server (DELETE), as the spec asks of a client leaving. */
async function endTransport(transport: Transport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      transport.terminateSession().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, TERMINATE_SESSION_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
  await transport.close().catch(() => undefined);
}
