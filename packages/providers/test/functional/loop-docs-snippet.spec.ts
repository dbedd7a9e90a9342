import 'reflect-metadata';
import { silentLogger } from '@toolwright/core';
import { OpenAIChatModel } from '@toolwright/providers/openai';
import OpenAI from 'openai';
import { askCalendar, scriptedCalendarModel } from '../../../../docs/snippets/tool-loop';
import { CONTEXT, FIRST_RETRY } from '../support/calendar-loop';
import { openaiChatDialect, play, relativeDateScript, type ProviderHarness } from '../support/scripted-providers';
import { startStubServer, type StubServer } from '../support/stub-server';

/** docs/tool-loop.md's snippet, run as the page shows it: over the OpenAI client (here pointed at a stub) and offline. */

let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());

describe('docs/snippets/tool-loop.ts', () => {
  it('runs the loop over the OpenAI adapter and prints one line per call', async () => {
    const model = new OpenAIChatModel({
      client: new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 }),
      model: 'gpt-4.1',
      temperature: 0,
    });
    const harness: ProviderHarness = { dialect: openaiChatDialect, server, model, close: async () => {} };
    play(harness, relativeDateScript(openaiChatDialect));
    const lines: string[] = [];

    const result = await askCalendar(model, 'What is on my calendar tomorrow?', {
      context: CONTEXT,
      logger: silentLogger,
      print: (line) => lines.push(line),
    });

    expect(result).toMatchObject({
      status: 'completed',
      text: 'Tomorrow you have 1 event: Standup at 2026-11-22T00:00:00+01:00.',
    });
    expect(server.requests[1]?.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_0Qw8XkP2m',
      content: FIRST_RETRY,
    });
    expect(lines).toEqual([
      'step 1: get_calendar_events({"resolved_datetimes":"tomorrow"}) -> INVALID_ARGUMENTS (attempt 1 of 3)',
      'step 2: resolve_relative_date({"phrase":"tomorrow"}) -> ok',
      'step 3: get_calendar_events({"resolved_datetimes":["2026-11-22T00:00:00+01:00"]}) -> ok',
      'step 4: answer "Tomorrow you have 1 event: Standup at 2026-11-22T00:00:00+01:00."',
    ]);
  });

  it('runs the same loop offline with the scripted model', async () => {
    const lines: string[] = [];
    const result = await askCalendar(scriptedCalendarModel(), 'What is on my calendar tomorrow?', {
      context: CONTEXT,
      logger: silentLogger,
      print: (line) => lines.push(line),
    });
    expect(result).toMatchObject({ status: 'completed', text: 'Tomorrow: Standup at 2026-11-22T00:00:00+01:00.' });
    expect(lines).toEqual([
      'step 1: get_calendar_events({"resolved_datetimes":"tomorrow"}) -> INVALID_ARGUMENTS (attempt 1 of 3)',
      'step 2: resolve_relative_date({"phrase":"tomorrow","granularity":"datetime"}) -> ok',
      'step 3: get_calendar_events({"resolved_datetimes":["2026-11-22T00:00:00+01:00"]}) -> ok',
      'step 4: answer "Tomorrow: Standup at 2026-11-22T00:00:00+01:00."',
    ]);
  });
});
