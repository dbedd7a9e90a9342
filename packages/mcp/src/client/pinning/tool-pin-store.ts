/**
 * Where pinned tool definitions are kept: per server (its name in the client's configuration), the hash of each tool's
 * definition (remote tool name -> `toolDefinitionHash`) as it was when first seen or last accepted. Methods may be
 * synchronous or return promises. A pin is never removed when a tool leaves the list: a tool that comes back changed is
 * still a change.
 */
export interface ToolPinStore {
  /** The pins of `server` (empty when none). */
  getPins(server: string): ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>>;
  /** Pins, or pins again, the given tools of `server` (the others keep theirs). */
  setPins(server: string, pins: ReadonlyMap<string, string>): void | Promise<void>;
  /** Forgets the pins of the given tools of `server`, or all of its pins when `tools` is absent. */
  deletePins(server: string, tools?: readonly string[]): void | Promise<void>;
}

/** The pins of this process (the default): a change is caught while it runs, and forgotten when it exits. */
export class MemoryToolPinStore implements ToolPinStore {
  private readonly servers = new Map<string, Map<string, string>>();

  /** @internal every server's pins, for a store that persists them (`FileToolPinStore`). */
  entries(): Map<string, Map<string, string>> {
    return this.servers;
  }

  getPins(server: string): ReadonlyMap<string, string> {
    return new Map(this.servers.get(server));
  }

  setPins(server: string, pins: ReadonlyMap<string, string>): void {
    let entry = this.servers.get(server);
    if (entry === undefined) {
      entry = new Map();
      this.servers.set(server, entry);
    }
    for (const [tool, hash] of pins) entry.set(tool, hash);
  }

  deletePins(server: string, tools?: readonly string[]): void {
    if (tools === undefined) {
      this.servers.delete(server);
      return;
    }
    const entry = this.servers.get(server);
    for (const tool of tools) entry?.delete(tool);
  }
}
