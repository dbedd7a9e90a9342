/**
 * Pinned tool definitions for one server: the hash each tool's definition had when it was first seen (or last
 * accepted), compared whenever registry sync (re)registers a tool, and what to do when it differs.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '@toolwright/core';
import type { Tool } from '@modelcontextprotocol/client';
import { clientMessages } from '../../messages';
import type { ToolPinStore } from './tool-pin-store';

/**
 * What a changed definition leads to: `'warn'` logs a security warning and registers it; `'block'` leaves it (and the
 * version it replaces) out of the registry; `'approve'` registers it with the executor's approval, so every call
 * waits for a person (`APPROVAL_REQUIRED`, then `resolveApproval`). In every case the change stays pending until it
 * is accepted (`McpServerConnection.acceptToolChanges`), which pins the new definition.
 */
export type McpPinPolicy = 'warn' | 'block' | 'approve';

/** `connectMcpServers`' `pinning` option. */
export interface McpPinningOptions {
  /** Where the pins are kept. Default: a `MemoryToolPinStore` shared by the servers of this call. */
  readonly store?: ToolPinStore;
  /** The policy of every server that sets none (its own `pinning`). Default `'block'`. */
  readonly policy?: McpPinPolicy;
}

/** A tool whose definition differs from its pin, as the connection's status reports it. */
export interface McpPinChange {
  /** Its registry name. */
  readonly tool: string;
  /** Its name on the server (the pin's key). */
  readonly remoteName: string;
  /** The pinned hash and the hash of the definition listed now. */
  readonly pinned: string;
  readonly current: string;
  /** What the policy did. */
  readonly action: McpPinPolicy;
}

/** What sync does with one tool whose listing is new to the connection. */
export type PinVerdict =
  { readonly kind: 'register' } | { readonly kind: 'approve'; readonly reason: string } | { readonly kind: 'block' };

const REGISTER: PinVerdict = Object.freeze({ kind: 'register' });

/**
 * The hash pinned for a tool: SHA-256 of its name, title, description, input and output schemas and annotations, as
 * JSON with object keys sorted (so the order a server writes keys in changes nothing). Other fields (`_meta`, icons,
 * execution) are not covered.
 */
export function toolDefinitionHash(tool: Tool): string {
  const pinned = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  return createHash('sha256').update(JSON.stringify(pinned, sortedKeys)).digest('hex');
}

/** A JSON.stringify replacer: plain objects with their keys sorted (own data properties, so `__proto__` stays a key). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort())
    Object.defineProperty(sorted, key, { value: source[key], enumerable: true });
  return sorted;
}

/** One sync's view of the pins: read before it, the new pins written after it. */
export class PinRound {
  /** Tools seen for the first time: pinned once the sync is over. */
  readonly firstSeen = new Map<string, string>();
  /** The changes found (by remote name), and the remote names checked. */
  readonly changes = new Map<string, McpPinChange>();
  readonly checked = new Set<string>();

  constructor(
    private readonly pins: ServerPins,
    private readonly pinned: ReadonlyMap<string, string>,
  ) {}

  /** Compares one tool (whose listing is new to the connection) with its pin. */
  check(tool: Tool, registryName: string): PinVerdict {
    const current = toolDefinitionHash(tool);
    this.checked.add(tool.name);
    const pinned = this.pinned.get(tool.name);
    if (pinned === undefined) {
      this.firstSeen.set(tool.name, current);
      return REGISTER;
    }
    if (pinned === current) return REGISTER;
    const action = this.pins.policy;
    const change: McpPinChange = Object.freeze({ tool: registryName, remoteName: tool.name, pinned, current, action });
    this.changes.set(tool.name, change);
    this.pins.report(change);
    if (action === 'block') return { kind: 'block' };
    if (action === 'approve')
      return { kind: 'approve', reason: clientMessages.pinApprovalReason(this.pins.server, tool.name) };
    return REGISTER;
  }
}

/** The pins of one server's tools and the changes pending acceptance. */
export class ServerPins {
  private readonly pending = new Map<string, McpPinChange>();

  constructor(
    readonly server: string,
    readonly policy: McpPinPolicy,
    private readonly store: ToolPinStore,
    private readonly logger: Logger,
  ) {}

  /** Reads the server's pins for one sync. */
  async begin(): Promise<PinRound> {
    return new PinRound(this, await this.store.getPins(this.server));
  }

  /**
   * After the sync: pins the tools seen for the first time, and keeps the changes of the tools still listed (`listed`:
   * remote names) pending. A tool checked again and found equal to its pin is no longer pending.
   */
  async finish(round: PinRound, listed: ReadonlySet<string>): Promise<void> {
    for (const name of [...this.pending.keys()])
      if (!listed.has(name) || (round.checked.has(name) && !round.changes.has(name))) this.pending.delete(name);
    for (const [name, change] of round.changes) this.pending.set(name, change);
    if (round.firstSeen.size > 0) await this.store.setPins(this.server, round.firstSeen);
  }

  /** Changes pending acceptance. */
  changes(): McpPinChange[] {
    return [...this.pending.values()];
  }

  /**
   * Pins the listed definitions of the pending changes (all, or those whose registry or remote name is in `tools`)
   * and returns what it accepted.
   */
  async accept(tools?: readonly string[]): Promise<McpPinChange[]> {
    const wanted = tools === undefined ? undefined : new Set(tools);
    const accepted = this.changes().filter(
      (change) => wanted === undefined || wanted.has(change.tool) || wanted.has(change.remoteName),
    );
    if (accepted.length === 0) return [];
    await this.store.setPins(this.server, new Map(accepted.map((change) => [change.remoteName, change.current])));
    for (const change of accepted) this.pending.delete(change.remoteName);
    this.logger.info(
      clientMessages.pinsAccepted(
        this.server,
        accepted.map((change) => change.tool),
      ),
      { server: this.server, tools: accepted.map((change) => change.tool) },
    );
    return accepted;
  }

  /** Logs a change once per listed definition (a blocked tool is checked at every sync). */
  report(change: McpPinChange): void {
    if (this.pending.get(change.remoteName)?.current === change.current) return;
    this.logger.warn(clientMessages.pinChanged(this.server, change.tool, change.action), {
      server: this.server,
      tool: change.tool,
      pinned: change.pinned,
      current: change.current,
      policy: change.action,
    });
  }
}
