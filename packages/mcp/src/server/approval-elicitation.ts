import type { Server, CallToolResult, ElicitResult } from '@modelcontextprotocol/server';
import type { Logger, PendingApproval, PersonaToolExecutor, ToolResult } from '@toolwright/core';

/** Where a pending approval's details travel in a tool result's `_meta` when no person could be asked in the call. */
export const PENDING_APPROVAL_META_KEY = 'toolwright/pendingApproval';

/** What the approval question asks for: a yes/no and an optional reason (a flat form, as elicitation requires). */
const APPROVAL_FORM = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Approve', description: 'Run this call?' },
    reason: {
      type: 'string' as const,
      title: 'Reason',
      description: 'Why (optional; a denial reason reaches the model)',
    },
  },
  required: ['approve'],
};

/**
 * A call of a tool with `approval` that waits for a person (docs/approval.md): when the MCP client can ask its user
 * (form elicitation), the question goes to it within the call and the answer resolves the approval (approved: the
 * handler runs and its result is the call's; declined or cancelled: `APPROVAL_DENIED`). When the client cannot ask,
 * or the question fails, the pending result stands: the approval waits in the executor's store for another channel
 * (an approve endpoint), and the result's `_meta` carries its details.
 */
export async function resolveThroughElicitation(
  server: Server,
  executor: PersonaToolExecutor,
  pending: PendingApproval,
  result: ToolResult,
  approver: string | undefined,
  options: { readonly relatedRequestId: string | number; readonly signal: AbortSignal; readonly logger: Logger },
): Promise<ToolResult> {
  const elicitation = server.getClientCapabilities()?.elicitation as
    { readonly form?: object; readonly url?: object } | undefined;
  // A client that declares elicitation without modes supports forms; one that declares only `url` does not.
  if (elicitation === undefined || (elicitation.form === undefined && elicitation.url !== undefined)) return result;
  let answer: ElicitResult;
  try {
    answer = await server.elicitInput(
      { mode: 'form', message: question(pending), requestedSchema: APPROVAL_FORM },
      { relatedRequestId: options.relatedRequestId, signal: options.signal },
    );
  } catch (error) {
    options.logger.warn(`approval ${pending.id}: the MCP client could not ask its user; the approval stays pending`, {
      approvalId: pending.id,
      tool: pending.tool,
      cause: error instanceof Error ? error.message : String(error),
    });
    return result;
  }
  const content = answer.content ?? {};
  const reason = typeof content['reason'] === 'string' && content['reason'] !== '' ? content['reason'] : undefined;
  const approved = answer.action === 'accept' && content['approve'] === true;
  return executor.resolveApproval(pending.id, {
    approved,
    ...(approver !== undefined ? { by: approver } : {}),
    ...(reason !== undefined
      ? { reason }
      : approved
        ? {}
        : { reason: answer.action === 'cancel' ? 'The user dismissed the question.' : 'The user declined.' }),
  });
}

/** The pending approval's details in the MCP tool result (for a client app that lets a person decide later). */
export function withPendingApproval(result: CallToolResult, pending: PendingApproval): CallToolResult {
  return { ...result, _meta: { ...result._meta, [PENDING_APPROVAL_META_KEY]: { ...pending } } };
}

function question(pending: PendingApproval): string {
  return `The assistant wants to call "${pending.tool}" with ${JSON.stringify(pending.params)}${pending.reason ? ` (${pending.reason})` : ''}. Approve this call?`;
}
