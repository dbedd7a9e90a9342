import { HandlerError, ServiceUnavailableError, TimeoutError, ToolCallError, ToolwrightError, type JsonSchemaLimits, type Logger, type ToolHandler, type ToolInvocationContext, type ToolRegistry, type ToolRegistryChange } from '@toolwright/core';
import { isNetworkError } from '@toolwright/core/internal';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionError } from '../errors/mcp-connection-error';
import { clientMessages } from '../messages';
import { McpResponseTooLargeError } from '../errors/mcp-response-too-large-error';
import { BoundedJsonSchemaValidator } from './bounded-schema-validator';
import { boundedFetch, RESPONSE_TOO_LARGE_CODE } from './bounded-fetch';
import { isStdioConfig, type McpServerConfig } from './config';
import { ProcessGroupStdioTransport, UnparsableLineError } from './process-group-stdio-transport';
import type { ProcessGroupReaper } from './process-group';
import { ACCEPTED_TOOL_NAME, MCP_TOOL_NAME } from '../tool-names';
import { contextNamedParameters, errorTextOfResult, importRemoteTool, valueOfResult } from './remote-tools';
import { retryDelays, type McpClock, type McpRetryPolicy } from './retry-policy';
import { StderrTail } from './stderr-tail';

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
}

/** What every connection shares (resolved once by `connectMcpServers`). */
export interface ConnectionEnvironment {
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  readonly policy: McpRetryPolicy;
  readonly clock: McpClock;
  readonly connectTimeoutMs: number;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly schemaLimits?: Partial<JsonSchemaLimits>;
  readonly resolvedSchemaLimits: JsonSchemaLimits;
  readonly maxTools: number;
  readonly maxLineBytes?: number;
  readonly maxResultChars: number;
  readonly maxResponseBytes: number;
  readonly stderrTailChars: number;
  readonly stdinGraceMs?: number;
  readonly terminateGraceMs?: number;
  readonly descendantScanMs?: number;
  readonly reaper: ProcessGroupReaper | null;
}

interface OwnedTool {
  readonly remoteName: string;
  /** The tool as listed, serialized: an unchanged tool is not registered again on a refresh. */
  readonly fingerprint: string;
  /** The handler registered for it: the registry entry is this connection's only while it holds this function. */
  readonly handler: ToolHandler;
  /** Its registry name as the executor compares names (see `canonicalName`). */
  readonly canonical: string;
}

/** Pages of `tools/list` read at most (with `maxTools`, bounds what one server can make us hold). */
const MAX_LIST_PAGES = 100;
/** Added to a tool's timeout for the SDK's own request timeout, so the executor's TIMEOUT (and cancellation) comes first. */
const REQUEST_TIMEOUT_MARGIN_MS = 1_000;

