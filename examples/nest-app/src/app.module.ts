import { Module } from '@nestjs/common';
import { ToolwrightModule } from '@toolwright/nestjs';
import { ToolwrightMcpHttpModule } from '@toolwright/nestjs/mcp';
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

/**
 * The HTTP app: the tool-call controller, GET /tools, and MCP over Streamable HTTP at /mcp on Nest's own adapter. The
 * MCP module also sets the server's timeouts (every route's): a socket that sends nothing, or trickles its headers,
 * for 10 s is answered 408 and closed; a whole request may take 30 s; an idle kept-alive socket is closed after 5 s.
 */
@Module({
  imports: [
    CommandsModule,
    ToolwrightMcpHttpModule.forRoot({
      path: 'mcp',
      serverInfo: { name: 'toolwright-nest-example', version: '0.1.0' },
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    }),
  ],
  controllers: [ToolsController],
})
export class AppModule {}
