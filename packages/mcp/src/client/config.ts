import { DefinitionError, type JsonSchemaLimits, type Logger } from '@toolwright/core';
import type { McpClock, McpRetryPolicy } from './retry-policy';
import type { ProcessGroupReaper } from './process-group';
import type { McpElicitationHandler } from './elicitation';
import type { McpOAuthOptions } from './oauth/oauth-options';
import type { McpPinningOptions, McpPinPolicy } from './pinning/tool-pinning';

/** What every MCP server entry may set, whatever its transport. */
export interface McpServerCommonConfig {
  /** The server's name: in logs and errors, and the default namespace of its tools (`zwave` -> `zwave.control_zwave_device`). */
  readonly name: string;
  /** Prefix of its tools' registry names; default: the server's name. `false` registers them under their own names. */
  readonly namespace?: string | false;
  /**
   * Static renames per remote tool (its name as the server lists it): the key the model sends -> the parameter in the
   * tool's schema, e.g. `{ control_zwave_device: { device_name: 'deviceName', command: 'action' } }`. Each becomes a
   * declared alias, so the executor applies it and records an `alias-key` transformation; names not in the table go
   * through the executor's snake/camel/kebab heuristic (`key-case`). Local tools are never affected.
   */
  readonly parameterAliases?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Handler timeout of this server's tools (the executor's TIMEOUT; a cancellation is sent to the server). Default: the executor's. */
  readonly timeoutMs?: number;
  /** Keep the server's behaviour hints (readOnlyHint, destructiveHint, ...) on its tools. Default false: hints from a server are untrusted. */
  readonly trustAnnotations?: boolean;
  /**
   * What to do with a tool's top-level parameters named like trusted context (`session_id`, `job_id`, `persona`, ...
   * in any case or spelling). `'withhold'` (default): removed from the tool (a lint warning at registration); the
   * model never sees them, a value it sends is dropped and logged as a security event, and a tool that requires one
   * is not registered. `'forward'`: kept as ordinary arguments the model fills; a lint warning at registration and a
   * security event for each call that sends one. Never filled from the trusted context in either mode: the session's
   * own ids do not leave the process.
   */
  readonly contextParameters?: 'withhold' | 'forward';
  /** Tags added to every tool of this server (persona allow-lists by tag). */
  readonly tags?: readonly string[];
  /** Permissions a persona needs to call this server's tools. */
  readonly permissions?: readonly string[];
  /**
   * What a change of a pinned tool definition leads to for this server (see `ConnectMcpServersOptions.pinning`);
   * `false`: this server's tools are not pinned. Without it the options' policy applies, when they set `pinning`.
   */
  readonly pinning?: McpPinPolicy | false;
  /**
   * Which protocol generation to speak. `'legacy'` (default): the 2025 `initialize` handshake. `'auto'`: ask the server
   * first (`server/discover`) and speak the 2026-07-28 revision when it offers it, else fall back to the handshake (over
   * HTTP a server that does not answer the probe is an outage, not a legacy server). `'2026-07-28'`: that revision only.
   */
  readonly protocol?: McpClientProtocol;
}

/** `McpServerCommonConfig.protocol`. */
export type McpClientProtocol = 'legacy' | 'auto' | '2026-07-28';

/** A server started as a child process, spoken to over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerCommonConfig {
  readonly transport?: 'stdio';
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Variables added to the SDK's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). Nothing else of
   * this process's environment is passed on, so secrets stay here unless listed.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommonConfig {
  readonly transport?: 'http';
  readonly url: string | URL;
  /** Sent with every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** OAuth for this server (replaces the `auth` of `connectMcpServers`' options); `false`: none for this server. */
  readonly auth?: McpOAuthOptions | false;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export interface ConnectMcpServersOptions {
  readonly logger?: Logger;
  /**
   * OAuth 2.1 for every server over HTTP (a server's own `auth` replaces it): the MCP SDK's client runs the flows;
   * tokens go to a `TokenStore`, one per `tokenKey(context)`. See docs/mcp.md, "OAuth".
   */
  readonly auth?: McpOAuthOptions;
  /**
   * Answers servers' questions during tool calls (elicitation, form and URL modes) for the call's trusted context.
   * Without it the client does not declare elicitation and servers cannot ask.
   */
  readonly onElicitation?: McpElicitationHandler;
  /**
   * Pins each remote tool's definition (a hash of its name, title, description, schemas and annotations) when first
   * seen, and checks it whenever the tool is listed again (reconnect, `tools/list_changed`): a changed definition is
   * warned about, blocked or put behind a person's approval. See docs/mcp.md, "Pinned tool definitions".
   */
  readonly pinning?: McpPinningOptions;
  /** The backoff, for every server: attempts and delays of a connection, and the reconnection budget. */
  readonly retry?: Partial<McpRetryPolicy>;
  /** Time source of the backoff (tests pass a fake one). */
  readonly clock?: McpClock;
  /** Timeout of one connection attempt's requests (initialize, then tools/list). Default 10,000 ms. */
  readonly connectTimeoutMs?: number;
  /** How this client introduces itself. Default `{ name: 'toolwright', version: '0.1.0' }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Bounds for the servers' (untrusted) schemas, input and output. Default: core's DEFAULT_JSON_SCHEMA_LIMITS. */
  readonly schemaLimits?: Partial<JsonSchemaLimits>;
  /** Most tools read from one server. Default 1,000. */
  readonly maxTools?: number;
  /** stdio: the longest line read from a server's stdout; longer closes the connection. Default 10 MiB (the SDK's). */
  readonly maxLineBytes?: number;
  /**
   * The longest result of a remote tool passed on (text, JSON of structured content, base64 of images), in
   * characters; past it the result is cut and ends with a notice saying so. Default 100,000 (about 25,000 tokens).
   */
  readonly maxResultChars?: number;
  /**
   * HTTP: the largest response body (JSON) or SSE event read from a server, in bytes; past it the read stops and
   * the call fails with a message saying so (what the SDK would otherwise buffer whole). Default 10 MiB.
   */
  readonly maxResponseBytes?: number;
  /** stdio: how much of a server's stderr is kept for the connection error. Default 4,096 characters. */
  readonly stderrTailChars?: number;
  /**
   * stdio: waits of `close()`: after closing stdin, then after SIGTERM. Defaults 2,000 ms each (the SDK's).
   * `descendantScanMs` (Linux): how often a server's process tree is walked for descendants that leave its process
   * group (`setsid`, `set -m`, detached children), which `close()` and this process's exit end too; 0 walks only at
   * close. Default 1,000 ms.
   */
  readonly shutdown?: {
    readonly stdinGraceMs?: number;
    readonly terminateGraceMs?: number;
    readonly descendantScanMs?: number;
  };
  /** stdio: kill the servers' process groups when this process exits without closing them. Default true. */
  readonly reapOnExit?: boolean;
  /** @internal tests: the reaper to register process groups with. */
  readonly reaper?: ProcessGroupReaper;
}

