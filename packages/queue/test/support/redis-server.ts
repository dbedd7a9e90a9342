import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

/**
 * A real redis-server on 127.0.0.1 and a free port, with an append-only file: `fsync: 'always'` fsyncs every write, so
 * even a killed server keeps every accepted job; `'everysec'` (faster) keeps them across a clean shutdown.
 */
export class RedisServer {
  private process: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly fsync: 'always' | 'everysec',
  ) {}

  static async start(fsync: 'always' | 'everysec' = 'everysec'): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), 'toolwright-redis-')), fsync);
    await server.launch();
    return server;
  }

  get connection() {
    return { host: '127.0.0.1', port: this.port, maxRetriesPerRequest: null };
  }

  client(): Redis {
    return new Redis(this.connection);
  }

  /** SIGTERM: redis-server shuts down cleanly, fsyncing the append-only file; SIGKILL: a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  async restart(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    await this.stop(signal);
    await this.launch();
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        this.fsync,
        '--dir',
        this.dir,
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.process = child;
    const probe = new Redis({
      host: '127.0.0.1',
      port: this.port,
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
    });
    try {
      for (let attempt = 0; attempt < 100; attempt++) {
        if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
        try {
          if (probe.status !== 'ready') await probe.connect();
          if ((await probe.ping()) === 'PONG') return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      throw new Error(`redis-server did not answer on 127.0.0.1:${this.port} within 5 s`);
    } finally {
      probe.disconnect();
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
