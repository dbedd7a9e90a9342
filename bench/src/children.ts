import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs one of the bench's scripts (`child.js <mode> <count>`, `startup.js <commands>`) in a fresh Node process and
 * returns what it printed on its `@@result <json>` line; throws with the child's stderr when it failed.
 */
export function runChild<T>(script: string, args: readonly string[], nodeFlags: readonly string[] = []): T {
  const result = spawnSync(process.execPath, [...nodeFlags, join(__dirname, script), ...args], {
    encoding: 'utf8',
    timeout: 900_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = result.stdout?.split('\n').find((candidate) => candidate.startsWith('@@result '));
  if (result.status !== 0 || line === undefined) {
    throw new Error(
      `${script} ${args.join(' ')} failed (status ${result.status}${result.signal ? `, ${result.signal}` : ''}): ${(result.stderr ?? '').trim().slice(0, 2000)}`,
    );
  }
  return JSON.parse(line.slice('@@result '.length)) as T;
}