export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config && config.command !== undefined;
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The pinning policies (`McpPinPolicy`). */
export const PIN_POLICIES: ReadonlySet<unknown> = new Set<McpPinPolicy>(['warn', 'block', 'approve']);

/** Developer errors in the server list, found before anything starts. */
export function checkServerConfigs(servers: readonly McpServerConfig[]): void {
  const names = new Set<string>();
  servers.forEach((server, index) => {
    const target = `connectMcpServers: servers[${index}]`;
    if (typeof server !== 'object' || server === null) throw new DefinitionError('is not an object.', { target });
    if (typeof server.name !== 'string' || !SERVER_NAME.test(server.name)) {
      throw new DefinitionError(`has the name ${JSON.stringify(server.name)}.`, {
        target,
        property: 'name',
        fix: 'use 1-64 letters, digits, "_" or "-".',
      });
    }
    if (names.has(server.name))
      throw new DefinitionError(`repeats the name "${server.name}".`, {
        target,
        property: 'name',
        fix: 'give every server its own name.',
      });
    names.add(server.name);
    const hasCommand = 'command' in server && server.command !== undefined;
    const hasUrl = 'url' in server && server.url !== undefined;
    if (hasCommand === hasUrl) {
      throw new DefinitionError(hasCommand ? 'sets both command and url.' : 'sets neither command nor url.', {
        target: `${target} ("${server.name}")`,
        fix: 'give a command (stdio) or a url (Streamable HTTP).',
      });
    }
    if (hasCommand && (server.transport ?? 'stdio') !== 'stdio') {
      throw new DefinitionError(`has a command but transport "${String(server.transport)}".`, {
        target: `${target} ("${server.name}")`,
        fix: "use transport: 'stdio' or leave it out.",
      });
    }
    if (hasUrl) {
      if ((server.transport ?? 'http') !== 'http') {
        throw new DefinitionError(`has a url but transport "${String(server.transport)}".`, {
          target: `${target} ("${server.name}")`,
          fix: "use transport: 'http' or leave it out.",
        });
      }
      let url: URL;
      try {
        url = new URL(String(server.url));
      } catch {
        throw new DefinitionError(`has an invalid url ${JSON.stringify(String(server.url))}.`, {
          target: `${target} ("${server.name}")`,
        });
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new DefinitionError(`has a ${url.protocol} url.`, {
          target: `${target} ("${server.name}")`,
          fix: 'use an http: or https: url.',
        });
      }
    }
    if (server.pinning !== undefined && server.pinning !== false && !PIN_POLICIES.has(server.pinning)) {
      throw new DefinitionError(`has pinning ${JSON.stringify(server.pinning)}.`, {
        target: `${target} ("${server.name}")`,
        fix: "use 'warn', 'block', 'approve' or false.",
      });
    }
    if (server.protocol !== undefined && !['legacy', 'auto', '2026-07-28'].includes(server.protocol)) {
      throw new DefinitionError(`has protocol ${JSON.stringify(server.protocol)}.`, {
        target: `${target} ("${server.name}")`,
        fix: "use 'legacy', 'auto' or '2026-07-28'.",
      });
    }
    if (server.timeoutMs !== undefined && !(Number.isFinite(server.timeoutMs) && server.timeoutMs > 0)) {
      throw new DefinitionError(`has timeoutMs ${String(server.timeoutMs)}.`, {
        target: `${target} ("${server.name}")`,
        fix: 'use a positive number of milliseconds.',
      });
    }
  });
}
