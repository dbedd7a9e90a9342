import { Body, Controller, Get, Inject, NotFoundException, Param, Post } from '@nestjs/common';
import { PersonaToolExecutor, type ApprovalStore, type ToolResult } from '@toolwright/core';
import { TOOLWRIGHT_APPROVAL_STORE } from '@toolwright/nestjs';

/** What a reviewer sends: approve or deny, and why. */
export class ApprovalDecisionBody {
  approved!: boolean;
  reason?: string;
}

/**
 * Approve or deny a pending tool call. In an application, `by` comes from the authenticated reviewer (a guard sets
 * it on the request), never from the body; `approvals.canApprove` can refuse reviewers without the right.
 */
@Controller('approvals')
export class ApprovalsController {
  constructor(
    private readonly executor: PersonaToolExecutor,
    @Inject(TOOLWRIGHT_APPROVAL_STORE) private readonly store: ApprovalStore,
  ) {}

  /** A pending approval as the store keeps it: tool, call id and when it expires (404 once decided or expired). */
  @Get(':id')
  async show(@Param('id') id: string) {
    const approval = await this.store.get(id);
    if (approval === undefined) throw new NotFoundException('No pending approval with this id.');
    return { id: approval.id, tool: approval.tool, callId: approval.callId, expiresAt: approval.expiresAt };
  }

  /** The decision; the answer is the call's ToolResult (or APPROVAL_DENIED / APPROVAL_NOT_FOUND). */
  @Post(':id')
  decide(@Param('id') id: string, @Body() body: ApprovalDecisionBody): Promise<ToolResult> {
    return this.executor.resolveApproval(id, {
      approved: body.approved === true,
      by: 'reviewer@example.com',
      ...(typeof body.reason === 'string' ? { reason: body.reason } : {}),
    });
  }
}
