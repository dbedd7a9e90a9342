import 'reflect-metadata';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DefinitionError, silentLogger } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';
import { ToolwrightMcpHttpModule, type ToolwrightMcpHttpOptions } from '@toolwright/nestjs/mcp';

/**
 * `ToolwrightMcpHttpModule` sets the timeouts of Nest's own HTTP server (express adapter), as `serveMcp` does for its
 * server: real sockets on 127.0.0.1 that send nothing, trickle their headers, trickle a body, or sit idle.
 */
jest.setTimeout(30_000);

/** A raw TCP connection, recording what it receives and when it is closed. */
class RawConnection {
  readonly socket: Socket;
  received = '';
  closed = false;
  private readonly whenClosed: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => undefined);
    this.whenClosed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closed = true;
        resolve();
      }),
    );
  }

  async opened(): Promise<void> {
    if (this.socket.readyState !== 'open') await new Promise((resolve) => this.socket.once('connect', resolve));
  }

  /** Resolves when the server closed the connection; rejects after `withinMs`. */
  async closedWithin(withinMs: number, what: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.whenClosed,
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: still open after ${withinMs} ms`)), withinMs);
      }),
    ]).finally(() => clearTimeout(timer));
  }
}

const apps: INestApplication[] = [];
const sockets: Socket[] = [];

async function start(options: ToolwrightMcpHttpOptions): Promise<{ app: INestApplication }> {
  @Module({ imports: [ToolwrightModule.forRoot({ logger: silentLogger }), ToolwrightMcpHttpModule.forRoot(options)] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
  apps.push(app);
  await app.listen(0, '127.0.0.1');
  return { app };
}

function portOf(app: INestApplication): number {
  const address = (app.getHttpServer() as Server).address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port');
  return address.port;
}

function raw(app: INestApplication): RawConnection {
  const connection = new RawConnection(portOf(app));
  sockets.push(connection.socket);
  return connection;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe("ToolwrightMcpHttpModule: the Nest HTTP server's timeouts", () => {
  it('closes a socket that sends nothing and one that trickles its headers after headersTimeoutMs (408)', async () => {
    const { app } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const idle = raw(app);
    const trickle = raw(app);
    await Promise.all([idle.opened(), trickle.opened()]);
    trickle.socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => trickle.socket.write('X-Slow: 1\r\n'), 50);
    try {
      await Promise.all([
        idle.closedWithin(5_000, 'the idle socket'),
        trickle.closedWithin(5_000, 'the trickling socket'),
      ]);
    } finally {
      clearInterval(timer);
    }
    expect(idle.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(trickle.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a request whose body trickles after requestTimeoutMs (408)', async () => {
    const { app } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const slow = raw(app);
    await slow.opened();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    slow.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${portOf(app)}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < body.length - 1) slow.socket.write(body[sent++]!);
    }, 20);
    try {
      await slow.closedWithin(5_000, 'the slow-body socket');
    } finally {
      clearInterval(timer);
    }
    expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive socket that stays idle after keepAliveTimeoutMs, having answered its request', async () => {
    const { app } = await start({ headersTimeoutMs: 8_000, requestTimeoutMs: 16_000, keepAliveTimeoutMs: 300 });
    const keptAlive = raw(app);
    await keptAlive.opened();
    keptAlive.socket.write(
      `GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1:${portOf(app)}\r\nConnection: keep-alive\r\n\r\n`,
    );
    const started = Date.now();
    await keptAlive.closedWithin(5_000, 'the kept-alive socket');
    expect(keptAlive.received).toMatch(/^HTTP\/1\.1 404 /);
    expect(Date.now() - started).toBeLessThan(6_000); // the keep-alive limit, not the 8 s headers limit
  });

  it("uses serveMcp's defaults, and leaves the server alone with configureHttpServer: false", async () => {
    const { app } = await start({});
    const server = app.getHttpServer() as Server;
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.maxConnections]).toEqual([
      10_000, 30_000, 5_000, 2_000,
    ]);
    const { app: untouched } = await start({ configureHttpServer: false });
    const defaults = untouched.getHttpServer() as Server;
    expect([defaults.headersTimeout, defaults.requestTimeout, defaults.keepAliveTimeout]).toEqual([
      60_000, 300_000, 5_000,
    ]);
  });

  it('refuses headers given more time than the whole request, at bootstrap', async () => {
    await expect(start({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).rejects.toThrow(DefinitionError);
    await expect(start({ headersTimeoutMs: -1 })).rejects.toThrow(/headersTimeoutMs is -1/);
  });
});
