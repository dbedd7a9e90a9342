import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  Command,
  createToolTelemetry,
  FromContext,
  MemoryApprovalStore,
  PersonaToolExecutor,
  runToolLoop,
  ScriptedChatModel,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ApprovalStore,
  type ExecutionContext,
  type PendingApproval,
  type StoredApproval,
  type ToolCall,
  type ToolInvocationContext,
  type ToolResult,
} from '@toolwright/core';
import { RecordingLogger } from '../support/recording-logger';

/** Every run of the refund handler: the parameters it got (the very object) and the trusted context. */
const runs: Array<{ params: RefundParams; context: ExecutionContext }> = [];

class RefundParams {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  @ToolParam({ description: 'Amount in cents', type: 'int', min: 1 }) amount!: number;
  @ToolParam({ description: 'Card verification code', sensitive: true, required: false }) cvc?: string;
  @FromContext('session_id') sessionId!: string;
}

@Command({ name: 'refund', description: 'Refund an order', params: RefundParams, approval: true })
class RefundCommand {
  execute(params: RefundParams, invocation: ToolInvocationContext) {
    runs.push({ params, context: invocation.context });
    return { refunded: params.amount, order: params.orderId, session: params.sessionId };
  }
}

class NoteParams {
  @ToolParam({ description: 'Text' }) text!: string;
}
@Command({ name: 'note', description: 'Write a note', params: NoteParams })
class NoteCommand {
  execute(params: NoteParams) {
    return { noted: params.text };
  }
}

function pendingOf(result: ToolResult): PendingApproval {
  if (result.ok || result.pendingApproval === undefined) throw new Error(`not pending: ${JSON.stringify(result)}`);
  return result.pendingApproval;
}

const refundCall = (amount: unknown, id = 'c1'): ToolCall => ({
  id,
  name: 'refund',
  arguments: JSON.stringify({ order_id: 'A-1', amount, cvc: '123', session_id: 'forged' }),
});

beforeEach(() => {
  runs.length = 0;
});

