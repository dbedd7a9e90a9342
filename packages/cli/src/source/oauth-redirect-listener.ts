import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpAuthorizationRequest } from '@toolwright/mcp';
import { CliError } from '../errors/cli-error';

/** Where the CLI's OAuth redirect comes back to: `http://127.0.0.1:<port>/callback`. */
export const REDIRECT_PATH = '/callback';
/** The port registered as the redirect URI's (a registration keeps its redirect URI across runs). */
export const DEFAULT_REDIRECT_PORT = 33_418;

/** A local listener for the OAuth redirect step of a command-line run: one authorization at a time. */
export interface OAuthRedirectListener {
  readonly redirectUrl: string;
  /** `McpOAuthOptions.authorize`: prints the URL to open on stderr and resolves with the redirect the browser brought. */
  authorize(request: McpAuthorizationRequest): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>toolwright</title><p>${text}</p><p>You can close this tab.</p>\n`;

/**
 * Listens on 127.0.0.1 only (a browser on this machine is the only party that should reach it). Every request to
 * another path gets 404; a redirect that arrives while no authorization is pending gets 409 and is ignored.
 */
export async function startOAuthRedirectListener(
  port: number,
  writeErr: (text: string) => void,
): Promise<OAuthRedirectListener> {
  let pending: ((url: string) => void) | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (request.method !== 'GET' || url.pathname !== REDIRECT_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const resolve = pending;
    if (resolve === undefined) {
      response.writeHead(409, { 'content-type': 'text/html' }).end(PAGE('No authorization is waiting for this.'));
      return;
    }
    pending = undefined;
    const failed = url.searchParams.has('error');
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(PAGE(failed ? 'The authorization was not granted.' : 'Authorized: toolwright continues in the terminal.'));
    resolve(url.href);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          `The OAuth redirect listener cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}). Fix: pass a free port with --oauth-port.`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${REDIRECT_PATH}`;
  return {
    redirectUrl,
    authorize: (request) =>
      new Promise<string>((resolve, reject) => {
        if (pending !== undefined) {
          reject(new Error('another authorization is already waiting for the browser'));
          return;
        }
        const stop = () => {
          pending = undefined;
          reject(request.signal.reason instanceof Error ? request.signal.reason : new Error('cancelled'));
        };
        if (request.signal.aborted) return stop();
        request.signal.addEventListener('abort', stop, { once: true });
        pending = (url) => {
          request.signal.removeEventListener('abort', stop);
          resolve(url);
        };
        writeErr(
          `MCP server '${request.server}' needs your authorization. Open this URL in a browser:\n  ${request.authorizationUrl.href}\n`,
        );
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
