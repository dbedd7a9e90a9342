/**
 * Registry sync for one MCP server: which registry entries are this connection's, bringing them in line with the
 * server's tool list (new tools registered, changed ones replaced, gone ones removed), and giving way when anyone
 * else registers a name (or an alias) one of them holds.
 */
import type { ToolHandler, ToolRegistryChange } from '@toolwright/core';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { clientMessages } from '../messages';
import { ACCEPTED_TOOL_NAME, MCP_TOOL_NAME } from '../tool-names';
import type { McpServerConfig } from './config';
import type { ConnectionEnvironment } from './connection-environment';
import type { PinRound } from './pinning/tool-pinning';
import { contextNamedParameters, importRemoteTool } from './remote-tools';

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

/** Makes the handler the registry runs for one remote tool (see `call-forwarding.ts`). */
export type RemoteHandlerFactory = (name: string, remoteName: string, contextNamed: readonly string[]) => ToolHandler;

/** The registry entries one server's connection holds. */
export class RemoteToolSync {
  private readonly owned = new Map<string, OwnedTool>();

  constructor(
    private readonly serverName: string,
    private readonly config: McpServerConfig,
    private readonly environment: ConnectionEnvironment,
    private readonly handlerFor: RemoteHandlerFactory,
  ) {}

  /** Registry names of the tools held right now. */
  names(): string[] {
    return [...this.owned.keys()];
  }

  get size(): number {
    return this.owned.size;
  }

  /** Unregisters every tool still held. */
  unregisterAll(): void {
    for (const name of [...this.owned.keys()]) this.release(name);
  }

  /**
   * Makes the next sync register these tools (registry names) again even when their listing is unchanged: their pins
   * were accepted, so what the pinning policy added (the approval) goes.
   */
  invalidate(names: readonly string[]): void {
    for (const name of names) {
      const owned = this.owned.get(name);
      if (owned !== undefined) this.owned.set(name, { ...owned, fingerprint: '' });
    }
  }

  /**
   * Brings the registry in line with the server's list: new tools registered, changed ones replaced, gone ones removed.
   * With `pins`, each tool whose listing is new to this connection is compared with its pin first (a blocked one is not
   * registered, and the version it replaces is removed).
   */
  sync(tools: readonly Tool[], pins?: PinRound): { added: number; changed: number; removed: number } {
    const { registry, logger } = this.environment;
    const counts = { added: 0, changed: 0, removed: 0 };
    const listed = new Set<string>();
    const claims = this.claims();
    const skip = (tool: string, reason: string) =>
      logger.warn(clientMessages.toolSkipped(this.serverName, tool, reason), { server: this.serverName, tool });
    for (const tool of tools) {
      if (!ACCEPTED_TOOL_NAME.test(tool.name)) {
        skip(tool.name, clientMessages.toolNameInvalid());
        continue;
      }
      if (!MCP_TOOL_NAME.test(tool.name))
        logger.warn(clientMessages.toolNameOutsideSpec(this.serverName, tool.name), {
          server: this.serverName,
          tool: tool.name,
        });
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
      const verdict = pins?.check(tool, name);
      if (verdict?.kind === 'block') {
        if (previous !== undefined) {
          this.release(name);
          counts.removed++;
        }
        continue;
      }
      try {
        const definition = importRemoteTool(tool, {
          server: this.serverName,
          namespace: this.namespace(),
          aliases: this.config.parameterAliases?.[tool.name],
          limits: this.environment.schemaLimits,
          trustAnnotations: this.config.trustAnnotations === true,
          ...(this.config.contextParameters !== undefined ? { contextParameters: this.config.contextParameters } : {}),
          toolOptions: {
            ...(this.config.timeoutMs !== undefined ? { timeoutMs: this.config.timeoutMs } : {}),
            ...(this.config.tags !== undefined ? { tags: this.config.tags } : {}),
            ...(this.config.permissions !== undefined ? { permissions: this.config.permissions } : {}),
            ...(verdict?.kind === 'approve' ? { approval: () => verdict.reason } : {}),
          },
          warn: (message) => logger.warn(message, { server: this.serverName, tool: tool.name }),
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
  registryChanged(change: ToolRegistryChange): void {
    if (change.type === 'unregistered' || this.owned.size === 0) return;
    const owned = this.owned.get(change.name);
    if (owned !== undefined && this.holds(change.name, owned)) return;
    if (owned !== undefined) {
      // Replaced under our feet: the registry holds the newcomer; nothing of ours to remove.
      this.owned.delete(change.name);
      this.environment.logger.warn(clientMessages.toolGaveWay(this.serverName, change.name, change.name), {
        server: this.serverName,
        tool: change.name,
      });
      return;
    }
    const claimed = new Set([change.name, ...(change.definition.options.aliases ?? [])].map(canonicalName));
    for (const [name, tool] of [...this.owned]) {
      if (!claimed.has(tool.canonical)) continue;
      this.release(name);
      this.environment.logger.warn(clientMessages.toolGaveWay(this.serverName, name, change.name), {
        server: this.serverName,
        tool: name,
      });
    }
  }

  private namespace(): string | undefined {
    const namespace = this.config.namespace;
    if (namespace === false || namespace === '') return undefined;
    return namespace ?? this.serverName;
  }

  private registryName(remoteName: string): string {
    const namespace = this.namespace();
    return namespace === undefined ? remoteName : `${namespace}.${remoteName}`;
  }
}

/** The server's whole tool list, page by page, bounded by `maxTools` and `MAX_LIST_PAGES`. */
export async function listAllTools(
  client: Client,
  serverName: string,
  environment: ConnectionEnvironment,
  signal: AbortSignal,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      timeout: environment.connectTimeoutMs,
      signal: signal,
    });
    tools.push(...result.tools);
    if (tools.length > environment.maxTools) {
      environment.logger.warn(clientMessages.toolListTruncated(serverName, environment.maxTools), {
        server: serverName,
      });
      return tools.slice(0, environment.maxTools);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** A tool name as the executor compares names when the exact one is not found: letters and digits, lower case. */
function canonicalName(name: string): string {
  return name.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}
