import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const WORKER = join(__dirname, '..', 'fixtures', 'worker.js');

/** A worker child process (test/fixtures/worker.js) running against the built packages. */
export class WorkerProcess {
  readonly output: string[] = [];
  private constructor(readonly child: ChildProcess) {}

  static async start(env: Record<string, string>): Promise<WorkerProcess> {
    const child = spawn(process.execPath, [WORKER], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    child.stderr.on('data', (chunk: Buffer) => worker.output.push(chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`worker did not start within 60 s: ${worker.output.join('')}`)),
        60_000,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        worker.output.push(chunk.toString());
        if (worker.output.join('').includes(`ready ${child.pid}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`worker exited with ${code}: ${worker.output.join('')}`));
      });
    });
    return worker;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** SIGTERM: the worker finishes its in-flight jobs, then exits. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.kill('SIGTERM');
    return exited;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }
}

/** Polls `check` every 25 ms until it returns true, at most `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
