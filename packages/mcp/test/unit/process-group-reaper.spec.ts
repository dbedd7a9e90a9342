import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { isProcessAlive, isProcessGroupAlive, ProcessGroupReaper, type ReaperHost } from '@toolwright/mcp';
import { waitUntil } from '../support/processes';

class FakeHost extends EventEmitter implements ReaperHost {
  readonly pid = 4242;
  readonly raised: Array<[number, string | undefined]> = [];
  kill(pid: number, signal?: NodeJS.Signals): boolean {
    this.raised.push([pid, signal]);
    return true;
  }
}

function detachedSleeper(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

describe('ProcessGroupReaper (servers still running when this process ends)', () => {
  it('kills tracked groups on exit and listens only while it tracks something', async () => {
    const host = new FakeHost();
    const reaper = new ProcessGroupReaper(host);
    const pgid = detachedSleeper();
    reaper.track(pgid);
    expect(host.listenerCount('exit')).toBe(1);
    expect(host.listenerCount('SIGTERM')).toBe(1);
    host.emit('exit', 0);
    expect(reaper.tracked()).toEqual([]);
    // Gone once reaped (a zombie still counts as a group member).
    await waitUntil(() => !isProcessGroupAlive(pgid), 3_000, 'the group to die');
    expect(isProcessAlive(pgid)).toBe(false);
    reaper.untrack(pgid);
    expect(host.listenerCount('exit')).toBe(0);
    expect(host.listenerCount('SIGINT')).toBe(0);
  });

  it('on a signal it alone handles: kills the groups, then re-raises the signal (default behaviour kept)', async () => {
    const host = new FakeHost();
    const reaper = new ProcessGroupReaper(host);
    const pgid = detachedSleeper();
    reaper.track(pgid);
    host.emit('SIGTERM', 'SIGTERM');
    await waitUntil(() => !isProcessAlive(pgid), 3_000, 'the group to die');
    expect(host.raised).toEqual([[4242, 'SIGTERM']]);
    expect(host.listenerCount('SIGTERM')).toBe(0);
  });

  it('when the app has its own handler for the signal, that handler decides: no re-raise', async () => {
    const host = new FakeHost();
    host.on('SIGINT', () => undefined);
    const reaper = new ProcessGroupReaper(host);
    const pgid = detachedSleeper();
    reaper.track(pgid);
    host.emit('SIGINT', 'SIGINT');
    await waitUntil(() => !isProcessAlive(pgid), 3_000, 'the group to die');
    expect(host.raised).toEqual([]);
  });
});
