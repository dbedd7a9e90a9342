import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPOSITORY_ROOT = resolve(__dirname, '..', '..', '..', '..');
export const EXPECTED_FAILURES = join(__dirname, 'expected-failures.yml');
const CONFORMANCE_CLI = join(
  REPOSITORY_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);

/** The conformance CLI needs Node >= 22: this process's node when it is, else the project-local `node` package's binary. */
export function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const local = join(REPOSITORY_ROOT, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(local))
    throw new Error(`The conformance suite needs Node >= 22; ${local} is missing (it comes with npm install).`);
  return local;
}

export interface ConformanceRun {
  readonly code: number | null;
  readonly output: string;
}

/** Runs `conformance <args>` (offline: it only talks to the URLs and commands it is given), in a scratch directory for its results. */
export function runConformance(args: readonly string[], timeoutMs: number): Promise<ConformanceRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node22(), [CONFORMANCE_CLI, ...args], {
      cwd: mkdtempSync(join(tmpdir(), 'toolwright-conformance-')),
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}
