/**
 * The official Mistral client, usable from jest: @mistralai/mistralai is ESM-only and jest runs CommonJS, so the
 * client runs in a child Node process (mistral-client.mjs --serve) pointed at a stub server, and this object forwards
 * `chat.complete(request, { signal })` and `chat.stream(request, { signal })` to it. What the adapter gets back is
 * exactly what the SDK returned or yielded (after its own SSE parsing, validation and camelCase mapping), serialized as
 * JSON; an aborted signal aborts the SDK's call in the child.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface MistralClientProcess {
  readonly chat: {
    complete(request: object, options?: { signal?: AbortSignal }): Promise<object>;
    /** The SDK's `chat.stream`: the events it yields, in order, as they arrive from the child. */
    stream(request: object, options?: { signal?: AbortSignal }): AsyncIterable<object>;
  };
  /** Every request the adapter handed the client, as it handed it (before the SDK's mapping). */
  readonly requests: object[];
  close(): Promise<void>;
}

interface StreamLine {
  readonly event?: object;
  readonly end?: boolean;
  readonly error?: { name: string; message: string };
}

export function startMistralClientProcess(serverURL: string): MistralClientProcess {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(__dirname, 'mistral-client.mjs'), '--serve', serverURL],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const pending = new Map<number, { resolve: (response: object) => void; reject: (error: Error) => void }>();
  /** Open streams: each gets its call's event lines (and its end or error) pushed as they arrive. */
  const streams = new Map<number, (line: StreamLine) => void>();
  const requests: object[] = [];
  let stderr = '';
  let nextId = 1;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.on('exit', (code) => {
    const error = new Error(`mistral client process exited with ${code}: ${stderr}`);
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    for (const push of streams.values()) push({ error: { name: error.name, message: error.message } });
    streams.clear();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as StreamLine & { id: number; response?: object };
    const streaming = streams.get(message.id);
    if (streaming) {
      if (message.end || message.error) streams.delete(message.id);
      streaming(message);
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
    else waiting.resolve(message.response ?? {});
  });
  const send = (message: object): void => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  return {
    requests,
    chat: {
      complete(request, options = {}) {
        requests.push(request);
        const id = nextId++;
        const { signal } = options;
        return new Promise<object>((resolve, reject) => {
          pending.set(id, { resolve, reject });
          send({ id, request });
          if (signal?.aborted) send({ id, abort: true });
          else signal?.addEventListener('abort', () => send({ id, abort: true }), { once: true });
        });
      },
      async *stream(request, options = {}) {
        requests.push(request);
        const id = nextId++;
        const lines: StreamLine[] = [];
        let wake: (() => void) | undefined;
        streams.set(id, (line) => {
          lines.push(line);
          wake?.();
        });
        send({ id, stream: request });
        const { signal } = options;
        if (signal?.aborted) send({ id, abort: true });
        else signal?.addEventListener('abort', () => send({ id, abort: true }), { once: true });
        for (;;) {
          if (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          const line = lines.shift()!;
          if (line.error) throw Object.assign(new Error(line.error.message), { name: line.error.name });
          if (line.end) return;
          yield line.event!;
        }
      },
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
