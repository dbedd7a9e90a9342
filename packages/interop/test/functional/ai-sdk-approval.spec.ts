import 'reflect-metadata';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import type { ToolResult } from '@toolwright/core';
import { toAISDKTools } from '@toolwright/interop/ai-sdk';
import { batchRefundExecutor, nestedResults, RefundParams, refundExecutor, refunds } from '../support/commands';
import { startStubOpenAIServer, toolMessagesOf, type StubOpenAIServer } from '../support/stub-openai-server';

jest.setTimeout(30_000);

let server: StubOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
});

async function run(script: Parameters<typeof startStubOpenAIServer>[0]) {
  server = await startStubOpenAIServer(script);
  const results: ToolResult[] = [];
  const executor = refundExecutor();
  const tools = toAISDKTools(executor, { context: { sessionId: 'trusted-7' }, onResult: (r) => results.push(r) });
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network' }).chat('gpt-4o-mini');
  return { server, results, tools, model };
}

describe('toAISDKTools: a tool with approval maps to the AI SDK needsApproval', () => {
  it('validates first: an invalid call is refused to the model without asking anyone', async () => {
    const { server, tools, model } = await run([
      { toolCalls: [{ id: 'bad', name: 'refund_order', arguments: '{"order_id": "o-1", "cents": "ten"}' }] },
      { text: 'I could not refund it.' },
    ]);
    const response = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      messages: [{ role: 'user', content: 'Refund o-1' }],
    });
    expect(response.content.filter((part) => part.type === 'tool-approval-request')).toEqual([]);
    expect(response.text).toBe('I could not refund it.');
    expect(toolMessagesOf(server.requests[1])[0]!.content).toContain('must be an integer >= 1, but received');
    expect(refunds).toEqual([]);
  });

  it('stops for approval; approved, the call runs once with the validated params and the trusted session', async () => {
    const { server, tools, model, results } = await run([
      {
        toolCalls: [
          { id: 'r1', name: 'refund_order', arguments: '{"order_id": "o-2", "cents": "1500", "session_id": "forged"}' },
        ],
      },
      { text: 'Refunded 15.00.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Refund o-2' }];
    const first = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.toolCall).toMatchObject({ toolCallId: 'r1', toolName: 'refund_order' });
    expect(refunds).toEqual([]);
    expect(server.requests).toHaveLength(1);

    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true }],
    });
    const second = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    expect(second.text).toBe('Refunded 15.00.');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toBeInstanceOf(RefundParams);
    expect({ ...refunds[0] }).toEqual({ orderId: 'o-2', cents: 1500, sessionId: 'trusted-7' });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: true, callId: 'r1' });
    expect(toolMessagesOf(server.requests[1])).toEqual([
      { tool_call_id: 'r1', content: JSON.stringify({ refunded: 1500, order: 'o-2', session: 'trusted-7' }) },
    ]);
  });

  it('denied, the model reads the denial and nothing runs', async () => {
    const { server, tools, model } = await run([
      { toolCalls: [{ id: 'r2', name: 'refund_order', arguments: '{"order_id": "o-3", "cents": 99}' }] },
      { text: 'The refund was declined.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Refund o-3' }];
    const first = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'over the limit' },
      ],
    });
    const second = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    expect(second.text).toBe('The refund was declined.');
    expect(refunds).toEqual([]);
    expect(toolMessagesOf(server.requests[1])[0]!.content).toContain('over the limit');
  });

  it('an approved call is one call: its handler calling a gated tool with its own invocation.context is asked again', async () => {
    server = await startStubOpenAIServer([
      { toolCalls: [{ id: 'b1', name: 'refund_batch', arguments: '{"order_id": "o-7"}' }] },
      { text: 'Done.' },
    ]);
    const executor = batchRefundExecutor();
    const tools = toAISDKTools(executor, { context: { sessionId: 'trusted-7' } });
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'stub-key-no-network' }).chat('gpt-4o-mini');
    const messages: ModelMessage[] = [{ role: 'user', content: 'Run the plan' }];
    const first = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
    });
    await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    expect(toolMessagesOf(server.requests.at(-1))).toEqual([
      { tool_call_id: 'b1', content: JSON.stringify({ nested: 'APPROVAL_REQUIRED' }) },
    ]);
    expect(nestedResults).toEqual([
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'APPROVAL_REQUIRED' }) }),
    ]);
    expect(refunds).toEqual([]);
  });
});
