import 'reflect-metadata';
import { Agent, OpenAIChatCompletionsModel, run, RunState, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import type { ToolResult } from '@toolwright/core';
import { toAgentsTools } from '@toolwright/interop/openai-agents';
import { batchRefundExecutor, nestedResults, refundExecutor, refunds } from '../support/commands';
import { startStubOpenAIServer, toolMessagesOf, type StubOpenAIServer } from '../support/stub-openai-server';

jest.setTimeout(30_000);

let server: StubOpenAIServer | undefined;

beforeAll(() => {
  setTracingDisabled(true);
});

afterEach(async () => {
  await server?.close();
});

async function agentFor(script: Parameters<typeof startStubOpenAIServer>[0]) {
  server = await startStubOpenAIServer(script);
  const results: ToolResult[] = [];
  const executor = refundExecutor();
  const agent = new Agent<{ sessionId: string }>({
    name: 'Refunds',
    instructions: 'Refund orders with the tool.',
    model: new OpenAIChatCompletionsModel(
      new OpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network', maxRetries: 0 }),
      'gpt-4o-mini',
    ),
    tools: toAgentsTools(executor, { onResult: (result) => results.push(result) }),
  });
  return { server, agent, results };
}

describe('toAgentsTools: a tool with approval maps to the Agents SDK needsApproval and interruptions', () => {
  it('interrupts the run; the state survives serialization; approved, the resumed run calls the tool once', async () => {
    const { server, agent, results } = await agentFor([
      { toolCalls: [{ id: 'r1', name: 'refund_order', arguments: '{"order_id": "o-9", "cents": "700"}' }] },
      { text: 'Refunded 7.00.' },
    ]);
    const first = await run(agent, 'Refund o-9', { context: { sessionId: 'trusted-session' }, maxTurns: 4 });
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]!.name).toBe('refund_order');
    expect(refunds).toEqual([]);

    // A restart: the run state as text, read back by a new RunState.
    const saved = first.state.toString();
    const state = await RunState.fromString(agent, saved);
    state.approve(state.getInterruptions()[0]!);
    const resumed = await run(agent, state, { maxTurns: 4 });
    expect(resumed.finalOutput).toBe('Refunded 7.00.');
    expect(refunds).toHaveLength(1);
    expect({ ...refunds[0] }).toEqual({ orderId: 'o-9', cents: 700, sessionId: 'trusted-session' });
    expect(results).toEqual([expect.objectContaining({ ok: true, callId: 'r1' })]);
    expect(toolMessagesOf(server.requests.at(-1))).toEqual([
      { tool_call_id: 'r1', content: JSON.stringify({ refunded: 700, order: 'o-9', session: 'trusted-session' }) },
    ]);
  });

  it('validates first: an invalid call gets the model-facing error and no interruption', async () => {
    const { server, agent } = await agentFor([
      { toolCalls: [{ id: 'bad', name: 'refund_order', arguments: '{"order_id": "o-1", "cents": 0}' }] },
      { text: 'Could not refund.' },
    ]);
    const outcome = await run(agent, 'Refund o-1', { context: { sessionId: 's' }, maxTurns: 4 });
    expect(outcome.interruptions ?? []).toEqual([]);
    expect(outcome.finalOutput).toBe('Could not refund.');
    expect(toolMessagesOf(server.requests.at(-1))[0]!.content).toContain('must be an integer >= 1');
    expect(refunds).toEqual([]);
  });

  it('rejected, the model is told and nothing runs', async () => {
    const { agent } = await agentFor([
      { toolCalls: [{ id: 'r2', name: 'refund_order', arguments: '{"order_id": "o-2", "cents": 5}' }] },
      { text: 'The refund was rejected.' },
    ]);
    const first = await run(agent, 'Refund o-2', { context: { sessionId: 's' }, maxTurns: 4 });
    first.state.reject(first.interruptions[0]!);
    const resumed = await run(agent, first.state, { maxTurns: 4 });
    expect(resumed.finalOutput).toBe('The refund was rejected.');
    expect(refunds).toEqual([]);
  });

  it('an approved call is one call: its handler calling a gated tool with its own invocation.context is asked again', async () => {
    server = await startStubOpenAIServer([
      { toolCalls: [{ id: 'b1', name: 'refund_batch', arguments: '{"order_id": "o-7"}' }] },
      { text: 'Done.' },
    ]);
    const agent = new Agent<{ sessionId: string }>({
      name: 'Planner',
      instructions: 'Run the plan with the tools.',
      model: new OpenAIChatCompletionsModel(
        new OpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network', maxRetries: 0 }),
        'gpt-4o-mini',
      ),
      tools: toAgentsTools(batchRefundExecutor()),
    });
    const first = await run(agent, 'Run the plan', { context: { sessionId: 'trusted-session' }, maxTurns: 4 });
    expect(first.interruptions).toHaveLength(1);
    first.state.approve(first.interruptions[0]!);
    const resumed = await run(agent, first.state, { maxTurns: 4 });
    expect(resumed.finalOutput).toBe('Done.');
    expect(nestedResults).toEqual([
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'APPROVAL_REQUIRED' }) }),
    ]);
    expect(refunds).toEqual([]);
  });
});
