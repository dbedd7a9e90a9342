import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { signalProcessGroup } from './process-group';

/**
 * Descendants of a stdio MCP server that leave its process group (`setsid`, a `set -m` job, a detached child):
 * `kill(-pgid)` does not reach them, and once their parent exits they are re-parented and no longer look like the
 * server's. Node cannot become a child subreaper (prctl) without native code, so they are found two ways, on Linux
 * (where /proc exists; elsewhere tracking is off):
 *
 * - a walk of the server's process tree by parent pid (`/proc/<pid>/task/<tid>/children`, or a scan of every
 *   `/proc/<pid>/stat` where that file is missing), taken periodically while the server runs and at close, before
 *   anything is signalled; what a walk found stays tracked after its parent exits;
 * - a marker variable in the server's environment (`TOOLWRIGHT_MCP_SERVER=<random id>`), which every descendant
 *   inherits unless it clears its environment: at close, every process of this user whose `/proc/<pid>/environ`
 *   carries it belongs to this server, even a double-forked daemon no walk saw.
 *
 * A process is identified by pid and start time, so a pid reused by an unrelated process is never signalled.
 * See docs/decisions/0008-mcp-stdio-descendants.md.
 */

/** The environment variable that marks a server's descendants. */
export const DESCENDANT_MARKER_VARIABLE = 'TOOLWRIGHT_MCP_SERVER';

const PROC = '/proc';
const TRACKING_AVAILABLE = process.platform === 'linux';

interface ProcessStat {
  readonly ppid: number;
  readonly pgid: number;
  /** Clock ticks after boot: with the pid, the identity of a process. */
  readonly startTime: string;
  readonly zombie: boolean;
}

function readStat(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`${PROC}/${pid}/stat`, 'utf8');
    // "pid (command) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
    // priority nice threads itrealvalue starttime ...": the command may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0] ?? '';
    return {
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      startTime: fields[19] ?? '',
      zombie: state === 'Z' || state === 'X',
    };
  } catch {
    return undefined;
  }
}

function numericEntries(path: string): number[] {
  try {
    return readdirSync(path)
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/** The children of `pid` (every thread's), or `undefined` when the kernel has no `children` files. */
function childrenOf(pid: number): number[] | undefined {
  const children: number[] = [];
  for (const thread of numericEntries(`${PROC}/${pid}/task`)) {
    let text: string;
    try {
      text = readFileSync(`${PROC}/${pid}/task/${thread}/children`, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && thread === pid) return undefined;
      continue;
    }
    for (const child of text.split(' ')) if (child.trim() !== '') children.push(Number(child));
  }
  return children;
}

/** Whether the process's initial environment holds `entry` (`NAME=value`); false when it cannot be read. */
function environmentHolds(pid: number, entry: Buffer): boolean {
  try {
    const environment = readFileSync(`${PROC}/${pid}/environ`);
    for (let index = environment.indexOf(entry); index !== -1; index = environment.indexOf(entry, index + 1)) {
      const starts = index === 0 || environment[index - 1] === 0;
      const ends = index + entry.length === environment.length || environment[index + entry.length] === 0;
      if (starts && ends) return true;
    }
    return false;
  } catch {
    return false;
  }
}

/** Most processes one walk visits: a bound on what a fork bomb under the server can cost a walk. */
const MAX_WALK_PROCESSES = 10_000;

/** The descendants of one stdio server that may escape its process group; see the file's comment. */
export class DescendantTracker {
  /** Tracked processes: pid -> start time. */
  private readonly tracked = new Map<number, string>();
  private timer?: NodeJS.Timeout;
  private readonly markerEntry: Buffer;

  constructor(
    /** The server's pid (its process group id). */
    readonly root: number,
    /** The value of the marker variable given to the server (see `newDescendantMarker`). */
    readonly marker: string,
  ) {
    this.markerEntry = Buffer.from(`${DESCENDANT_MARKER_VARIABLE}=${this.marker}`);
  }

  /** Whether this platform has /proc (Linux); elsewhere every method is a no-op. */
  static get available(): boolean {
    return TRACKING_AVAILABLE;
  }

  /** A fresh marker, and the variable to add to the server's environment. */
  static newMarker(): { readonly marker: string; readonly environment: Record<string, string> } {
    const marker = randomUUID();
    return { marker, environment: TRACKING_AVAILABLE ? { [DESCENDANT_MARKER_VARIABLE]: marker } : {} };
  }

  /** Walks the tree every `intervalMs` (0: never; the walk at close still happens). */
  startWatching(intervalMs: number): void {
    if (!TRACKING_AVAILABLE || intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.walk(), intervalMs);
    this.timer.unref();
  }

  stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Adds every live descendant of the server and of what was tracked before (re-parented ones too). */
  walk(): void {
    if (!TRACKING_AVAILABLE) return;
    const roots = [this.root, ...this.tracked.keys()];
    let children: (pid: number) => number[] | undefined = childrenOf;
    const seen = new Set<number>();
    const queue = [...roots];
    while (queue.length > 0 && seen.size < MAX_WALK_PROCESSES) {
      const pid = queue.pop()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      let kids = children(pid);
      if (kids === undefined) {
        children = scanChildren();
        kids = children(pid) ?? [];
      }
      for (const child of kids) {
        const stat = readStat(child);
        if (stat === undefined || stat.zombie) continue;
        if (this.tracked.get(child) === undefined) this.tracked.set(child, stat.startTime);
        queue.push(child);
      }
    }
  }

  /** Adds every process of this user that carries the server's marker. */
  scanMarked(): void {
    if (!TRACKING_AVAILABLE) return;
    for (const pid of numericEntries(PROC)) {
      if (pid === process.pid || this.tracked.has(pid) || !environmentHolds(pid, this.markerEntry)) continue;
      const stat = readStat(pid);
      if (stat !== undefined && !stat.zombie) this.tracked.set(pid, stat.startTime);
    }
  }

  /** Tracked processes still running as themselves (same start time), outside process group `pgid` (or all). */
  alive(outsideGroup?: number): number[] {
    const pids: number[] = [];
    for (const [pid, startTime] of this.tracked) {
      const stat = readStat(pid);
      if (stat === undefined || stat.zombie || stat.startTime !== startTime) {
        this.tracked.delete(pid);
        continue;
      }
      if (outsideGroup === undefined || stat.pgid !== outsideGroup) pids.push(pid);
    }
    return pids;
  }

  /** Signals every tracked process still running as itself; returns how many were signalled. */
  signal(signal: NodeJS.Signals): number {
    let signalled = 0;
    for (const pid of this.alive()) {
      try {
        process.kill(pid, signal);
        signalled++;
      } catch {
        // Gone meanwhile, or not ours to signal.
      }
    }
    return signalled;
  }

  /** For the exit reaper: find everything (walk and marker), SIGKILL it, synchronously. */
  killAllNow(): void {
    this.walk();
    this.scanMarked();
    signalProcessGroup(this.root, 'SIGKILL');
    this.signal('SIGKILL');
  }
}

/** Parent -> children from one scan of every /proc/<pid>/stat (kernels without `children` files). */
function scanChildren(): (pid: number) => number[] {
  const byParent = new Map<number, number[]>();
  for (const pid of numericEntries(PROC)) {
    const stat = readStat(pid);
    if (stat === undefined) continue;
    const siblings = byParent.get(stat.ppid);
    if (siblings) siblings.push(pid);
    else byParent.set(stat.ppid, [pid]);
  }
  return (pid) => byParent.get(pid) ?? [];
}
