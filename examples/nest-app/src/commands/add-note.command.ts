import { Injectable } from '@nestjs/common';
import { Command, FromContext, ToolParam } from '@toolwright/core';
import { NotesService } from '../services';

export class AddNoteParams {
  @ToolParam({ description: 'The text of the note', minLength: 1, maxLength: 500 }) text!: string;
  /** Trusted: from the call's context, never from the model (a model-sent session_id is dropped and logged). */
  @FromContext('session_id') sessionId?: string;
}

@Injectable()
@Command({ name: 'add_note', description: 'Saves a note for the current session.', params: AddNoteParams })
export class AddNoteCommand {
  constructor(private readonly notes: NotesService) {}

  execute(params: AddNoteParams) {
    const total = this.notes.add({ text: params.text, sessionId: params.sessionId });
    return { saved: params.text, total };
  }
}
