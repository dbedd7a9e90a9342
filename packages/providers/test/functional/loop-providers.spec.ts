import 'reflect-metadata';
import { runToolLoop, silentLogger, type ChatMessage, type ToolLoopResult } from '@toolwright/core';
import {
  calendarRegistry,
  CONTEXT,
  CONVERSATION,
  EVENTS,
  FINAL_ERROR,
  FIRST_RETRY,
  INVALID_ARGUMENTS_MESSAGE,
  RESOLUTION,
  SECOND_RETRY,
  SYSTEM,
  UNKNOWN_TOOL_RETRY,
} from '../support/calendar-loop';
import {
  callTurn,
  HARNESSES,
  play,
  relativeDateScript,
  resultValue,
  type ProviderHarness,
  type ReceivedResult,
  type StubServers,
} from '../support/scripted-providers';
import { startStubServer } from '../support/stub-server';

// The first request of each SDK loads its client (Mistral's is an ESM package loaded in a child step) and can take
// several seconds on a busy machine: a generous explicit timeout, never jest's 5 s default.
jest.setTimeout(60_000);

/**
 * Seed 001's loop end to end, once per adapter: the official SDK client talks to a stub API on 127.0.0.1 that plays
 * a scripted model, which reacts to what each request told it. The model first sends a relative date where a
 * date-time is required, is told to call `resolve_relative_date`, does, and uses the date it got back. Context:
 * 2026-11-21T10:00:00Z in Europe/Berlin.
 */

let servers: StubServers;
beforeAll(async () => {
  servers = { http: await startStubServer(), http2: await startStubServer({ http2: true }) };
});
afterAll(async () => {
  await servers.http.close();
  await servers.http2.close();
});

/** A result as the dialect reads it back: its id and name where the provider carries them, and its error flag where it has one. */
function expectedError(harness: ProviderHarness, id: string | undefined, name: string, text: string): ReceivedResult {
  const { dialect } = harness;
  return {
    ...(id !== undefined ? { id } : {}),
    ...(dialect.namesResults ? { name } : {}),
    text,
    ...(dialect.flagsErrors ? { isError: true } : {}),
  };
}

function retriesOf(result: ToolLoopResult): Array<[string, number | undefined, number | undefined, string]> {
  return result.steps
    .flatMap((step) => step.calls)
    .filter((call) => call.attempt !== undefined)
    .map((call) => [
      call.result.tool,
      call.attempt,
      call.retriesAllowed,
      call.result.ok ? 'ok' : call.result.error.code,
    ]);
}

