import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isProcessGroupAlive, processGroupReaper, signalProcessGroup, type ProcessGroupReaper } from './process-group';
import { DescendantTracker } from './process-tree';

/** Resolves true once `done()` holds, false when `timeoutMs` passes first (polls: no event tells a non-child's exit). */
async function waitFor(done: () => boolean, timeoutMs: number, pollMs = 20): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}

export interface ProcessGroupStdioTransportOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the SDK's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER); nothing else is inherited. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Most bytes buffered while waiting for a newline; a longer line closes the connection. Default 10 MiB (the SDK's). */
  readonly maxBufferSize?: number;
  /** Receives the server's stderr as it arrives. */
  readonly onStderr?: (text: string) => void;
  /** How long `close()` waits for the server to exit after closing its stdin, before SIGTERM. Default 2,000 ms. */
  readonly stdinGraceMs?: number;
  /** How long `close()` waits after SIGTERM before SIGKILL. Default 2,000 ms. */
  readonly terminateGraceMs?: number;
  /** Kill the group if this process exits first. Default: the process-wide reaper. */
  readonly reaper?: ProcessGroupReaper | null;
  /**
   * Linux: how often the server's process tree is walked for descendants that leave its process group (they are
   * ended with it at close). 0: only at close. Default 1,000 ms.
   */
  readonly descendantScanMs?: number;
}

/** How much of a line that is not a JSON-RPC message is kept for the report. */
const LINE_PREVIEW_CHARS = 200;

/** A line on the server's stdout that is not a JSON-RPC message (reported through `onerror`, then skipped). */
export class UnparsableLineError extends Error {
  override readonly name = 'UnparsableLineError';

  constructor(
    /** The line's first 200 characters. */
    readonly line: string,
    cause: unknown,
  ) {
    super(
      `${JSON.stringify(line)}${line.length >= LINE_PREVIEW_CHARS ? '...' : ''} (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)})`,
      { cause },
    );
  }
}

/**
 * Newline-delimited JSON-RPC from the server's stdout. Each line is checked by the SDK's `deserializeMessage`; a line
 * that is not a message is handed back with its start for the report (the SDK's own ReadBuffer skips such lines
 * silently since v2, so the framing is here). Buffered bytes are capped; each byte is scanned for a newline once.
 */
class JsonRpcLines {
  private buffer: Buffer | undefined;
  /** How far `buffer` has been searched for a newline. */
  private scanned = 0;

  constructor(private readonly maxBufferSize: number) {}

