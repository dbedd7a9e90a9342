// Runs the official @mistralai/mistralai client (ESM-only, so outside jest's CommonJS runtime) against a stub
// server. Two modes:
// - one-shot (default): reads {serverURL, requests: [ChatCompletionRequest...]} as JSON on stdin, sends each with
//   client.chat.complete, and writes the SDK's responses as a JSON array on stdout;
// - `--serve <serverURL>`: a long-lived client for test/support/mistral-process.ts. Reads one JSON message per line
//   on stdin, `{"id", "request"}` (send it with client.chat.complete) or `{"id", "abort": true}` (abort that call's
//   signal), and writes one line per call on stdout: `{"id", "response"}` or `{"id", "error": {name, message}}`.
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
    client.chat
      .complete(message.request, { signal: controller.signal })
      .then(
        (response) => write({ id: message.id, response }),
        (error) =>
          write({ id: message.id, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } }),
      )
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