function toolMessages(result: ToolLoopResult): Array<Extract<ChatMessage, { role: 'tool' }>> {
  return result.messages.filter(
    (message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool',
  );
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the stub server');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(HARNESSES.map((entry) => [entry.id, entry.create] as const))(
  '%s ChatModel over the official SDK client',
  (_id, create) => {
    let harness: ProviderHarness;
    beforeAll(() => {
      harness = create(servers);
    });
    afterAll(() => harness.close());
    beforeEach(() => harness.server.reset());

    it('recovers from a relative date: the exact retry message, one retry, resolve_relative_date, the final result', async () => {
      const ids = [0, 1, 2].map((index) => harness.dialect.callId(index));
      const turns = play(harness, relativeDateScript(harness.dialect));

      const result = await runToolLoop({
        model: harness.model,
        registry: calendarRegistry(),
        messages: CONVERSATION,
        context: CONTEXT,
        logger: silentLogger,
      });

      const received = harness.server.requests.map((request) => harness.dialect.read(request.body));
      expect(received).toHaveLength(4);
      for (const request of received) {
        expect(request.system).toBe(SYSTEM);
        expect(request.tools).toEqual(['get_calendar_events', 'resolve_relative_date']);
      }
      // Each request replays the model's previous turn as the provider produced it, then answers its call.
      expect(received.slice(1).map((request) => request.lastAssistant)).toEqual(
        turns.slice(0, 3).map((each) => harness.dialect.replayed(each)),
      );
      expect(received[1]?.results).toEqual([expectedError(harness, ids[0], 'get_calendar_events', FIRST_RETRY)]);
      expect(received[2]?.results).toHaveLength(1);
      expect(resultValue(received[2]?.results[0])).toEqual(RESOLUTION);
      expect(received[3]?.results).toHaveLength(1);
      expect(resultValue(received[3]?.results[0])).toEqual(EVENTS);
      if (harness.dialect.flagsErrors)
        expect([received[2]?.results[0]?.isError, received[3]?.results[0]?.isError]).toEqual([false, false]);

      expect(retriesOf(result)).toEqual([['get_calendar_events', 1, 2, 'INVALID_ARGUMENTS']]);
      expect(result.status).toBe('completed');
      expect(result.text).toBe('Tomorrow you have 1 event: Standup at 2026-11-22T00:00:00+01:00.');
      const results = toolMessages(result);
      expect(results.map((message) => [message.tool, message.isError])).toEqual([
        ['get_calendar_events', true],
        ['resolve_relative_date', false],
        ['get_calendar_events', false],
      ]);
      expect(results[2]?.result).toMatchObject({ ok: true, value: EVENTS });
      // The loop's call ids are the model's own (mapped back where the provider needed other ids).
      if (ids[0] !== undefined) expect(results.map((message) => message.callId)).toEqual(ids);
    });

    it('stops after exactly 2 retries (3 failed attempts) when the model never fixes its call', async () => {
      const ids = [0, 1, 2].map((index) => harness.dialect.callId(index));
      play(
        harness,
        ids.map((id) => () => callTurn(id, 'get_calendar_events', { resolved_datetimes: 'tomorrow' })),
      );

      const result = await runToolLoop({
        model: harness.model,
        registry: calendarRegistry(),
        messages: CONVERSATION,
        context: CONTEXT,
        logger: silentLogger,
      });

      // The third failure is final: the loop stops without asking the model again.
      const received = harness.server.requests.map((request) => harness.dialect.read(request.body));
      expect(received).toHaveLength(3);
      expect(received[1]?.results).toEqual([expectedError(harness, ids[0], 'get_calendar_events', FIRST_RETRY)]);
      expect(received[2]?.results).toEqual([expectedError(harness, ids[1], 'get_calendar_events', SECOND_RETRY)]);
      expect(retriesOf(result)).toEqual([
        ['get_calendar_events', 1, 2, 'INVALID_ARGUMENTS'],
        ['get_calendar_events', 2, 2, 'INVALID_ARGUMENTS'],
        ['get_calendar_events', 3, 2, 'INVALID_ARGUMENTS'],
      ]);
      expect(result.status).toBe('failed');
      const last = toolMessages(result).at(-1);
      expect(last).toMatchObject({ tool: 'get_calendar_events', isError: true, content: FINAL_ERROR });
      expect(result.error).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        tool: 'get_calendar_events',
        callId: last?.callId,
        message: INVALID_ARGUMENTS_MESSAGE,
        retryable: true,
      });
      if (ids[2] !== undefined) expect(result.error?.callId).toBe(ids[2]);
    });

    it('tells a model that calls an unknown tool which tool it meant, and the corrected call runs', async () => {
      const ids = [0, 1].map((index) => harness.dialect.callId(index));
      const datetimes = ['2026-11-22T09:00:00+01:00'];
      const first = callTurn(ids[0], 'get_calendar_event', { resolved_datetimes: datetimes });
      play(harness, [
        () => first,
        (received) => {
          const told = received.results[0]?.text ?? '';
          if (!told.includes('Did you mean "get_calendar_events"?'))
            throw new Error(`the model got no suggestion: ${told}`);
          return callTurn(ids[1], 'get_calendar_events', { resolved_datetimes: datetimes });
        },
        () => ({ text: 'You have a standup at 9.' }),
      ]);

      const result = await runToolLoop({
        model: harness.model,
        registry: calendarRegistry(),
        messages: CONVERSATION,
        context: CONTEXT,
        logger: silentLogger,
      });

      const received = harness.server.requests.map((request) => harness.dialect.read(request.body));
      expect(received).toHaveLength(3);
      // The unknown name goes back as the model called it, and so does the result's name where the provider names it.
      expect(received[1]?.lastAssistant).toEqual(harness.dialect.replayed(first));
      expect(received[1]?.results).toEqual([expectedError(harness, ids[0], 'get_calendar_event', UNKNOWN_TOOL_RETRY)]);
      expect(resultValue(received[2]?.results[0])).toEqual({
        events: [{ id: 'evt_1', title: 'Standup', start: datetimes[0] }],
      });
      const [unknown] = toolMessages(result);
      expect(unknown?.result).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_TOOL', suggestions: ['get_calendar_events'] },
      });
      expect(retriesOf(result)).toEqual([['get_calendar_event', 1, 2, 'UNKNOWN_TOOL']]);
      expect(result).toMatchObject({ status: 'completed', text: 'You have a standup at 9.' });
    });

    it('passes the AbortSignal to the client: aborting cancels a request in flight', async () => {
      harness.server.reply({ kind: 'hold' });
      const controller = new AbortController();
      const pending = harness.model.complete({
        messages: CONVERSATION,
        tools: calendarRegistry().list(),
        signal: controller.signal,
      });
      await until(() => harness.server.requests.length === 1);
      controller.abort(new Error('the user left'));
      // The stub never answers: only the abort can settle the call.
      const outcome = await Promise.race([
        pending.then(
          () => 'answered',
          () => 'rejected',
        ),
        new Promise((resolve) => setTimeout(() => resolve('still pending after the abort'), 2000)),
      ]);
      expect(outcome).toBe('rejected');
    });
  },
);
