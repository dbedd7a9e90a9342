import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { ToolRegistry } from '@toolwright/core';
import { connectMcpServers, ProcessGroupReaper, type McpConnections, type ReaperHost } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { alive, FAKE_SERVER, logFile, readEvents, waitUntil } from '../support/processes';

const ESCAPES = ['detached', 'set-m', 'setsid'];

function escapees(events: string): Array<{ kind: string; pid: number }> {
  return readEvents(events)
    .filter((event) => event['event'] === 'escapee')
    .map((event) => ({ kind: String(event['kind']), pid: Number(event['pid']) }));
}

/** Process group and session of a pid, from /proc. */
function groupAndSession(pid: number): { pgid: number; sid: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pgid: Number(fields[2]), sid: Number(fields[3]) };
}

/** A stand-in for `process`, so the exit reaper can be fired without ending the test runner. */
class FakeHost implements ReaperHost {
  readonly pid = 1 << 30;
  private readonly listeners = new Map<string, Array<(...args: any[]) => void>>();
  on(event: string, listener: (...args: any[]) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  removeListener(event: string, listener: (...args: any[]) => void): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((candidate) => candidate !== listener),
    );
    return this;
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
  kill(): boolean {
    return true;
  }
  emit(event: string): void {
    for (const listener of this.listeners.get(event) ?? []) listener(event);
  }
}

/**
 * Descendants that leave the server's process group (issue 11): `setsid`, a `set -m` job and a detached child.
 * kill(-pgid) cannot reach them; close() and the client's exit must end them anyway. Checked by pid: zero left.
 */
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;
describeOnLinux('stdio server descendants outside its process group (Linux /proc tracking)', () => {
  const open: McpConnections[] = [];
  const started: number[] = [];

  afterAll(async () => {
    // Closed first (a killed server would be restarted), then whatever a failed assertion left behind.
    await Promise.all(open.map((connections) => connections.close()));
    for (const pid of alive(started)) process.kill(pid, 'SIGKILL');
  }, 15_000);

  async function connect(modes: string, reaper?: ProcessGroupReaper, expected = ESCAPES) {
    const events = logFile('escapes');
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger });
    const connections = connectMcpServers(
      registry,
      [
        {
          name: 'escaper',
          command: process.execPath,
          args: [FAKE_SERVER],
          env: { FAKE_MODES: modes, FAKE_LOG: events },
        },
      ],
      {
        logger,
        retry: { attempts: 1, maxRestarts: 0 },
        shutdown: { stdinGraceMs: 300, terminateGraceMs: 300, descendantScanMs: 50 },
        ...(reaper ? { reaper } : {}),
      },
    );
    open.push(connections);
    expect((await connections.ready).connected).toEqual(['escaper']);
    const server = connections.get('escaper')!.status().pid!;
    await waitUntil(() => escapees(events).length === expected.length, 10_000, 'the escapees to start');
    const found = escapees(events);
    started.push(server, ...found.map((escapee) => escapee.pid));
    expect(found.map((escapee) => escapee.kind).sort()).toEqual(expected);
    // They really left: none is in the server's process group, so kill(-pgid) alone would miss every one.
    for (const escapee of found) expect(groupAndSession(escapee.pid).pgid).not.toBe(server);
    expect(groupAndSession(found.find((escapee) => escapee.kind === 'setsid')!.pid).sid).not.toBe(
      groupAndSession(server).sid,
    );
    return { connections, server, pids: found.map((escapee) => escapee.pid) };
  }

  it('orphaned at once (their parent exited; found by the environment marker): close() leaves zero processes', async () => {
    const { connections, server, pids } = await connect('escape-orphans');
    expect(alive([server, ...pids])).toHaveLength(4);
    await connections.close();
    expect(alive([server, ...pids])).toEqual([]);
  }, 15_000);

  it('children with a cleared environment (found by the process-tree walk): close() leaves zero processes', async () => {
    const { connections, server, pids } = await connect('escape-children');
    expect(alive([server, ...pids])).toHaveLength(4);
    await connections.close();
    expect(alive([server, ...pids])).toEqual([]);
  }, 15_000);

  it("the client's exit without close(): the exit reaper ends the escapees too", async () => {
    const host = new FakeHost();
    const reaper = new ProcessGroupReaper(host);
    const { server, pids } = await connect('escape-orphans,escape-children', reaper, [...ESCAPES, ...ESCAPES].sort());
    expect(alive([server, ...pids])).toHaveLength(7);
    host.emit('exit');
    await waitUntil(
      () => alive([server, ...pids]).length === 0,
      5_000,
      'every process to be gone after the exit reaper',
    );
  }, 15_000);
});
