import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Process-group control for stdio MCP servers. A server is spawned as the leader of its own process group
 * (`detached: true`), so everything it starts (an `sh -c` wrapper's child, `npx`'s node, a grandchild) shares the
 * group id and one `kill(-pgid)` reaches all of them. See docs/decisions/0005-mcp-stdio-process-groups.md and 0008-mcp-stdio-descendants.md.
 */

const IS_WINDOWS = process.platform === 'win32';

/** Whether any process of the group is still there (`kill(-pgid, 0)`; EPERM means it exists). */
export function isProcessGroupAlive(pgid: number): boolean {
  if (IS_WINDOWS) return isProcessAlive(pgid);
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a process exists and is not a zombie (an exited process nobody has reaped yet counts as gone). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // /proc/<pid>/stat: "pid (command) state ..."; the command may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

/** Sends `signal` to every process of the group; false when the group is already gone. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (IS_WINDOWS) {
    // No process groups: taskkill /T walks the tree of the leader instead.
    const result = spawnSync('taskkill', ['/pid', String(pgid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])], {
      stdio: 'ignore',
      windowsHide: true,
    });
    return result.status === 0;
  }
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves true once the group is empty, false when `timeoutMs` passes first. Polls (there is no event for the
 * exit of a process that is not our child).
 */
export async function waitForProcessGroupExit(pgid: number, timeoutMs: number, pollMs = 20): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (isProcessGroupAlive(pgid)) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}

/** What `process` offers the reaper; a stand-in in tests. */
export interface ReaperHost {
  readonly pid: number;
  on(event: 'exit', listener: () => void): unknown;
  on(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  removeListener(event: 'exit', listener: () => void): unknown;
  removeListener(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  listenerCount(event: string): number;
  kill(pid: number, signal?: NodeJS.Signals): unknown;
}

const REAPED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Kills the process groups of still-running servers when this process ends without closing them: on `exit`, and on
 * SIGINT/SIGTERM/SIGHUP (a detached group does not get the terminal's Ctrl-C). The app going down cannot wait for a
 * graceful shutdown, so the groups get SIGKILL; `close()` is the orderly path. A signal this reaper alone listens
 * to is re-raised after the kill, so the default behaviour (terminating) is kept; when the app has its own handler,
 * that handler decides.
 */
export class ProcessGroupReaper {
  /** pgid -> what else to kill with it (descendants that left the group), if tracked. */
  private readonly groups = new Map<number, { killAllNow(): void } | undefined>();
  private installed = false;
  private readonly onExit = () => this.killAll();
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.killAll();
    if (this.host.listenerCount(signal) === 1) {
      this.uninstall();
      this.host.kill(this.host.pid, signal);
    }
  };

  constructor(private readonly host: ReaperHost) {}

  /** `descendants`: the server's descendants outside its group, killed with it (see DescendantTracker). */
  track(pgid: number, descendants?: { killAllNow(): void }): void {
    this.groups.set(pgid, descendants);
    if (!this.installed) this.install();
  }

  untrack(pgid: number): void {
    this.groups.delete(pgid);
    if (this.groups.size === 0 && this.installed) this.uninstall();
  }

  tracked(): number[] {
    return [...this.groups.keys()];
  }

  killAll(): void {
    for (const [pgid, descendants] of this.groups) {
      signalProcessGroup(pgid, 'SIGKILL');
      try {
        descendants?.killAllNow();
      } catch {
        // Exiting: nothing to report to, and the groups are killed regardless.
      }
    }
    this.groups.clear();
  }

  private install(): void {
    this.installed = true;
    this.host.on('exit', this.onExit);
    for (const signal of REAPED_SIGNALS) this.host.on(signal, this.onSignal);
  }

  private uninstall(): void {
    this.installed = false;
    this.host.removeListener('exit', this.onExit);
    for (const signal of REAPED_SIGNALS) this.host.removeListener(signal, this.onSignal);
  }
}

/** The reaper of this process. */
export const processGroupReaper = new ProcessGroupReaper(process);
