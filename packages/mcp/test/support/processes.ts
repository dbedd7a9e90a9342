import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '@toolwright/mcp';

export const FIXTURES = join(__dirname, '..', 'fixtures');
export const FAKE_SERVER = join(FIXTURES, 'fake-stdio-server.js');
export const SDK_SERVER = join(FIXTURES, 'sdk-stdio-server.js');

/** A fresh file path for a fixture's event log. */
export function logFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'toolwright-mcp-')), `${name}.jsonl`);
}

export function readEvents(file: string): Array<Record<string, any>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** Resolves with the first event matching `predicate` (polls the file). */
export async function waitForEvent(
  file: string,
  predicate: (event: Record<string, any>) => boolean,
  timeoutMs = 5_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const event = readEvents(file).find(predicate);
    if (event) return event;
    if (Date.now() > deadline)
      throw new Error(`no matching event in ${file} within ${timeoutMs} ms: ${JSON.stringify(readEvents(file))}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every pid of the fixture's process tree it reported (server and grandchild). */
export function reportedPids(file: string): number[] {
  return readEvents(file)
    .filter((event) => event['event'] === 'pid')
    .flatMap((event) => [event['pid'], event['grandchild']])
    .filter((pid): pid is number => typeof pid === 'number');
}

/** The pids still alive (zombies count as gone). */
export function alive(pids: readonly number[]): number[] {
  return pids.filter((pid) => isProcessAlive(pid));
}

export async function waitUntil(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
