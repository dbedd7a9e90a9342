import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root, and the built binary the tests run as users do (`npm test` builds first). */
export const ROOT = resolve(__dirname, '..', '..', '..', '..');
export const BIN = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
export const FIXTURES = join(__dirname, '..', 'fixtures');
export const PERSONA_APP = 'examples/persona-app';

export function requireBuilt(): void {
  const missing = [
    BIN,
    join(ROOT, 'packages', 'cli', 'dist', 'web', 'app.js'),
    join(ROOT, 'examples', 'persona-app', 'dist', 'registry.js'),
  ].filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw new Error(`Not built: ${missing.join(', ')}. Run \`npm run build\` (npm test does) first.`);
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `toolwright <args>` to completion (killed after `timeoutMs`). */
export function runCli(args: readonly string[], options: { input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `toolwright ${args.join(' ')} did not finish within ${options.timeoutMs ?? 30_000} ms. stderr: ${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Starts a long-running command (`mcp --http`, `inspect`) and resolves with the first URL it prints on stdout. */
export function startCli(
  args: readonly string[],
  timeoutMs = 30_000,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `toolwright ${args.join(' ')} printed no URL within ${timeoutMs} ms. stdout: ${stdout} stderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /(http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveStart({ child, url: match[1], stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolwright ${args.join(' ')} exited (${code}) before printing a URL. stderr: ${stderr}`));
    });
  });
}

/** Sends SIGTERM and resolves with the exit code (SIGKILL after `graceMs`). */
export function stop(child: ChildProcess, graceMs = 10_000): Promise<number | null> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop(child.exitCode);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveStop(code);
    });
    child.kill('SIGTERM');
  });
}

export const ANSI_ESCAPE = /\u001b\[/;
