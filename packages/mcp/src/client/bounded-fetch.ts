import type { FetchLike } from '@modelcontextprotocol/server';
import { McpResponseTooLargeError } from '../errors/mcp-response-too-large-error';
import { clientMessages } from '../messages';

/** A JSON-RPC error code of our own (implementation-defined range), for a response the client refused to read whole. */
export const RESPONSE_TOO_LARGE_CODE = -32_099;

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * A `fetch` for the SDK's `StreamableHTTPClientTransport` that never lets it buffer more than `maxBytes` of one
 * message. A JSON body (and an error body) is cut off past `maxBytes` in total: reading it fails with an
 * `McpResponseTooLargeError`, so the call fails at once. An SSE stream is counted per event (the bytes since the
 * last blank line), so a long-lived stream of small events is never cut; an event past the limit ends the stream,
 * and for a request's own stream a JSON-RPC error answering that request is delivered in its place, so the pending
 * call fails at once instead of waiting for its timeout. A `Content-Length` above the limit is refused before
 * anything is read.
 */
export function boundedFetch(maxBytes: number, server: string, baseFetch: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    // No body to bound, or a redirect the SDK follows (passed on as it is, its url and type intact).
    if (
      response.body === null ||
      response.status < 200 ||
      response.status === 204 ||
      response.status === 205 ||
      (response.status >= 300 && response.status < 400)
    )
      return response;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    const tooLarge = () => new McpResponseTooLargeError(clientMessages.responseTooLarge(server, maxBytes), maxBytes);
    const isEventStream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (!isEventStream && Number.isFinite(declared) && declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      const error = tooLarge();
      return new Response(new ReadableStream({ start: (controller) => controller.error(error) }), response);
    }
    const counter = isEventStream
      ? new EventSizeCounter(maxBytes, requestIdOf(init?.body))
      : new TotalSizeCounter(maxBytes);
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const overflow = counter.add(chunk);
          if (overflow === undefined) {
            controller.enqueue(chunk);
            return;
          }
          if (overflow.length > 0) controller.enqueue(overflow);
          const replacement = counter.replacement(maxBytes, server);
          if (replacement !== undefined) {
            controller.enqueue(replacement);
            controller.terminate();
          } else controller.error(tooLarge());
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

interface SizeCounter {
  /** `undefined` while within the limit; else the part of `chunk` that still fits (passed on before the cut). */
  add(chunk: Uint8Array): Uint8Array | undefined;
  /** What ends the stream in place of the rest (an SSE answer), or `undefined` to fail the read. */
  replacement(maxBytes: number, server: string): Uint8Array | undefined;
}

class TotalSizeCounter implements SizeCounter {
  private total = 0;
  constructor(private readonly maxBytes: number) {}
  add(chunk: Uint8Array): Uint8Array | undefined {
    this.total += chunk.byteLength;
    return this.total > this.maxBytes ? new Uint8Array(0) : undefined;
  }
  replacement(): undefined {
    return undefined;
  }
}

/** Counts the bytes of the current SSE event (since the last blank line), in one pass over each chunk. */
class EventSizeCounter implements SizeCounter {
  private eventBytes = 0;
  private lineBytes = 0;
  private previous = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly requestId: string | number | undefined,
  ) {}

  add(chunk: Uint8Array): Uint8Array | undefined {
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      const crlf = byte === LINE_FEED && this.previous === CARRIAGE_RETURN;
      this.previous = byte;
      if (crlf) continue;
      if (byte === LINE_FEED || byte === CARRIAGE_RETURN) {
        if (this.lineBytes === 0) this.eventBytes = 0;
        this.lineBytes = 0;
        continue;
      }
      this.lineBytes++;
      if (++this.eventBytes > this.maxBytes) return new Uint8Array(0);
    }
    return undefined;
  }

  replacement(maxBytes: number, server: string): Uint8Array | undefined {
    if (this.requestId === undefined) return undefined;
    const answer = {
      jsonrpc: '2.0',
      id: this.requestId,
      error: { code: RESPONSE_TOO_LARGE_CODE, message: clientMessages.responseTooLarge(server, maxBytes) },
    };
    // Ends the cut event (its partial data is reported as a bad message), then answers the request.
    return new TextEncoder().encode(`\n\nevent: message\ndata: ${JSON.stringify(answer)}\n\n`);
  }
}

/** The id of the single JSON-RPC request a POST carries (the SDK sends one message per POST), if any. */
function requestIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'string' || body.length > 1_048_576) return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    if (typeof message !== 'object' || message === null || Array.isArray(message) || typeof message.method !== 'string')
      return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}
