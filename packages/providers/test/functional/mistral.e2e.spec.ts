import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type * as Mistral from '@mistralai/mistralai/models/components';
import * as mistral from '@toolwright/providers/mistral';
import {
  CALENDAR_ARGUMENTS,
  CALENDAR_VALUE,
  PROPOSE_ARGUMENTS,
  PROPOSE_VALUE,
  seedExecutor,
} from '../support/seed-executor';
import { startStubServer, type StubServer } from '../support/stub-server';

/**
 * @mistralai/mistralai is ESM-only and jest runs CommonJS, so the official client runs in a child Node process
 * (test/support/mistral-client.mjs) against the same stub server; the test sees exactly what the SDK returns.
 */
function runMistralClient(
  serverURL: string,
  requests: readonly Mistral.ChatCompletionRequest[],
): Promise<Mistral.ChatCompletionResponse[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'support', 'mistral-client.mjs')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as Mistral.ChatCompletionResponse[])
        : reject(new Error(`mistral client exited with ${code}: ${stderr}`)),
    );
    child.stdin.end(JSON.stringify({ serverURL, requests }));
  });
}

// The Mistral SDK loads its OpenTelemetry instrumentation (an optional peer that is installed here) on the first
// request: about 4 s under ts-jest on this machine, close to jest's 5 s default.
jest.setTimeout(30_000);

let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());

const response = (message: Record<string, unknown>, finishReason: string) => ({
  id: 'cmpl-e2e',
  object: 'chat.completion',
  model: 'mistral-large-latest',
  created: 1795425600,
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  choices: [{ index: 0, message, finish_reason: finishReason }],
});

describe('@mistralai/mistralai -> stub chat completions -> executor', () => {
  it('sends our tools, parses the calls (9-character ids), runs them and sends tool messages back', async () => {
    const { registry, run } = seedExecutor();
    const toolSet = mistral.createToolSet(registry);
    const assistant = {
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'D681PevKs',
          type: 'function',
          index: 0,
          function: { name: 'decision_propose', arguments: JSON.stringify(PROPOSE_ARGUMENTS) },
        },
        {
          id: 'Xy12Ab34C',
          type: 'function',
          index: 1,
          function: { name: 'get_calendar_events', arguments: JSON.stringify(CALENDAR_ARGUMENTS) },
        },
      ],
    };
    server.reply({ kind: 'json', body: response(assistant, 'tool_calls') });
    const messages: Mistral.ChatCompletionRequest['messages'] = [
      { role: 'user', content: 'Plan lunch and check my calendar.' },
    ];
    const [first] = await runMistralClient(server.url, [
      { model: 'mistral-large-latest', messages, tools: toolSet.tools, toolChoice: 'auto' },
    ]);
    expect(server.requests[0]?.url).toBe('/v1/chat/completions');
    expect(server.requests[0]?.body.tools).toEqual(toolSet.tools);

    const calls = mistral.parseToolCalls(first as Mistral.ChatCompletionResponse, { toolSet });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['D681PevKs', 'decision/propose'],
      ['Xy12Ab34C', 'get_calendar_events'],
    ]);
    const results = await run(calls);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([PROPOSE_VALUE, CALENDAR_VALUE]);

    server.reply({ kind: 'json', body: response({ role: 'assistant', content: 'Done.' }, 'stop') });
    const assistantMessage = first?.choices[0]?.message as Mistral.AssistantMessage;
    const toolMessages: Mistral.ToolMessage[] = mistral.toToolResultMessages(results, { toolSet });
    await runMistralClient(server.url, [
      {
        model: 'mistral-large-latest',
        messages: [
          ...messages,
          { ...assistantMessage, role: 'assistant' },
          ...toolMessages.map((message) => ({ ...message, role: 'tool' as const })),
        ],
        tools: toolSet.tools,
      },
    ]);
    expect(server.requests[1]?.body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'D681PevKs', name: 'decision_propose', content: JSON.stringify(PROPOSE_VALUE) },
      { role: 'tool', tool_call_id: 'Xy12Ab34C', name: 'get_calendar_events', content: JSON.stringify(CALENDAR_VALUE) },
    ]);
  });
});
