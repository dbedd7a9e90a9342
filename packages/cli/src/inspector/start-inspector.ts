import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../errors/cli-error';
import { createInspector, type Inspector, type InspectorOptions } from './inspector';

export interface StartInspectorOptions extends InspectorOptions {
  /** Default `127.0.0.1`: loopback only. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
}

export interface RunningInspector {
  /** The page's address with the token: `http://127.0.0.1:41234/?token=...`. */
  readonly url: string;
  readonly port: number;
  readonly inspector: Inspector;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Serves the inspector on its own HTTP server (what `toolwright inspect` runs). */
export async function startInspector(options: StartInspectorOptions): Promise<RunningInspector> {
  const host = options.host ?? '127.0.0.1';
  const inspector = createInspector(options);
  const server: Server = createServer((request, response) => {
    // DNS rebinding: on a loopback interface only loopback Host names are answered.
    const hostHeader = (request.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (LOOPBACK.has(host) && !LOOPBACK.has(hostHeader)) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('The inspector answers loopback host names only.');
      return;
    }
    inspector.handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          `inspect: cannot listen on ${host}:${options.port ?? 0} (${error.code ?? error.message}). Fix: choose another --port.`,
          2,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${encodeURIComponent(inspector.token)}`,
    port,
    inspector,
    close: () =>
      new Promise<void>((resolve) => {
        inspector.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
