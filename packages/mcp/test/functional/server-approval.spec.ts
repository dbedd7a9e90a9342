import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';
import { Command, FromContext, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry } from '@toolwright/core';
import { serveMcp } from '@toolwright/mcp';
import { StreamClientTransport } from '../support/stream-client-transport';

jest.setTimeout(30_000);

const refunds: RefundParams[] = [];

class RefundParams {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  @ToolParam({ description: 'Amount in cents', type: 'int', min: 1 }) cents!: number;
  @ToolParam({ description: 'Card code', sensitive: true, required: false }) cvc?: string;
  @FromContext('session_id', { required: true }) sessionId!: string;
}

@Command({ name: 'refund_order', description: 'Refund an order.', params: RefundParams, approval: true })
class RefundOrderCommand {
  execute(params: RefundParams) {
    refunds.push(params);
    return { refunded: params.cents, order: params.orderId, session: params.sessionId };
  }
}

afterEach(() => {
  refunds.length = 0;
});

/** serveMcp over stdio streams and the official SDK client, with or without elicitation. */
async function connect(answer?: (message: string) => ElicitResult) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const registry = ToolRegistry.from([RefundOrderCommand], { logger: silentLogger });
  const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
  const handle = await serveMcp(registry, {
    transport: 'stdio',
    stdin,
    stdout,
    logger: silentLogger,
    executor,
  });
  const questions: string[] = [];
  const client = new Client(
    { name: 'approval-client', version: '1.0.0' },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer)
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(request.params.message);
      return answer(request.params.message);
    });
  await client.connect(new StreamClientTransport(stdout, stdin));
  const call = async (args: Record<string, unknown>) =>
    await client.callTool({ name: 'refund_order', arguments: args });
  const close = async () => {
    await client.close();
    await handle.close();
    await handle.closed;
  };
  return { executor, call, questions, close };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('the MCP server asks for approval through elicitation', () => {
  it('an elicitation-capable client is asked within the call; approved, the call runs once with the trusted session', async () => {
    const { call, questions, close } = await connect(() => ({ action: 'accept', content: { approve: true } }));
    try {
      const invalid = await call({ order_id: 'o-0', cents: 'lots' });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toContain('must be an integer');
      expect(questions).toEqual([]);

      const result = await call({ order_id: 'o-1', cents: '250', cvc: '999', session_id: 'forged' });
      expect(result.isError).toBeFalsy();
      // The trusted session is the MCP session's own id, never what the model sent.
      expect(JSON.parse(text(result))).toEqual({ refunded: 250, order: 'o-1', session: expect.stringMatching(UUID) });
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain('"refund_order"');
      expect(questions[0]).toContain('"cents":250');
      expect(questions[0]).not.toContain('999');
      expect(refunds).toHaveLength(1);
      expect({ ...refunds[0] }).toEqual({
        orderId: 'o-1',
        cents: 250,
        cvc: '999',
        sessionId: expect.stringMatching(UUID),
      });
    } finally {
      await close();
    }
  });

  it('declined, the model reads the denial with the reason and nothing runs', async () => {
    const { call, close } = await connect(() => ({
      action: 'accept',
      content: { approve: false, reason: 'not this order' },
    }));
    try {
      const result = await call({ order_id: 'o-2', cents: 5 });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('declined the call to "refund_order": not this order');
      expect(refunds).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a client without elicitation gets the pending result; the approval is decided later through the executor', async () => {
    const { executor, call, close } = await connect();
    try {
      const result = await call({ order_id: 'o-3', cents: 40 });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('waits for a person');
      const pending = result._meta?.['toolwright/pendingApproval'] as { id: string; params: unknown };
      expect(pending.params).toEqual({ orderId: 'o-3', cents: 40 });
      expect(refunds).toEqual([]);
      const decided = await executor.resolveApproval(pending.id, { approved: true, by: 'ops' });
      expect(decided).toMatchObject({ ok: true, value: { session: expect.stringMatching(UUID) } });
      expect(refunds).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
