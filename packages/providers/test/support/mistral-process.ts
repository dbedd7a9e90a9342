/**
 * The official Mistral client, usable from jest: @mistralai/mistralai is ESM-only and jest runs CommonJS, so the
 * client runs in a child Node process (mistral-client.mjs --serve) pointed at a stub server, and this object forwards
 * `chat.complete(request, { signal })` to it. What the adapter gets back is exactly what the SDK returned (after its
 * own validation and camelCase mapping), serialized as JSON; an aborted signal aborts the SDK's call in the child.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface MistralClientProcess {
  readonly chat: { complete(request: object, options?: { signal?: AbortSignal }): Promise<object> };
  /** Every request the adapter handed the client, as it handed it (before the SDK's mapping). */
  readonly requests: object[];
  close(): Promise<void>;
}

export function startMistralClientProcess(serverURL: string): MistralClientProcess {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(__dirname, 'mistral-client.mjs'), '--serve', serverURL],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const pending = new Map<number, { resolve: (response: object) => void; reject: (error: Error) => void }>();
  const requests: object[] = [];
  let stderr = '';
  let nextId = 1;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.on('exit', (code) => {
    for (const { reject } of pending.values())
      reject(new Error(`mistral client process exited with ${code}: ${stderr}`));
    pending.clear();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { id: number; response?: object; error?: { name: string; message: string } };
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
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
