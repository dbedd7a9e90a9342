import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the OpenAI Chat Completions API on 127.0.0.1, so the examples run with no key and no network: the
 * first request gets one tool call with `toolArguments` as its arguments text, every later request the final answer.
 */
export async function startStubModelServer(
  toolName: string,
  toolArguments: string,
  finalAnswer: string,
): Promise<{ baseURL: string; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      const message =
        requests === 1
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: toolName, arguments: toolArguments } }],
            }
          : { role: 'assistant', content: finalAnswer };
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'stub-model',
          choices: [{ index: 0, message, finish_reason: requests === 1 ? 'tool_calls' : 'stop', logprobs: null }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
