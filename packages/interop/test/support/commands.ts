import {
  ArrayOf,
  Command,
  FromContext,
  PersonaToolExecutor,
  ToolParam,
  ToolRegistry,
  silentLogger,
  type CommandHandler,
  type ToolInvocationContext,
  type ToolResult,
} from '@toolwright/core';

export class ScheduleMeetingParams {
  @ToolParam({ description: 'Meeting title', minLength: 1 })
  title!: string;

  @ArrayOf('string', { description: 'Attendee e-mail addresses', minItems: 1 })
  attendees!: string[];

  @ToolParam({ type: 'int', description: 'Length in minutes', min: 5, max: 480 })
  durationMinutes!: number;

  @FromContext('session_id', { required: true })
  sessionId!: string;
}

/** What the handler received, per call: the test asserts on the DTO itself. */
export const receivedMeetings: ScheduleMeetingParams[] = [];

@Command({
  name: 'schedule_meeting',
  description: 'Schedule a meeting for this session.',
  params: ScheduleMeetingParams,
})
export class ScheduleMeetingCommand implements CommandHandler<ScheduleMeetingParams> {
  execute(params: ScheduleMeetingParams) {
    receivedMeetings.push(params);
    return {
      scheduled: params.title,
      attendees: params.attendees,
      durationMinutes: params.durationMinutes,
      sessionId: params.sessionId,
    };
  }
}

/** The arguments a model sends that every framework's own validation refuses and toolwright recovers exactly. */
export const MALFORMED_MEETING_ARGUMENTS = {
  title: 'Standup',
  attendees: '["ana@example.com","bo@example.com"]',
  duration_minutes: '30',
  session_id: 'forged-by-the-model',
};

/** The rules the executor records for MALFORMED_MEETING_ARGUMENTS (JSON-string array, snake_case key, number as string, a spoofed session id). */
export const EXPECTED_RULES = ['json-string-to-array', 'key-case', 'string-to-integer', 'dropped-context-field'];

export const TRUSTED_SESSION = 'session-trusted-42';

export function meetingExecutor(): PersonaToolExecutor {
  receivedMeetings.length = 0;
  return new PersonaToolExecutor(ToolRegistry.from([ScheduleMeetingCommand]), { logger: silentLogger });
}

/** Every run of the refund handler: the DTO it received (the approval tests assert on it). */
export const refunds: RefundParams[] = [];

export class RefundParams {
  @ToolParam({ description: 'Order id' }) orderId!: string;
  @ToolParam({ description: 'Amount in cents', type: 'int', min: 1 }) cents!: number;
  @FromContext('session_id', { required: true }) sessionId!: string;
}

/** A command a person approves call by call (docs/approval.md). */
@Command({ name: 'refund_order', description: 'Refund an order.', params: RefundParams, approval: true })
export class RefundOrderCommand implements CommandHandler<RefundParams> {
  execute(params: RefundParams) {
    refunds.push(params);
    return { refunded: params.cents, order: params.orderId, session: params.sessionId };
  }
}

export function refundExecutor(): PersonaToolExecutor {
  refunds.length = 0;
  return new PersonaToolExecutor(ToolRegistry.from([RefundOrderCommand], { logger: silentLogger }), {
    logger: silentLogger,
  });
}

/** What the nested calls of `refund_batch` answered (the agent pattern: a handler calling tools with its own context). */
export const nestedResults: ToolResult[] = [];
let agentExecutor: PersonaToolExecutor | undefined;

export class RefundBatchParams {
  @ToolParam({ description: 'The order to refund' }) orderId!: string;
}

/** An approved tool whose handler calls `refund_order` itself, passing its own `invocation.context` on. */
@Command({ name: 'refund_batch', description: 'Refund what the plan says.', params: RefundBatchParams, approval: true })
export class RefundBatchCommand {
  async execute(params: RefundBatchParams, invocation: ToolInvocationContext) {
    const nested = await agentExecutor!.execute(
      { id: 'nested-1', name: 'refund_order', arguments: { order_id: params.orderId, cents: 90_000 } },
      invocation.context,
    );
    nestedResults.push(nested);
    return { nested: nested.ok ? 'ran' : nested.error.code };
  }
}

/** An executor with `refund_order` and `refund_batch` (whose handler uses this executor). */
export function batchRefundExecutor(): PersonaToolExecutor {
  refunds.length = 0;
  nestedResults.length = 0;
  agentExecutor = new PersonaToolExecutor(
    ToolRegistry.from([RefundOrderCommand, RefundBatchCommand], { logger: silentLogger }),
    { logger: silentLogger },
  );
  return agentExecutor;
}
