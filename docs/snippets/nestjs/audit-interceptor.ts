import { Injectable, Module } from '@nestjs/common';
import { PermissionDeniedError } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

@Injectable()
export class AuditService {
  allows(persona: string | undefined, tool: string): boolean {
    return tool !== 'add_note' || persona === 'note-taker';
  }
}

@Module({ providers: [AuditService], exports: [AuditService] })
export class AuditModule {}

export const AuditedToolwrightModule = ToolwrightModule.forRootAsync({
  imports: [AuditModule],
  inject: [AuditService],
  useFactory: (audit: AuditService) => ({
    interceptCall: async (call, next) => {
      if (!audit.allows(call.invocation.context.persona?.name, call.invocation.tool))
        throw new PermissionDeniedError('Not allowed for this persona.');
      return next();
    },
  }),
});
