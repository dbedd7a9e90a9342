import { Injectable } from '@nestjs/common';

/** A note, with the session that wrote it. */
export interface Note {
  readonly text: string;
  readonly sessionId: string | undefined;
}

/** The app's notes: one store, shared by the HTTP controllers and the add_note command (Nest's singleton). */
@Injectable()
export class NotesService {
  private readonly notes: Note[] = [];

  add(note: Note): number {
    this.notes.push(note);
    return this.notes.length;
  }

  all(): readonly Note[] {
    return this.notes;
  }

  forSession(sessionId: string | undefined): readonly Note[] {
    return this.notes.filter((note) => note.sessionId === sessionId);
  }
}

/** The time source (replaceable in tests). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

/** Where calendar events live. */
@Injectable()
export class CalendarStore {
  readonly events = [
    { title: 'Stand-up', start: '2026-11-24T09:00:00Z' },
    { title: 'Design review', start: '2026-11-24T14:00:00Z' },
    { title: 'Retro', start: '2026-11-27T16:00:00Z' },
  ];
}

/** A service with its own dependencies (the case that broke when tsyringe built commands). */
@Injectable()
export class CalendarService {
  constructor(
    private readonly store: CalendarStore,
    private readonly clock: Clock,
  ) {}

  between(from: string, to: string) {
    return this.store.events.filter((event) => event.start >= from && event.start < to);
  }

  today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }
}
