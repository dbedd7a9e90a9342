// Snippets of docs/commands-and-parameters.md. CI type-checks this file (tsconfig.test.json) and
// packages/core/test/unit/build/docs-commands-snippets.spec.ts imports and runs it.
import 'reflect-metadata';
import { IsEmail, Length } from 'class-validator';
import {
  ArrayOf,
  Command,
  DateOnly,
  DateTime,
  DefinitionError,
  FromContext,
  ToolParam,
  ToolRegistry,
  buildObjectSchema,
  type ToolInvocationContext,
} from '@toolwright/core';

// --- A command and its parameter DTO ------------------------------------------------------------------------
export class ProposalOption {
  @ToolParam({ description: 'Short name of the option' })
  label!: string;

  @ToolParam({ description: 'What choosing it means' })
  description!: string;

  @ToolParam({ description: 'Who proposed it', required: false })
  proposedBy?: string;
}

export class ProposeParams {
  @ToolParam({ description: 'The question to decide' })
  question!: string;

  @ArrayOf(() => ProposalOption, { minItems: 2, description: 'The options, at least two' })
  options!: ProposalOption[];

  @FromContext('session_id') // filled by the engine, never by the model; absent from every schema
  sessionId?: string;
}

@Command({ name: 'decision/propose', description: 'Propose a decision with its options', params: ProposeParams })
export class ProposeDecisionCommand {
  execute(params: ProposeParams, invocation: ToolInvocationContext) {
    return {
      question: params.question,
      options: params.options.map((option) => option.label),
      session: params.sessionId,
      call: invocation.callId,
    };
  }
}

// --- Grammar types: an array of date-times -----------------------------------------------------------------------
export class GetCalendarEventsParams {
  @ToolParam({ type: 'array<datetime>', description: 'Date-times already resolved to ISO-8601 with an offset' })
  resolved_datetimes!: string[];
}

@Command({
  name: 'get_calendar_events',
  description: 'List calendar events at the given times',
  params: GetCalendarEventsParams,
  timeoutMs: 5_000,
})
export class GetCalendarEventsCommand {
  execute(params: GetCalendarEventsParams) {
    return params.resolved_datetimes.map((instant) => ({ instant, events: [] }));
  }
}

// --- Every option, in one DTO -----------------------------------------------------------------------------------
export class Address {
  @ToolParam({ description: 'City' })
  city!: string;

  @ToolParam({ type: 'int', min: 1000, max: 99999, required: false })
  zip?: number;
}

export enum Room {
  Standard = 'standard',
  Deluxe = 'deluxe',
}

export class BookHotelParams {
  @ToolParam({ description: 'Guest name', minLength: 2, maxLength: 80, aliases: ['guest', 'name'] })
  guestName!: string;

  @ToolParam({ type: 'int', min: 1, max: 10, default: 1, description: 'Number of guests' })
  guests?: number;

  @ToolParam({ enum: Room, default: Room.Standard })
  room?: Room;

  @DateTime({ description: 'Arrival, e.g. 2026-12-01T15:00:00+01:00' })
  arrival!: Date; // typed Date: the handler receives a Date

  @DateOnly({ description: 'Departure day', required: false })
  departure?: string;

  @ToolParam({ type: () => Address, description: 'Billing address' })
  billing!: Address;

  @ArrayOf('string', { maxItems: 5, maxLength: 40, required: false, description: 'Special requests' })
  requests?: string[];

  @ToolParam({
    pattern: '^[0-9]{16}$',
    sensitive: true,
    required: false,
    description: 'Card number (redacted in logs)',
  })
  card?: string;

  @ToolParam({ type: 'float', exclusiveMin: 0, nullable: true, required: false, policy: 'strict' })
  budget?: number | null;

  @ToolParam({ extract: 'content', description: 'Notes; taken from the latest data packet when not given' })
  notes?: string;

  @IsEmail() // plain class-validator: keeps validating, and appears in the schema as format: email
  @ToolParam({ required: false })
  email?: string;

  @FromContext('persona')
  persona?: Record<string, unknown>;
}

@Command({
  name: 'hotel/book',
  description: 'Book a hotel room',
  params: BookHotelParams,
  tags: ['travel'],
  permissions: ['booking'],
  aliases: ['book_hotel'],
})
export class BookHotelCommand {
  execute(params: BookHotelParams) {
    return { guest: params.guestName, arrival: params.arrival.toISOString() };
  }
}

// --- Inheritance ---------------------------------------------------------------------------------------------------
export class PageParams {
  @ToolParam({ type: 'int', min: 1, default: 1 })
  page?: number;

  @ToolParam({ type: 'int', min: 1, max: 100, default: 20 })
  size?: number;
}

export class SearchContactsParams extends PageParams {
  @ToolParam({ description: 'Text to search for' })
  query!: string;

  @ToolParam({ type: 'int', min: 1, max: 50, default: 10 }) // overrides the parent's `size`, in the parent's place
  declare size?: number;
}

// --- A plain class-validator DTO works too -------------------------------------------------------------------------
export class InviteParams {
  @IsEmail()
  email!: string;

  @Length(2, 40)
  @ToolParam({ description: 'Display name' })
  name!: string;
}

// --- The composition root ------------------------------------------------------------------------------------------
export const registry = ToolRegistry.from([ProposeDecisionCommand, GetCalendarEventsCommand, BookHotelCommand]);

// --- Runtime tools: JSON Schema and the compact grammar -----------------------------------------------------------------
export function runtimeTools(): ToolRegistry {
  const tools = new ToolRegistry({ onDuplicate: 'error' });
  tools.registerJsonSchemaTool(
    {
      name: 'read_file',
      description: 'Read a text file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
    (params: { path: string }) => `contents of ${params.path}`,
    { namespace: 'filesystem' }, // registered as 'filesystem.read_file'
  );
  tools.registerCompact(
    { command_name: 'get_calendar_events', parameters: [{ name: 'resolved_datetimes', type: 'array<datetime>' }] },
    (params: { resolved_datetimes: string[] }) => params.resolved_datetimes.length,
  );
  return tools;
}

// --- A definition error, thrown when the definition is built -----------------------------------------------------------
export class CountParams {
  @ToolParam() // a number: int or float?
  count!: number;
}

export function countParamsError(): string {
  try {
    buildObjectSchema(CountParams);
    return 'built';
  } catch (error) {
    return error instanceof DefinitionError ? error.message : String(error);
  }
}