describe('human approval of a @Command({ approval: true })', () => {
  it('refuses an invalid call before any person is asked: nothing is filed', async () => {
    const store = new MemoryApprovalStore();
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      approvals: { store },
    });
    const result = await executor.execute(refundCall('ten'), { sessionId: 's1' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(result.ok === false && result.pendingApproval).toBeUndefined();
    expect(store.size).toBe(0);
    expect(runs).toEqual([]);
  });

  it('a valid call waits for approval, then runs once with the validated params and the trusted session', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger,
    });
    const pending = await executor.execute(refundCall('2500'), { sessionId: 's1' });
    expect(pending).toMatchObject({
      ok: false,
      callId: 'c1',
      tool: 'refund',
      error: { code: 'APPROVAL_REQUIRED', retryable: false },
    });
    const approval = pendingOf(pending);
    // As validated (the amount an integer, the key renamed), the context field left out, the sensitive value redacted.
    expect(approval.params).toEqual({ orderId: 'A-1', amount: 2500, cvc: '[redacted]' });
    expect(approval).toMatchObject({ callId: 'c1', tool: 'refund' });
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt)).toBe(3_600_000);
    expect(runs).toEqual([]);
    expect(JSON.stringify(logger.entries)).not.toContain('"123"');

    const result = await executor.resolveApproval(approval.id, { approved: true, by: 'alice@example.com' });
    expect(result).toMatchObject({
      ok: true,
      callId: 'c1',
      tool: 'refund',
      value: { refunded: 2500, order: 'A-1', session: 's1' },
      approval: { id: approval.id, approved: true, by: 'alice@example.com' },
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.params).toBeInstanceOf(RefundParams);
    expect({ ...runs[0]!.params }).toEqual({ orderId: 'A-1', amount: 2500, cvc: '123', sessionId: 's1' });
    expect(runs[0]!.context).toMatchObject({ sessionId: 's1', approval: { by: 'alice@example.com' } });
    expect(result.transformations.map((transformation) => transformation.rule)).toEqual(
      expect.arrayContaining(['string-to-integer']),
    );
    expect(logger.messages('info')).toEqual([
      `tool call refund awaits approval ${approval.id}`,
      `approval ${approval.id} for tool refund granted by alice@example.com`,
    ]);

    // Single use: the same id again runs nothing.
    const again = await executor.resolveApproval(approval.id, { approved: true, by: 'alice@example.com' });
    expect(again).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
    expect(runs).toHaveLength(1);
  });

  it('a denied call gives the model a readable denial and never runs', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const approval = pendingOf(await executor.execute(refundCall(40), { sessionId: 's1' }));
    const denied = await executor.resolveApproval(approval.id, {
      approved: false,
      by: 'bob',
      reason: 'refunds above 30 need a manager',
    });
    expect(denied).toMatchObject({
      ok: false,
      callId: 'c1',
      tool: 'refund',
      error: { code: 'APPROVAL_DENIED', retryable: false },
      approval: { approved: false, by: 'bob', reason: 'refunds above 30 need a manager' },
    });
    expect(!denied.ok && denied.error.message).toBe(
      'bob declined the call to "refund": refunds above 30 need a manager. It did not run. Do not call it again with the same arguments; answer the user or ask them what to do instead.',
    );
    expect(runs).toEqual([]);
  });

  it('refuses an unknown, expired or malformed id without throwing, and runs nothing', async () => {
    let later = 0;
    const store = new MemoryApprovalStore({ now: () => Date.now() + later });
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      approvals: { store, expiresInMs: 60_000 },
    });
    const approval = pendingOf(await executor.execute(refundCall(5), { sessionId: 's1' }));
    later = 60_001;
    for (const id of [approval.id, 'no-such-id', '', 42 as unknown as string]) {
      const result = await executor.resolveApproval(id, { approved: true });
      expect(result).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND', retryable: false } });
    }
    expect(runs).toEqual([]);
    await expect(executor.resolveApproval(approval.id, { approve: true } as never)).rejects.toThrow(TypeError);
  });

  it('runs a call once under concurrent approvals of one id', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const approval = pendingOf(await executor.execute(refundCall(7), { sessionId: 's1' }));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => executor.resolveApproval(approval.id, { approved: true, by: 'carol' })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.error.code === 'APPROVAL_NOT_FOUND')).toHaveLength(19);
    expect(runs).toHaveLength(1);
  });

  it('canApprove refuses an approver without the right and leaves the approval pending', async () => {
    const seen: PendingApproval[] = [];
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      approvals: {
        canApprove: (approval, decision) => {
          seen.push(approval);
          return decision.by === 'manager';
        },
      },
    });
    const approval = pendingOf(await executor.execute(refundCall(9), { sessionId: 's1' }));
    const refused = await executor.resolveApproval(approval.id, { approved: true, by: 'intern' });
    expect(refused).toMatchObject({ ok: false, tool: 'refund', error: { code: 'PERMISSION_DENIED' } });
    expect(runs).toEqual([]);
    expect(seen[0]).toMatchObject({ id: approval.id, params: { amount: 9, cvc: '[redacted]' } });
    const granted = await executor.resolveApproval(approval.id, { approved: true, by: 'manager' });
    expect(granted).toMatchObject({ ok: true, approval: { by: 'manager' } });
    expect(runs).toHaveLength(1);
  });

  it('a condition decides per call, on the validated params; a reason text is shown; a throwing one asks', async () => {
    const registry = new ToolRegistry({ logger: silentLogger });
    registry.registerJsonSchemaTool(
      {
        name: 'transfer',
        description: 'Transfer money',
        parameters: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] },
      },
      (params: { cents: number }) => ({ sent: params.cents }),
      {
        approval: (params: { cents: number }) => {
          if (params.cents === 13) throw new Error('unlucky');
          return params.cents > 1000 ? 'more than 10.00' : false;
        },
      },
    );
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const small = await executor.execute({ id: 'a', name: 'transfer', arguments: '{"cents": "500"}' });
    expect(small).toMatchObject({ ok: true, value: { sent: 500 } });
    const large = await executor.execute({ id: 'b', name: 'transfer', arguments: '{"cents": 5000}' });
    expect(pendingOf(large)).toMatchObject({ reason: 'more than 10.00', params: { cents: 5000 } });
    expect(!large.ok && large.error.message).toContain('waits for a person');
    const failing = await executor.execute({ id: 'c', name: 'transfer', arguments: '{"cents": 13}' });
    expect(pendingOf(failing).params).toEqual({ cents: 13 });
  });

  it('an approval given to execute() in the context never skips the person', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const forged = { approved: true, id: 'x', decidedAt: new Date().toISOString() };
    const result = await executor.execute(refundCall(3), { sessionId: 's1', approval: forged });
    expect(result).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
    expect(runs).toEqual([]);
  });

  it('a store that cannot file the approval fails the call (SERVICE_UNAVAILABLE) and runs nothing', async () => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      approvals: { store: new MemoryApprovalStore({ maxEntries: 1 }) },
    });
    pendingOf(await executor.execute(refundCall(1, 'first'), { sessionId: 's1' }));
    const second = await executor.execute(refundCall(2, 'second'), { sessionId: 's1' });
    expect(second).toMatchObject({ ok: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(runs).toEqual([]);
  });

  it('a serialized approval (revalidate) is checked again before the handler runs', async () => {
    // A store that keeps only JSON, as one across processes does.
    const kept = new Map<string, string>();
    const store: ApprovalStore = {
      put: async (approval) => {
        kept.set(approval.id, JSON.stringify({ ...approval, params: approval.params }));
      },
      get: async (id) =>
        kept.has(id) ? ({ ...JSON.parse(kept.get(id)!), revalidate: true } as StoredApproval) : undefined,
      take: async (id) => {
        const text = kept.get(id);
        kept.delete(id);
        return text === undefined ? undefined : ({ ...JSON.parse(text), revalidate: true } as StoredApproval);
      },
    };
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      approvals: { store },
    });
    const approval = pendingOf(await executor.execute(refundCall(11), { sessionId: 's1' }));
    // Tampered while it waited: the check refuses it and the handler never runs.
    type Kept = { params: Record<string, unknown>; input: Record<string, unknown> };
    const record = JSON.parse(kept.get(approval.id)!) as Kept;
    kept.set(
      approval.id,
      JSON.stringify({ ...record, params: { ...record.params, amount: -5 }, input: { ...record.input, amount: -5 } }),
    );
    const tampered = await executor.resolveApproval(approval.id, { approved: true, by: 'dan' });
    expect(tampered).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' }, approval: { by: 'dan' } });
    expect(runs).toEqual([]);
    // Values that validate but are not the ones the person saw: refused, nothing runs.
    const other = pendingOf(await executor.execute(refundCall(11, 'c3'), { sessionId: 's1' }));
    const otherRecord = JSON.parse(kept.get(other.id)!) as Kept;
    kept.set(other.id, JSON.stringify({ ...otherRecord, input: { ...otherRecord.input, amount: 9000 } }));
    const swapped = await executor.resolveApproval(other.id, { approved: true, by: 'dan' });
    expect(swapped).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR' }, approval: { by: 'dan' } });
    expect(!swapped.ok && swapped.error.message).toContain('is not the call that was approved');
    expect(runs).toEqual([]);

    const second = pendingOf(await executor.execute(refundCall(12, 'c2'), { sessionId: 's2' }));
    const result = await executor.resolveApproval(second.id, { approved: true, by: 'dan' });
    expect(result).toMatchObject({ ok: true, value: { refunded: 12, session: 's2' } });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.params).toBeInstanceOf(RefundParams);
    expect({ ...runs[0]!.params }).toEqual({ orderId: 'A-1', amount: 12, cvc: '123', sessionId: 's2' });
  });

  it('records who approved and when on the span', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      telemetry: createToolTelemetry({ tracerProvider }),
    });
    const approval = pendingOf(await executor.execute(refundCall(4), { sessionId: 's1' }));
    const result = await executor.resolveApproval(approval.id, { approved: true, by: 'erin' });
    expect(result.ok).toBe(true);
    const attributes = spans.getFinishedSpans().map((span) => span.attributes);
    expect(attributes[0]).toMatchObject({ 'toolwright.outcome': 'APPROVAL_REQUIRED' });
    expect(attributes[1]).toMatchObject({
      'toolwright.outcome': 'ok',
      'toolwright.approval.id': approval.id,
      'toolwright.approval.approved': true,
      'toolwright.approval.by': 'erin',
      'toolwright.approval.decided_at': result.approval?.decidedAt,
    });
    await tracerProvider.shutdown();
  });
});

