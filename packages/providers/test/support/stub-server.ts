/**
 * A local stand-in for a provider API: an HTTP server on 127.0.0.1 (ephemeral port) that records every request
 * and answers from a queue of scripted replies (JSON, or server-sent events for streaming). No test touches the
 * network.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'] | Http2ServerRequest['headers'];
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly body: any;
}

export type StubReply =
  | {
      readonly kind: 'json';
      readonly status?: number;
      readonly body: unknown;
      readonly headers?: Record<string, string>;
    }
  | { readonly kind: 'sse'; readonly events: readonly unknown[]; readonly done?: string; readonly named?: boolean }
  | { readonly kind: 'ndjson'; readonly lines: readonly unknown[] }
  /** Bytes as they are (an AWS event stream, for Bedrock's ConverseStream). */
  | { readonly kind: 'binary'; readonly contentType: string; readonly body: Uint8Array }
  /** No answer at all until the server closes: a slow model, for cancelling a request in flight. */
  | { readonly kind: 'hold' }
  /**
   * A reply computed from the request it answers (a scripted model that reacts to what it was sent). If `respond`
   * throws, the server answers 500 with the error's message, so the client under test fails with that message.
   */
  | {
      readonly kind: 'respond';
      readonly respond: (request: RecordedRequest) => Exclude<StubReply, { readonly kind: 'respond' }>;
    };

export interface StubServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues the reply for the next request. */
  reply(reply: StubReply): void;
  /** Forgets the recorded requests and any replies still queued (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/** What both HTTP/1 and HTTP/2 compatibility responses offer. */
interface AnyResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): unknown;
  end(chunk?: string | Uint8Array): unknown;
}

function send(response: AnyResponse, reply: StubReply, request: RecordedRequest): void {
  if (reply.kind === 'respond') {
    let computed: StubReply;
    try {
      computed = reply.respond(request);
    } catch (error) {
      computed = {
        kind: 'json',
        status: 500,
        body: { error: { message: `stub server: ${error instanceof Error ? error.message : String(error)}` } },
      };
    }
    send(response, computed, request);
    return;
  }
  if (reply.kind === 'hold') return;
  if (reply.kind === 'json') {
    response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.body));
    return;
  }
  if (reply.kind === 'binary') {
    response.writeHead(200, { 'content-type': reply.contentType });
    response.end(reply.body);
    return;
  }
  if (reply.kind === 'ndjson') {
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    response.end(reply.lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of reply.events) {
    const type =
      reply.named && typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
    response.write(`${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
  }
  if (reply.done !== undefined) response.write(`data: ${reply.done}\n\n`);
  response.end();
}

export interface StubServerOptions {
  /** Speak HTTP/2 without TLS (h2c, prior knowledge), as the Bedrock runtime client does by default. */
  readonly http2?: boolean;
}

export async function startStubServer(options: StubServerOptions = {}): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const replies: StubReply[] = [];
  const handle = (
    request: IncomingMessage | Http2ServerRequest,
    response: ServerResponse | Http2ServerResponse,
  ): void => {
    reply(request, response);
  };
  const reply = (request: IncomingMessage | Http2ServerRequest, response: AnyResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        text,
        body,
      };
      requests.push(recorded);
      const reply = replies.shift();
      if (!reply) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { message: `stub server: no reply queued for ${request.method} ${request.url}` } }),
        );
        return;
      }
      send(response, reply, recorded);
    });
  };
  const sessions = new Set<Http2Session>();
  const server = options.http2 ? createHttp2Server(handle) : createServer(handle);
  if (options.http2) {
    server.on('session', (session: Http2Session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
  }
  // No idle timeout on kept-alive connections: a client reusing one just as the server closed it gets ECONNRESET (seen
  // under load between two streamed replies). `close()` ends them all.
  if (!options.http2) (server as ReturnType<typeof createServer>).keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (next) => replies.push(next),
    reset: () => {
      requests.splice(0);
      replies.splice(0);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        for (const session of sessions) session.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
