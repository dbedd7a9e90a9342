// Runs the official @mistralai/mistralai client (ESM-only, so outside jest's CommonJS runtime) against a stub
// server. Two modes:
// - one-shot (default): reads {serverURL, requests: [ChatCompletionRequest...]} as JSON on stdin, sends each with
//   client.chat.complete, and writes the SDK's responses as a JSON array on stdout;
// - `--serve <serverURL>`: a long-lived client for test/support/mistral-process.ts. Reads one JSON message per line
//   on stdin, `{"id", "request"}` (send it with client.chat.complete), `{"id", "stream": request}` (send it with
//   client.chat.stream) or `{"id", "abort": true}` (abort that call's signal), and writes on stdout one line per call,
//   `{"id", "response"}` or `{"id", "error": {name, message}}`; a stream writes `{"id", "event"}` for each event the
//   SDK yields (after its own SSE parsing, validation and camelCase mapping), then `{"id", "end": true}`.
import { createInterface } from 'node:readline';
import { Mistral } from '@mistralai/mistralai';

const serveIndex = process.argv.indexOf('--serve');
if (serveIndex >= 0) {
  const client = new Mistral({
    apiKey: 'test-key',
    serverURL: process.argv[serveIndex + 1],
    retryConfig: { strategy: 'none' },
  });
  const controllers = new Map();
  const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line);
    if (message.abort) {
      controllers.get(message.id)?.abort();
      continue;
    }
    const controller = new AbortController();
    controllers.set(message.id, controller);
    const failed = (error) =>
      write({ id: message.id, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } });
    if (message.stream) {
      (async () => {
        const stream = await client.chat.stream(message.stream, { signal: controller.signal });
        for await (const event of stream) write({ id: message.id, event });
        write({ id: message.id, end: true });
      })()
        .catch(failed)
        .finally(() => controllers.delete(message.id));
      continue;
    }
    client.chat
      .complete(message.request, { signal: controller.signal })
      .then((response) => write({ id: message.id, response }), failed)
      .finally(() => controllers.delete(message.id));
  }
} else {
  let input = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) input += chunk;
  const { serverURL, requests } = JSON.parse(input);
  const client = new Mistral({ apiKey: 'test-key', serverURL, retryConfig: { strategy: 'none' } });
  const responses = [];
  for (const request of requests) responses.push(await client.chat.complete(request));
  process.stdout.write(JSON.stringify(responses));
}
