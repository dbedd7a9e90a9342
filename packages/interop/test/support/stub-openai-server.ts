import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted assistant turn: tool calls (arguments as raw text, exactly as a model might send them) or text. */
export type ScriptedTurn =
  | { readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }> }
  | { readonly text: string };

export interface StubOpenAIServer {
  /** `http://127.0.0.1:<port>/v1`: what an OpenAI client's `baseURL` is set to. */
  readonly baseURL: string;
  /** Every request body received, in order (the tool results the framework sent back are in here). */
  readonly requests: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * An OpenAI Chat Completions endpoint on 127.0.0.1 that answers from a script, one turn per request (the last turn
 * repeats once the script is used up, so a framework that keeps retrying stops at its own step limit). A request with
 * `stream: true` gets the same turn as server-sent events.
 */
export async function startStubOpenAIServer(script: readonly ScriptedTurn[]): Promise<StubOpenAIServer> {
  const requests: Array<Record<string, unknown>> = [];
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a stub: every path answers before it can throw.
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: `no route ${request.method} ${request.url}`, type: 'invalid_request_error' },
        }),
      );
      return;
    }
    const parsed = JSON.parse(body) as Record<string, unknown>;
    requests.push(parsed);
    const turn = script[Math.min(requests.length - 1, script.length - 1)]!;
    const id = `chatcmpl-${requests.length}`;
    const model = typeof parsed['model'] === 'string' ? parsed['model'] : 'stub-model';
    const finishReason = 'toolCalls' in turn ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
    if (parsed['stream'] === true) {
      // Server-sent events as the Chat Completions API streams them: the turn in one delta, the finish reason, [DONE].
      const delta =
        'toolCalls' in turn
          ? {
              role: 'assistant',
              tool_calls: turn.toolCalls.map((call, index) => ({
                index,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : { role: 'assistant', content: turn.text };
      const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, logprobs: null, ...choice }], ...extra })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(
        chunk({ delta, finish_reason: null }) +
          chunk({ delta: {}, finish_reason: finishReason }, { usage }) +
          'data: [DONE]\n\n',
      );
      return;
    }
    const message =
      'toolCalls' in turn
        ? {
            role: 'assistant',
            content: null,
            tool_calls: turn.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          }
        : { role: 'assistant', content: turn.text };
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The `tool` role messages of one recorded request: what the framework sent the model as tool results. */
export function toolMessagesOf(
  request: Record<string, unknown> | undefined,
): Array<{ tool_call_id: string; content: string }> {
  const messages = (request?.['messages'] ?? []) as Array<Record<string, unknown>>;
  return messages
    .filter((message) => message['role'] === 'tool')
    .map((message) => ({
      tool_call_id: String(message['tool_call_id']),
      content: typeof message['content'] === 'string' ? message['content'] : JSON.stringify(message['content']),
    }));
}
