// Snippets of docs/tool-loop.md. CI type-checks this file (tsconfig.test.json), and
// packages/providers/test/functional/loop-docs-snippet.spec.ts runs it: against a stub OpenAI API on 127.0.0.1, and
// with the scripted model. To run it (after `npm run build`; with OPENAI_API_KEY set it asks gpt-4.1, without it the
// scripted model plays): npx ts-node --transpile-only -P tsconfig.jest.json -O '{"rootDir":"."}' docs/snippets/tool-loop.ts
import 'reflect-metadata';
import OpenAI from 'openai';
import {
  Command,
  ScriptedChatModel,
  ToolParam,
  ToolRegistry,
  defaultLogger,
  registerRelativeDateTool,
  runToolLoop,
  silentLogger,
  type ChatMessage,
  type ChatModel,
  type ExecutionContext,
  type Logger,
  type ToolLoopResult,
  type ToolLoopStep,
} from '@toolwright/core';
import { OpenAIChatModel } from '@toolwright/providers/openai';

// --- A command whose parameter must be an absolute date-time -------------------------------------------------------
export class GetCalendarEventsParams {
  @ToolParam({ type: 'array<datetime>', description: 'ISO-8601 date-times with a UTC offset' })
  resolved_datetimes!: string[];
}

@Command({
  name: 'get_calendar_events',
  description: "List the user's calendar events at the given date-times.",
  params: GetCalendarEventsParams,
  retries: 2, // the default; the loop lets the model fix an invalid call this many times
})
export class GetCalendarEventsCommand {
  execute(params: GetCalendarEventsParams): { events: Array<{ title: string; start: string }> } {
    return { events: params.resolved_datetimes.map((start) => ({ title: 'Standup', start })) };
  }
}

export function calendarRegistry(): ToolRegistry {
  const registry = ToolRegistry.from([GetCalendarEventsCommand]);
  registerRelativeDateTool(registry); // opt in: the model may call resolve_relative_date
  return registry;
}

// --- One line per call of each step, for onStep -----------------------------------------------------------------
export function describeStep(step: ToolLoopStep): string[] {
  if (step.calls.length === 0) return [`step ${step.index + 1}: answer ${JSON.stringify(step.turn.text ?? '')}`];
  return step.calls.map((entry) => {
    const outcome = entry.result.ok
      ? 'ok'
      : `${entry.result.error.code}${entry.attempt !== undefined ? ` (attempt ${entry.attempt} of ${(entry.retriesAllowed ?? 0) + 1})` : ''}`;
    return `step ${step.index + 1}: ${entry.call.name}(${typeof entry.call.arguments === 'string' ? entry.call.arguments : JSON.stringify(entry.call.arguments)}) -> ${outcome}`;
  });
}

export interface AskOptions {
  /** The trusted context: the user's time zone, and the instant "tomorrow" is relative to (default now). */
  readonly context?: ExecutionContext;
  readonly logger?: Logger;
  readonly print?: (line: string) => void;
}

// --- The loop: any ChatModel, the same registry ----------------------------------------------------------------------
export async function askCalendar(
  model: ChatModel,
  question: string,
  options: AskOptions = {},
): Promise<ToolLoopResult> {
  const print = options.print ?? console.log;
  return runToolLoop({
    model,
    registry: calendarRegistry(),
    messages: [
      { role: 'system', content: "You manage the user's calendar." },
      { role: 'user', content: question },
    ],
    context: options.context ?? { timeZone: 'Europe/Berlin' },
    maxSteps: 6,
    logger: options.logger ?? defaultLogger,
    onStep: (step) => describeStep(step).forEach((line) => print(line)),
  });
}

// --- The same loop without a network: the scripted model plays each turn from the conversation so far -------------
function lastToolContent(messages: readonly ChatMessage[]): string {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? last.content : '';
}

export function scriptedCalendarModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    { toolCalls: [{ id: 'call_1', name: 'get_calendar_events', arguments: '{"resolved_datetimes":"tomorrow"}' }] },
    {
      toolCalls: [
        { id: 'call_2', name: 'resolve_relative_date', arguments: { phrase: 'tomorrow', granularity: 'datetime' } },
      ],
    },
    (messages) => {
      const { datetime } = JSON.parse(lastToolContent(messages)) as { datetime: string };
      return {
        toolCalls: [{ id: 'call_3', name: 'get_calendar_events', arguments: { resolved_datetimes: [datetime] } }],
      };
    },
    (messages) => {
      const { events } = JSON.parse(lastToolContent(messages)) as { events: Array<{ title: string; start: string }> };
      return {
        text: `Tomorrow: ${events.map((event) => `${event.title} at ${event.start}`).join(', ')}.`,
        toolCalls: [],
      };
    },
  ]);
}

async function main(): Promise<void> {
  const model = process.env['OPENAI_API_KEY']
    ? new OpenAIChatModel({ client: new OpenAI(), model: 'gpt-4.1', temperature: 0 })
    : scriptedCalendarModel();
  const result = await askCalendar(model, 'What is on my calendar tomorrow?', { logger: silentLogger });
  console.log(`${result.status}: ${result.text ?? result.error?.message ?? ''}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