/**
 * One MCP server: connects with retry and backoff, registers its tools (and keeps them in sync with
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
  private readonly owned = new Map<string, OwnedTool>();
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

  constructor(
    private readonly config: McpServerConfig,
    private readonly environment: ConnectionEnvironment,
  ) {
    this.name = config.name;
    this.stderr = new StderrTail(environment.stderrTailChars);
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
  }

  /** Starts connecting in the background. */
  start(): void {
    this.stopWatchingRegistry = this.environment.registry.onChange((change) => this.registryChanged(change));
    void this.connectOrDegrade().then(() => this.resolveReady(this.status()));
  }

  status(): McpServerStatus {
    return Object.freeze({
      name: this.name,
      state: this.state,
      tools: Object.freeze([...this.owned.keys()]),
      ...(this.error ? { error: this.error } : {}),
      badLines: this.badLines,
      ...(this.transport instanceof ProcessGroupStdioTransport && this.transport.pid !== undefined ? { pid: this.transport.pid } : {}),
    });
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
    this.unregisterAll();
    const transports = [this.transport, this.attempting?.transport];
    this.client = undefined;
    this.transport = undefined;
    await Promise.all(transports.map((transport) => transport && endTransport(transport)));
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
      logger.info(clientMessages.attempt(this.name, attempt, delays.length, delayMs), { server: this.name, attempt, attempts: delays.length, delayMs });
      if (delayMs > 0) await clock.sleep(delayMs, this.closing.signal);
      if (this.closing.signal.aborted) return false;
      try {
        await this.attempt();
        return true;
      } catch (error) {
        if (this.closing.signal.aborted) return false;
        lastError = error;
        logger.warn(clientMessages.attemptFailed(this.name, attempt, delays.length, error), { server: this.name, attempt, attempts: delays.length });
      }
    }
    const stderr = this.stderr.toString();
    this.error = new McpConnectionError(clientMessages.connectionFailed(this.name, delays.length, lastError, stderr), this.name, delays.length, stderr, { cause: lastError });
    return false;
  }

  /** One connection attempt: start the transport, initialize, read the tools, register them. */
  private async attempt(): Promise<void> {
    const { logger, connectTimeoutMs } = this.environment;
    this.stderr.clear();
    const transport = this.createTransport();
    const client = new Client(
      { name: this.environment.clientInfo.name, version: this.environment.clientInfo.version },
      {
        capabilities: {},
        jsonSchemaValidator: new BoundedJsonSchemaValidator(this.environment.resolvedSchemaLimits, (problem) =>
          logger.warn(clientMessages.outputSchemaRefused(this.name, problem), { server: this.name }),
        ),
        listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => this.scheduleRefresh() } },
      },
    );
    client.onerror = (error) => this.reportError(error);
    client.onclose = () => this.connectionClosed(client);
    this.attempting = { client, transport };
    try {
      await client.connect(transport, { timeout: connectTimeoutMs });
      const tools = await this.listAllTools(client);
      if (this.closing.signal.aborted) throw new Error('closed');
      this.client = client;
      this.transport = transport;
      this.state = 'connected';
      this.sync(tools);
      logger.info(clientMessages.connected(this.name, this.owned.size), { server: this.name, tools: [...this.owned.keys()] });
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    } finally {
      this.attempting = undefined;
    }
  }

  private createTransport(): Transport {
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
    return new StreamableHTTPClientTransport(new URL(String(config.url)), {
      requestInit: { headers: { ...config.headers } },
      fetch: boundedFetch(this.environment.maxResponseBytes, this.name),
    });
  }

  private async listAllTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.environment.connectTimeoutMs, signal: this.closing.signal });
      tools.push(...result.tools);
      if (tools.length > this.environment.maxTools) {
        this.environment.logger.warn(clientMessages.toolListTruncated(this.name, this.environment.maxTools), { server: this.name });
        return tools.slice(0, this.environment.maxTools);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** Brings the registry in line with the server's list: new tools registered, changed ones replaced, gone ones removed. */
  private sync(tools: readonly Tool[]): { added: number; changed: number; removed: number } {
    const { registry, logger } = this.environment;
    const counts = { added: 0, changed: 0, removed: 0 };
    const listed = new Set<string>();
    const claims = this.claims();
    const skip = (tool: string, reason: string) => logger.warn(clientMessages.toolSkipped(this.name, tool, reason), { server: this.name, tool });
    for (const tool of tools) {
      if (!ACCEPTED_TOOL_NAME.test(tool.name)) {
        skip(tool.name, clientMessages.toolNameInvalid());
        continue;
      }
      if (!MCP_TOOL_NAME.test(tool.name)) logger.warn(clientMessages.toolNameOutsideSpec(this.name, tool.name), { server: this.name, tool: tool.name });
      if (tool.execution?.taskSupport === 'required') {
        skip(tool.name, clientMessages.taskRequired());
        continue;
      }
      const name = this.registryName(tool.name);
      if (listed.has(name)) continue;
      listed.add(name);
      const fingerprint = JSON.stringify(tool);
      let previous = this.owned.get(name);
      if (previous !== undefined && !this.holds(name, previous)) {
        // Someone else registered this name since (a local tool): it is theirs now.
        this.owned.delete(name);
        previous = undefined;
      }
      if (previous?.fingerprint === fingerprint) continue;
      if (previous === undefined && registry.has(name)) {
        skip(tool.name, clientMessages.toolNameTaken(name));
        continue;
      }
      const claimant = claims.get(canonicalName(name));
      if (claimant !== undefined) {
        skip(tool.name, clientMessages.toolNameShadows(name, claimant));
        if (previous !== undefined) {
          this.release(name);
          counts.removed++;
        }
        continue;
      }
      try {
        const definition = importRemoteTool(tool, {
          server: this.name,
          namespace: this.namespace(),
          aliases: this.config.parameterAliases?.[tool.name],
          limits: this.environment.schemaLimits,
          trustAnnotations: this.config.trustAnnotations === true,
          ...(this.config.contextParameters !== undefined ? { contextParameters: this.config.contextParameters } : {}),
          toolOptions: {
            ...(this.config.timeoutMs !== undefined ? { timeoutMs: this.config.timeoutMs } : {}),
            ...(this.config.tags !== undefined ? { tags: this.config.tags } : {}),
            ...(this.config.permissions !== undefined ? { permissions: this.config.permissions } : {}),
          },
          warn: (message) => logger.warn(message, { server: this.name, tool: tool.name }),
        });
        const forwarded = this.config.contextParameters === 'forward' ? contextNamedParameters(tool) : [];
        const handler = this.handlerFor(name, tool.name, forwarded);
        if (previous !== undefined) registry.unregister(name);
        this.owned.set(name, { remoteName: tool.name, fingerprint, handler, canonical: canonicalName(name) });
        registry.registerDefinition(definition, { kind: 'function', handler });
        if (previous === undefined) counts.added++;
        else counts.changed++;
      } catch (error) {
        skip(tool.name, error instanceof Error ? error.message : String(error));
        if (previous !== undefined || this.owned.has(name)) {
          this.release(name);
          counts.removed++;
        }
      }
    }
    for (const name of [...this.owned.keys()]) {
      if (listed.has(name)) continue;
      this.release(name);
      counts.removed++;
    }
    return counts;
  }

  /** Whether the registry's entry `name` is still the one this connection registered. */
  private holds(name: string, tool: OwnedTool | undefined = this.owned.get(name)): boolean {
    const implementation = this.environment.registry.getEntry(name)?.implementation;
    return tool !== undefined && implementation?.kind === 'function' && implementation.handler === tool.handler;
  }

  /** Forgets a tool, and unregisters it only when the registry entry is still this connection's. */
  private release(name: string): void {
    const held = this.holds(name);
    this.owned.delete(name);
    if (held) this.environment.registry.unregister(name);
  }

  /**
   * The names a remote tool of this connection may not take, as canonical name -> the tool that claims it: the name
   * and every alias of each tool not of this connection (the executor resolves a name exactly first, so a remote
   * tool named like another tool's alias, or like its name in another case, would take that tool's calls).
   */
  private claims(): Map<string, string> {
    const claims = new Map<string, string>();
    for (const entry of this.environment.registry.entries()) {
      const other = entry.definition.name;
      if (this.holds(other)) continue;
      for (const claimed of [other, ...(entry.definition.options.aliases ?? [])]) {
        const key = canonicalName(claimed);
        if (!claims.has(key)) claims.set(key, other);
      }
    }
    return claims;
  }

  /** A tool registered by anyone else that claims the name (or an alias) of one of ours: ours gives way. */
  private registryChanged(change: ToolRegistryChange): void {
    if (change.type === 'unregistered' || this.owned.size === 0) return;
    const owned = this.owned.get(change.name);
    if (owned !== undefined && this.holds(change.name, owned)) return;
    if (owned !== undefined) {
      // Replaced under our feet: the registry holds the newcomer; nothing of ours to remove.
      this.owned.delete(change.name);
      this.environment.logger.warn(clientMessages.toolGaveWay(this.name, change.name, change.name), { server: this.name, tool: change.name });
      return;
    }
    const claimed = new Set([change.name, ...(change.definition.options.aliases ?? [])].map(canonicalName));
    for (const [name, tool] of [...this.owned]) {
      if (!claimed.has(tool.canonical)) continue;
      this.release(name);
      this.environment.logger.warn(clientMessages.toolGaveWay(this.name, name, change.name), { server: this.name, tool: name });
    }
  }

  private namespace(): string | undefined {
    const namespace = this.config.namespace;
    if (namespace === false || namespace === '') return undefined;
    return namespace ?? this.name;
  }

  private registryName(remoteName: string): string {
    const namespace = this.namespace();
    return namespace === undefined ? remoteName : `${namespace}.${remoteName}`;
  }

  /** The function the registry runs for one remote tool: a `tools/call` on the current connection. */
  private handlerFor(name: string, remoteName: string, contextNamed: readonly string[] = []): ToolHandler {
    const requestTimeoutMs = (this.config.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MSEC) + REQUEST_TIMEOUT_MARGIN_MS;
    return async (params: Record<string, unknown>, invocation: ToolInvocationContext) => {
      const client = this.client;
      if (client === undefined) throw new ServiceUnavailableError(clientMessages.unavailable(name, this.name));
      const sent = contextNamed.filter((parameter) => Object.hasOwn(params, parameter));
      if (sent.length > 0) {
        this.environment.logger.warn(clientMessages.contextNameForwarded(this.name, name, sent), {
          server: this.name, tool: name, callId: invocation.callId, parameters: sent, sessionId: invocation.context.sessionId,
        });
      }
      try {
        // The executor's signal fires on its timeout or the caller's cancellation; the SDK then sends notifications/cancelled.
        const result = (await client.callTool({ name: remoteName, arguments: params }, undefined, { signal: invocation.signal, timeout: requestTimeoutMs })) as CallToolResult;
        if (result.isError === true) throw new HandlerError(clientMessages.remoteToolError(name, errorTextOfResult(result)));
        return valueOfResult(result, this.environment.maxResultChars);
      } catch (error) {
        throw this.callError(error, name, client, invocation.signal, requestTimeoutMs);
      }
    };
  }

  private callError(error: unknown, name: string, client: Client, signal: AbortSignal, requestTimeoutMs: number): Error {
    if (ToolwrightError.isInstance(error) && error instanceof ToolCallError) return error;
    if (signal.aborted && signal.reason instanceof Error) return signal.reason;
    if (error instanceof McpResponseTooLargeError || (error instanceof McpError && error.code === RESPONSE_TOO_LARGE_CODE)) {
      return new HandlerError(clientMessages.resultTooLarge(name, this.environment.maxResponseBytes), { cause: error });
    }
    if (error instanceof McpError) {
      if (error.code === ErrorCode.ConnectionClosed) return new ServiceUnavailableError(clientMessages.unavailable(name, this.name), { cause: error });
      if (error.code === ErrorCode.RequestTimeout) return new TimeoutError(clientMessages.remoteTimeout(name, requestTimeoutMs), { cause: error });
      // The server does not know the tool (any more): its list changed without a notification.
      if (error.code === ErrorCode.InvalidParams || error.code === ErrorCode.MethodNotFound) this.scheduleRefresh();
      return new HandlerError(clientMessages.remoteRejected(name, error.message), { cause: error });
    }
    if (isNetworkError(error) || isTransportFailure(error)) {
      this.connectionLost(client);
      return new ServiceUnavailableError(clientMessages.unavailable(name, this.name), { cause: error });
    }
    return new HandlerError(clientMessages.remoteFailed(name), { cause: error });
  }

  /** A transport error the client does not turn into a close (HTTP: the server went away, or forgot the session). */
  private connectionLost(client: Client): void {
    if (client !== this.client) return;
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
      this.error = new McpConnectionError(clientMessages.restartBudgetExhausted(this.name, this.restarts.length, policy.restartWindowMs), this.name, 0, stderr);
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
    this.unregisterAll();
    if (this.error) logger.error(this.error.message, { server: this.name, attempts: this.error.attempts });
    logger.warn(clientMessages.degraded(this.name, registry.size), { server: this.name, tools: registry.size });
  }

  private unregisterAll(): void {
    for (const name of [...this.owned.keys()]) this.release(name);
  }

  private reportError(error: Error): void {
    const { logger } = this.environment;
    if (error instanceof UnparsableLineError) {
      this.badLines++;
      logger.warn(clientMessages.badLine(this.name, error), { server: this.name, badLines: this.badLines });
      return;
    }
    logger.warn(clientMessages.protocolError(this.name, error), { server: this.name });
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
        const tools = await this.listAllTools(client);
        if (client !== this.client) return;
        const counts = this.sync(tools);
        if (counts.added + counts.changed + counts.removed > 0) {
          logger.info(clientMessages.toolsRefreshed(this.name, counts.added, counts.changed, counts.removed), { server: this.name, ...counts, tools: [...this.owned.keys()] });
        }
      } catch (error) {
        logger.warn(clientMessages.refreshFailed(this.name, error), { server: this.name });
      }
    } while (this.refreshAgain);
  }
}

/** How long `close()` gives an HTTP server to acknowledge the end of the session. */
const TERMINATE_SESSION_TIMEOUT_MS = 1_000;

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

/** A tool name as the executor compares names when the exact one is not found: letters and digits, lower case. */
function canonicalName(name: string): string {
  return name.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}

function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // StreamableHTTPError carries the HTTP status as `code`: 404 is a session the server no longer has.
  if (error instanceof StreamableHTTPError) return error.code === undefined || error.code === 404 || error.code >= 500;
  return error.message === 'Not connected';
}
