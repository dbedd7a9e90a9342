import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Body, Controller, Injectable, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  Command,
  FromContext,
  MemoryApprovalStore,
  PersonaToolExecutor,
  silentLogger,
  ToolParam,
  type ToolResult,
} from '@toolwright/core';
import { TOOLWRIGHT_APPROVAL_STORE, ToolwrightModule } from '@toolwright/nestjs';
import { ApprovalsController } from '../../../../docs/snippets/nestjs/approvals.controller';

jest.setTimeout(30_000);

@Injectable()
class Ledger {
  readonly refunds: Array<{ order: string; cents: number; session: string }> = [];
}

class RefundParams {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  @ToolParam({ description: 'Amount in cents', type: 'int', min: 1 }) cents!: number;
  @FromContext('session_id', { required: true }) sessionId!: string;
}

@Injectable()
@Command({ name: 'refund_order', description: 'Refund an order.', params: RefundParams, approval: true })
class RefundOrderCommand {
  constructor(private readonly ledger: Ledger) {}
  execute(params: RefundParams) {
    this.ledger.refunds.push({ order: params.orderId, cents: params.cents, session: params.sessionId });
    return { refunded: params.cents };
  }
}

/** The model's side: a tool call for the session, as an app's chat endpoint would run it. */
@Controller('calls')
class CallsController {
  constructor(private readonly executor: PersonaToolExecutor) {}
  @Post()
  call(@Body() body: { arguments: string }): Promise<ToolResult> {
    return this.executor.execute(
      { id: 'call-1', name: 'refund_order', arguments: body.arguments },
      { sessionId: 'nest-session' },
    );
  }
}

const store = new MemoryApprovalStore();

@Module({
  imports: [ToolwrightModule.forRoot({ logger: silentLogger, executor: { approvals: { store } } })],
  controllers: [CallsController, ApprovalsController],
  providers: [Ledger, RefundOrderCommand],
})
class AppModule {}

let app: INestApplication;
let base: string;

beforeAll(async () => {
  app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('ToolwrightModule and approvals in a real Nest app', () => {
  it('exposes the configured store, and an approve endpoint runs the pending call once', async () => {
    expect(app.get(TOOLWRIGHT_APPROVAL_STORE)).toBe(store);
    const ledger = app.get(Ledger);
    const invalid = await post('/calls', { arguments: '{"order_id": "o-1", "cents": -3}' });
    expect(invalid.body).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });

    const pending = await post('/calls', { arguments: '{"order_id": "o-1", "cents": "120"}' });
    expect(pending.body).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
    const id = (pending.body['pendingApproval'] as { id: string }).id;
    const shown = await fetch(`${base}/approvals/${id}`);
    expect(await shown.json()).toMatchObject({ id, tool: 'refund_order', callId: 'call-1' });
    expect(ledger.refunds).toEqual([]);

    const approved = await post(`/approvals/${id}`, { approved: true });
    expect(approved.body).toMatchObject({
      ok: true,
      value: { refunded: 120 },
      approval: { id, approved: true, by: 'reviewer@example.com' },
    });
    expect(ledger.refunds).toEqual([{ order: 'o-1', cents: 120, session: 'nest-session' }]);

    const again = await post(`/approvals/${id}`, { approved: true });
    expect(again.body).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
    expect((await fetch(`${base}/approvals/${id}`)).status).toBe(404);
    expect(ledger.refunds).toHaveLength(1);
  });

  it('a deny endpoint call gives the model a readable denial', async () => {
    const pending = await post('/calls', { arguments: '{"order_id": "o-2", "cents": 5}' });
    const id = (pending.body['pendingApproval'] as { id: string }).id;
    const denied = await post(`/approvals/${id}`, { approved: false, reason: 'duplicate request' });
    expect(denied.body).toMatchObject({ ok: false, error: { code: 'APPROVAL_DENIED' } });
    expect((denied.body['error'] as { message: string }).message).toContain('duplicate request');
    expect(app.get(Ledger).refunds.map((refund) => refund.order)).not.toContain('o-2');
  });
});