  /** Throws past the cap (the buffer is dropped). */
  append(chunk: Buffer): void {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.buffer = this.buffer === undefined ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /** The next complete line: a message, or the start of a line that is not one and why; null until a newline. */
  next(): { readonly message: JSONRPCMessage } | { readonly line: string; readonly error: unknown } | null {
    if (this.buffer === undefined) return null;
    const newline = this.buffer.indexOf(10, this.scanned);
    if (newline === -1) {
      this.scanned = this.buffer.length;
      return null;
    }
    const line = this.buffer.toString('utf8', 0, newline).replace(/\r$/, '');
    this.buffer = newline + 1 === this.buffer.length ? undefined : this.buffer.subarray(newline + 1);
    this.scanned = 0;
    try {
      return { message: deserializeMessage(line) };
    } catch (error) {
      return { line: line.slice(0, LINE_PREVIEW_CHARS), error };
    }
  }

  clear(): void {
    this.buffer = undefined;
    this.scanned = 0;
  }
}

/** How long after the leader's exit the connection counts as closed even if a straggler still holds stdout open. */
const EXIT_TO_CLOSE_MS = 200;

/**
 * The SDK's stdio client transport, with one difference: the server runs as the leader of its own process group,
 * and closing the transport ends the whole group (stdin EOF, then SIGTERM, then SIGKILL to `-pgid`), so nothing a
 * wrapper (`sh -c`, `npx`) started is orphaned (typescript-sdk#2023). Messages are read and written with the SDK's
 * `deserializeMessage` and `serializeMessage`; the default environment is the SDK's too. When the leader exits on its own, whatever is left of its
 * group is terminated too.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child?: ChildProcess;
  private readonly lines: JsonRpcLines;
  private closing?: Promise<void>;
  private closeNotified = false;
  private exited = false;
  private exitWaiters: Array<() => void> = [];
  private readonly reaper: ProcessGroupReaper | null;
  private descendants?: DescendantTracker;

  constructor(private readonly options: ProcessGroupStdioTransportOptions) {
    this.lines = new JsonRpcLines(options.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE);
    this.reaper = options.reaper === undefined ? processGroupReaper : options.reaper;
  }

  /** The server's pid, which is also its process group id (POSIX). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('ProcessGroupStdioTransport already started.'));
    const marking = DescendantTracker.newMarker();
    return new Promise<void>((resolve, reject) => {
      let spawned = false;
      const child = spawn(this.options.command, [...(this.options.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.options.env, ...marking.environment },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      child.on('error', (error) => {
        if (!spawned) reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) {
          if (DescendantTracker.available && process.platform !== 'win32') {
            this.descendants = new DescendantTracker(child.pid, marking.marker);
            this.descendants.startWatching(this.options.descendantScanMs ?? 1_000);
          }
          this.reaper?.track(child.pid, this.descendants);
        }
        resolve();
      });
      child.on('exit', () => this.leaderExited(child));
      child.on('close', () => this.notifyClosed());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.lines.append(chunk);
        } catch (error) {
          // Over the line cap: the SDK's rule, report and close.
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        this.processLines();
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.options.onStderr?.(text));
      child.stderr?.on('error', () => undefined);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closing || this.exited || stdin.destroyed) throw new Error('Not connected');
    const json = serializeMessage(message);
    await new Promise<void>((resolve, reject) => {
      stdin.write(json, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the server's whole process group: stdin EOF, then SIGTERM, then SIGKILL. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (child && pgid !== undefined) {
      // While the tree is intact: once the server exits, what it started is re-parented and no walk finds it.
      this.descendants?.walk();
      if (!this.exited) {
        try {
          child.stdin?.end();
        } catch {
          // The pipe is already gone.
        }
        await this.waitForLeaderExit(this.options.stdinGraceMs ?? 2_000);
      }
      await this.endGroup(pgid);
    }
    this.lines.clear();
    this.notifyClosed();
  }

  /**
   * SIGTERM to whatever is left of the group and of the descendants that left it, SIGKILL after the grace period;
   * then once more for anything that was started while they went down.
   */
  private async endGroup(pgid: number): Promise<void> {
    const descendants = this.descendants;
    descendants?.walk();
    descendants?.scanMarked();
    const remaining = () => isProcessGroupAlive(pgid) || (descendants !== undefined && descendants.alive().length > 0);
    if (remaining()) {
      signalProcessGroup(pgid, 'SIGTERM');
      descendants?.signal('SIGTERM');
      if (!(await waitFor(() => !remaining(), this.options.terminateGraceMs ?? 2_000))) {
        signalProcessGroup(pgid, 'SIGKILL');
        descendants?.signal('SIGKILL');
        await waitFor(() => !remaining(), 1_000);
      }
    }
    if (descendants) {
      descendants.walk();
      descendants.scanMarked();
      if (descendants.signal('SIGKILL') > 0) await waitFor(() => descendants.alive().length === 0, 1_000);
      descendants.stopWatching();
    }
    this.reaper?.untrack(pgid);
  }

  private waitForLeaderExit(timeoutMs: number): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private leaderExited(child: ChildProcess): void {
    this.exited = true;
    for (const waiter of this.exitWaiters.splice(0)) waiter();
    if (this.closing) return;
    // The server went away on its own: end what it left behind, and do not wait for stragglers holding stdout.
    if (child.pid !== undefined) void this.endGroup(child.pid);
    setTimeout(() => this.notifyClosed(), EXIT_TO_CLOSE_MS).unref();
  }

  private processLines(): void {
    for (let next = this.lines.next(); next !== null; next = this.lines.next()) {
      // A line that is not a JSON-RPC message: reported, skipped; the session continues.
      if ('line' in next) this.onerror?.(new UnparsableLineError(next.line, next.error));
      else this.onmessage?.(next.message);
    }
  }

  private notifyClosed(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.onclose?.();
  }
}