/** The agent pattern: a handler that makes nested calls with its own `invocation.context`. */
const nested: ToolResult[] = [];
let agentExecutor: PersonaToolExecutor | undefined;

class BatchParams {
  @ToolParam({ description: 'How many refunds', type: 'int' }) count!: number;
}

@Command({ name: 'batch', description: 'Run refunds the model picks', params: BatchParams, approval: true })
class BatchCommand {
  async execute(params: BatchParams, invocation: ToolInvocationContext) {
    for (let index = 0; index < params.count; index++)
      nested.push(await agentExecutor!.execute(refundCall(900 + index, `nested-${index}`), invocation.context));
    return { tried: params.count };
  }
}

@Command({ name: 'plan', description: 'An agent tool without approval', params: BatchParams })
class PlanCommand {
  async execute(params: BatchParams, invocation: ToolInvocationContext) {
    nested.push(await agentExecutor!.execute(refundCall(700, 'from-plan'), invocation.context));
    return { tried: params.count };
  }
}

/** A store that keeps only JSON, as one across processes does (what comes back is `revalidate`). */
function jsonStore(): ApprovalStore & { readonly kept: Map<string, string> } {
  const kept = new Map<string, string>();
  const read = (text: string | undefined) =>
    text === undefined ? undefined : ({ ...JSON.parse(text), revalidate: true } as StoredApproval);
  return {
    kept,
    put: async (approval) => {
      kept.set(approval.id, JSON.stringify(approval));
    },
    get: async (id) => read(kept.get(id)),
    take: async (id) => {
      const text = kept.get(id);
      kept.delete(id);
      return read(text);
    },
  };
}

