import { defaultLogger, DEFAULT_JSON_SCHEMA_LIMITS, DefinitionError, type ToolRegistry } from '@toolwright/core';
import {
  checkServerConfigs,
  isStdioConfig,
  PIN_POLICIES,
  type ConnectMcpServersOptions,
  type McpServerConfig,
} from './config';
import { resolveOAuthOptions, type ResolvedOAuthOptions } from './oauth/oauth-options';
import { McpServerConnection, type McpServerStatus } from './mcp-server-connection';
import { processGroupReaper } from './process-group';
import { DEFAULT_MAX_RESULT_CHARS } from './remote-tools';
import { resolveRetryPolicy, systemClock } from './retry-policy';
import { MemoryToolPinStore, type ToolPinStore } from './pinning/tool-pin-store';
import type { McpPinPolicy } from './pinning/tool-pinning';

/** Default of `maxResponseBytes`: the SDK's stdio line cap, so both transports read the same largest message. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

function positiveInteger(value: number | undefined, fallback: number, name: string, unit: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0)) {
    throw new DefinitionError(`${name} is ${String(value)}.`, {
      target: 'connectMcpServers',
      property: name,
      fix: `use a positive whole number of ${unit}.`,
    });
  }
  return value;
}

/** Every server's status once each has connected, gone degraded or been closed. */
export interface McpConnectionsReport {
  readonly servers: readonly McpServerStatus[];
  readonly connected: readonly string[];
  readonly degraded: readonly string[];
}

/** The handle `connectMcpServers` returns at once; the connections proceed in the background. */
export class McpConnections {
  /** Settles (never rejects) when every server has connected, gone degraded (see its status) or been closed. */
  readonly ready: Promise<McpConnectionsReport>;
  private readonly connections: ReadonlyMap<string, McpServerConnection>;

  /** @internal use `connectMcpServers`. */
  constructor(connections: readonly McpServerConnection[]) {
    this.connections = new Map(connections.map((connection) => [connection.name, connection]));
    this.ready = Promise.all(connections.map((connection) => connection.ready)).then((servers) => report(servers));
  }

  get(name: string): McpServerConnection | undefined {
    return this.connections.get(name);
  }

  list(): McpServerConnection[] {
    return [...this.connections.values()];
  }

  /** Current status of every server. */
  status(): McpServerStatus[] {
    return this.list().map((connection) => connection.status());
  }

  /** Unregisters every server's tools and ends every connection (stdio: each server's whole process group). */
  async close(): Promise<void> {
    await Promise.all(this.list().map((connection) => connection.close()));
  }
}

function report(servers: readonly McpServerStatus[]): McpConnectionsReport {
  return Object.freeze({
    servers: Object.freeze([...servers]),
    connected: Object.freeze(servers.filter((server) => server.state === 'connected').map((server) => server.name)),
    degraded: Object.freeze(servers.filter((server) => server.state === 'degraded').map((server) => server.name)),
  });
}

/** The pin store and default policy: set when the options ask for pinning or any server sets a policy of its own. */
function resolvePinning(
  servers: readonly McpServerConfig[],
  options: ConnectMcpServersOptions,
): { store: ToolPinStore; policy: McpPinPolicy } | undefined {
  const pinning = options.pinning;
  if (pinning === undefined && !servers.some((server) => server.pinning !== undefined && server.pinning !== false))
    return undefined;
  const policy = pinning?.policy ?? 'block';
  if (!PIN_POLICIES.has(policy))
    throw new DefinitionError(`pinning.policy is ${JSON.stringify(policy)}.`, {
      target: 'connectMcpServers',
      fix: "use 'warn', 'block' or 'approve'.",
    });
  const store = pinning?.store ?? new MemoryToolPinStore();
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.getPins !== 'function' ||
    typeof store.setPins !== 'function'
  )
    throw new DefinitionError('pinning.store is not a ToolPinStore.', {
      target: 'connectMcpServers',
      fix: 'pass a MemoryToolPinStore, a FileToolPinStore or an object with getPins, setPins and deletePins.',
    });
  return { store, policy };
}

/** The OAuth options of one server, checked: its own `auth`, else the options' (HTTP servers only). */
function serverAuth(server: McpServerConfig, options: ConnectMcpServersOptions): ResolvedOAuthOptions | undefined {
  if (isStdioConfig(server)) return undefined;
  const auth = server.auth === undefined ? options.auth : server.auth;
  if (auth === undefined || auth === false) return undefined;
  return resolveOAuthOptions(auth, `connectMcpServers: server "${server.name}"`);
}

/**
 * Connects to MCP servers (stdio: command, args, env, cwd; Streamable HTTP: url, headers) and registers their tools
 * in `registry`, namespaced (`server.tool`), so they run through the executor like local commands. Returns at
 * once: connecting, retrying (3 attempts at 0 s, 2 s, 4 s by default) and degrading happen in the background, so
 * unrelated startup work never waits; await `ready` to wait for them. A server that cannot be reached is logged with
 * its stderr and left out (degraded mode); the app continues with the other tools.
 */
export function connectMcpServers(
  registry: ToolRegistry,
  servers: readonly McpServerConfig[],
  options: ConnectMcpServersOptions = {},
): McpConnections {
  if (!Array.isArray(servers)) throw new DefinitionError('servers is not an array.', { target: 'connectMcpServers' });
  checkServerConfigs(servers);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  if (!(Number.isFinite(connectTimeoutMs) && connectTimeoutMs > 0)) {
    throw new DefinitionError(`connectTimeoutMs is ${String(connectTimeoutMs)}.`, {
      target: 'connectMcpServers',
      fix: 'use a positive number of milliseconds.',
    });
  }
  const maxResultChars = positiveInteger(
    options.maxResultChars,
    DEFAULT_MAX_RESULT_CHARS,
    'maxResultChars',
    'characters',
  );
  const maxResponseBytes = positiveInteger(
    options.maxResponseBytes,
    DEFAULT_MAX_RESPONSE_BYTES,
    'maxResponseBytes',
    'bytes',
  );
  const environment = {
    registry,
    logger: options.logger ?? defaultLogger,
    policy: resolveRetryPolicy(options.retry),
    clock: options.clock ?? systemClock,
    connectTimeoutMs,
    clientInfo: options.clientInfo ?? { name: 'toolwright', version: '0.1.0' },
    schemaLimits: options.schemaLimits,
    resolvedSchemaLimits: { ...DEFAULT_JSON_SCHEMA_LIMITS, ...options.schemaLimits },
    maxTools: options.maxTools ?? 1_000,
    maxLineBytes: options.maxLineBytes,
    maxResultChars,
    maxResponseBytes,
    stderrTailChars: options.stderrTailChars ?? 4_096,
    stdinGraceMs: options.shutdown?.stdinGraceMs,
    terminateGraceMs: options.shutdown?.terminateGraceMs,
    descendantScanMs: options.shutdown?.descendantScanMs,
    reaper: options.reapOnExit === false ? null : (options.reaper ?? processGroupReaper),
    onElicitation: options.onElicitation,
    pinning: resolvePinning(servers, options),
  };
  if (options.onElicitation !== undefined && typeof options.onElicitation !== 'function')
    throw new DefinitionError('onElicitation is not a function.', { target: 'connectMcpServers' });
  const auths = servers.map((server) => serverAuth(server, options));
  const connections = servers.map((server, index) => new McpServerConnection(server, environment, auths[index]));
  for (const connection of connections) connection.start();
  return new McpConnections(connections);
}
