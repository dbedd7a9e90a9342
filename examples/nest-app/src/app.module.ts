import { Module } from '@nestjs/common';
import { ToolwrightMcpHttpModule, ToolwrightModule } from '@toolwright/nestjs';
import { AddNoteCommand } from './commands/add-note.command';
import { CalendarEventsCommand } from './commands/calendar-events.command';
import { SessionNotesCommand } from './commands/session-notes.command';
import { CalendarService, CalendarStore, Clock, NotesService } from './services';
import { ToolsController } from './tools.controller';

/** The commands and services, with no transport: used by the HTTP app and the stdio MCP server alike. */
@Module({
  imports: [ToolwrightModule.forRoot({ executor: { timeoutMs: 10_000 } })],
  providers: [
    NotesService,
    Clock,
    CalendarStore,
    CalendarService,
    AddNoteCommand,
    CalendarEventsCommand,
    SessionNotesCommand,
  ],
  exports: [NotesService],
})
export class CommandsModule {}

/** The HTTP app: the tool-call controller, GET /tools, and MCP over Streamable HTTP at /mcp on Nest's own adapter. */
@Module({
  imports: [
    CommandsModule,
    ToolwrightMcpHttpModule.forRoot({ path: 'mcp', serverInfo: { name: 'toolwright-nest-example', version: '0.1.0' } }),
  ],
  controllers: [ToolsController],
})
export class AppModule {}