describe('an approval covers exactly one call', () => {
  beforeEach(() => {
    nested.length = 0;
  });

  it.each([
    ['in memory', () => new MemoryApprovalStore()],
    ['serialized', () => jsonStore()],
  ])(
    'an approved handler that calls an approval-gated tool with its own invocation.context is asked again (%s)',
    async (_kind, store) => {
      agentExecutor = new PersonaToolExecutor(
        ToolRegistry.from([BatchCommand, RefundCommand], { logger: silentLogger }),
        { logger: silentLogger, approvals: { store: store() } },
      );
      const asked = pendingOf(
        await agentExecutor.execute({ id: 'b1', name: 'batch', arguments: { count: 2 } }, { sessionId: 's1' }),
      );
      const result = await agentExecutor.resolveApproval(asked.id, { approved: true, by: 'ops' });
      expect(result).toMatchObject({ ok: true, value: { tried: 2 }, approval: { by: 'ops' } });
      // Each nested refund waits for a person of its own; none ran.
      expect(nested.map((outcome) => !outcome.ok && outcome.error.code)).toEqual([
        'APPROVAL_REQUIRED',
        'APPROVAL_REQUIRED',
      ]);
      expect(runs).toEqual([]);
      // The handler's context says who approved the batch; passed back to execute, it marks nothing.
      const again = await agentExecutor.execute(refundCall(5, 'again'), {
        sessionId: 's1',
        approval: result.approval!,
      });
      expect(again).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
      expect(runs).toEqual([]);
    },
  );

  it('a tool without approval that calls a gated tool with its invocation.context is asked about too', async () => {
    agentExecutor = new PersonaToolExecutor(ToolRegistry.from([PlanCommand, RefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
    });
    const result = await agentExecutor.execute(
      { id: 'p1', name: 'plan', arguments: { count: 1 } },
      { sessionId: 's1' },
    );
    expect(result).toMatchObject({ ok: true });
    expect(nested).toMatchObject([{ ok: false, error: { code: 'APPROVAL_REQUIRED' } }]);
    expect(runs).toEqual([]);
  });

  it('a permit runs the one call it names, once, with the parameters it binds', async () => {
    const logger = new RecordingLogger();
    const executor = new PersonaToolExecutor(ToolRegistry.from([RefundCommand], { logger: silentLogger }), { logger });
    const permit = executor.approvals.bind({ callId: 'c1', tool: 'refund', approved: true });
    expect(await executor.executeBound(refundCall(3), { sessionId: 's1' }, permit)).toMatchObject({ ok: true });
    expect(runs).toHaveLength(1);
    // Used up: the same permit again runs nothing.
    const reused = await executor.executeBound(refundCall(3), { sessionId: 's1' }, permit);
    expect(reused).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR' } });
    // Another call id, another tool, or other parameters: refused.
    const otherId = executor.approvals.bind({ callId: 'c9', tool: 'refund', approved: true });
    expect(await executor.executeBound(refundCall(3), {}, otherId)).toMatchObject({ ok: false });
    const bound = executor.approvals.bind({
      callId: 'c1',
      tool: 'refund',
      approved: true,
      accepts: (params) => params.amount === 3,
    });
    expect(await executor.executeBound(refundCall(4), { sessionId: 's1' }, bound)).toMatchObject({
      ok: false,
      error: { code: 'HANDLER_ERROR' },
    });
    expect(runs).toHaveLength(1);
    expect(
      logger.entries.filter((entry) => entry.message.startsWith('security: tool call refund refused')),
    ).toHaveLength(3);
  });
});

class DollarRefundParams {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  /** Dollars in, cents out: applied twice, 25 dollars would become 250,000 cents. */
  @ToolParam({ description: 'Amount in dollars', type: 'int', min: 1 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? value * 100 : value))
  cents!: number;
}

const centsRefunded: number[] = [];
@Command({ name: 'refund_dollars', description: 'Refund', params: DollarRefundParams, approval: true })
class DollarRefundCommand {
  execute(params: DollarRefundParams) {
    centsRefunded.push(params.cents);
    return { refunded: params.cents };
  }
}

describe('what was approved is what runs: a @Transform is applied once', () => {
  beforeEach(() => {
    centsRefunded.length = 0;
  });

  it.each([
    ['in memory', () => new MemoryApprovalStore()],
    ['serialized', () => jsonStore()],
  ])('approved 2,500 cents, the handler refunds 2,500 cents (%s)', async (_kind, store) => {
    const executor = new PersonaToolExecutor(ToolRegistry.from([DollarRefundCommand], { logger: silentLogger }), {
      logger: silentLogger,
      approvals: { store: store() },
    });
    const asked = pendingOf(
      await executor.execute({ id: 'd1', name: 'refund_dollars', arguments: { order_id: 'A-9', cents: 25 } }),
    );
    expect(asked.params).toEqual({ orderId: 'A-9', cents: 2500 });
    const result = await executor.resolveApproval(asked.id, { approved: true, by: 'ops' });
    expect(result).toMatchObject({ ok: true, value: { refunded: 2500 } });
    expect(centsRefunded).toEqual([2500]);
  });
});

describe('the tool loop and approvals', () => {
  it('stops at a pending approval with the pending list, and a resumed loop continues', async () => {
    const executor = new PersonaToolExecutor(
      ToolRegistry.from([RefundCommand, NoteCommand], { logger: silentLogger }),
      {
        logger: silentLogger,
      },
    );
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { id: 'n1', name: 'note', arguments: '{"text": "refund asked"}' },
          { id: 'r1', name: 'refund', arguments: '{"order_id": "B-2", "amount": 30}' },
        ],
      },
      { text: 'Refunded.', toolCalls: [] },
    ]);
    const paused = await runToolLoop({
      model,
      executor,
      messages: [{ role: 'user', content: 'Refund B-2' }],
      context: { sessionId: 's9' },
    });
    expect(paused.status).toBe('awaiting-approval');
    expect(paused.pendingApprovals).toHaveLength(1);
    expect(paused.pendingApprovals![0]).toMatchObject({ callId: 'r1', tool: 'refund', params: { amount: 30 } });
    expect(paused.messages.filter((message) => message.role === 'tool').map((message) => message.callId)).toEqual([
      'n1',
    ]);
    expect(runs).toEqual([]);
    await expect(
      runToolLoop({ model, executor, messages: paused.messages, context: { sessionId: 's9' }, approvals: [] }),
    ).rejects.toThrow(/r1 of the last turn have no result/);

    const resumed = await runToolLoop({
      model,
      executor,
      messages: paused.messages,
      approvals: [{ pending: paused.pendingApprovals![0]!, decision: { approved: true, by: 'frank' } }],
    });
    expect(resumed).toMatchObject({ status: 'completed', text: 'Refunded.' });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.context.sessionId).toBe('s9');
    const toolMessages = resumed.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => [message.callId, message.content])).toEqual([
      ['n1', '{"noted":"refund asked"}'],
      ['r1', '{"refunded":30,"order":"B-2","session":"s9"}'],
    ]);
    // The model saw the approved result before it answered.
    expect(JSON.stringify(model.requests.at(-1)?.messages)).toContain('"refunded":30');
  });
});
