// Runs the official @mistralai/mistralai client (ESM-only, so outside jest's CommonJS runtime) against a stub
// server: reads {serverURL, requests: [ChatCompletionRequest...]} as JSON on stdin, sends each with
// client.chat.complete, and writes the SDK's responses as a JSON array on stdout.
import { Mistral } from '@mistralai/mistralai';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const { serverURL, requests } = JSON.parse(input);
const client = new Mistral({ apiKey: 'test-key', serverURL, retryConfig: { strategy: 'none' } });
const responses = [];
for (const request of requests) responses.push(await client.chat.complete(request));
process.stdout.write(JSON.stringify(responses));
