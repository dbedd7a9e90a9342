import { Injectable, Scope } from '@nestjs/common';
import { Command, NoParams } from '@toolwright/core';
import { InjectToolContext, type ToolExecutionContext } from '@toolwright/nestjs';
import { NotesService } from '../services';

/** Request-scoped: Nest builds it per call, with that call's trusted context. */
@Injectable({ scope: Scope.REQUEST })
@Command({ name: 'session_notes', description: 'Lists the notes of the current session.', params: NoParams })
export class SessionNotesCommand {
  constructor(
    @InjectToolContext() private readonly context: ToolExecutionContext,
    private readonly notes: NotesService,
  ) {}

  execute() {
    return {
      sessionId: this.context.sessionId,
      notes: this.notes.forSession(this.context.sessionId).map((note) => note.text),
    };
  }
}
