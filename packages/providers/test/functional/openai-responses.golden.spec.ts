import 'reflect-metadata';
import type OpenAI from 'openai';
import type { ToolResult } from '@toolwright/core';
import * as responses from '@toolwright/providers/openai-responses';
import { CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('openai-responses');

describe('OpenAI Responses: the canonical tool', () => {
  it('is the reference flat function tool, with strict sent explicitly', () => {
    const tools: OpenAI.Responses.FunctionTool[] = responses.toTools([canonicalDefinition()]);
    expect(tools).toEqual([fixture['tool']]);
    const [strict] = responses.toTools([canonicalDefinition()], { strict: true });
    expect(strict?.strict).toBe(true);
    expect(strict?.parameters?.['required']).toEqual([
      'resolved_datetimes',
      'calendar',
      'max_results',
      'include_declined',
    ]);
  });

  it('parses function_call items (call_id answers them, not the item id)', () => {
    const response = fixture['response'] as OpenAI.Responses.Response;
    const calls = responses.parseToolCalls(response, {
      toolSet: responses.createToolSet([canonicalDefinition()], { strict: true }),
    });
    expect(calls).toEqual([
      {
        id: 'call_Qx7Jm1w2Zr8sY3kLp0aB',
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: { resolved_datetimes: ['2026-11-23T09:00:00-05:00'], calendar: 'work', max_results: 5 },
        transformations: [{ path: 'include_declined', rule: 'strict-null-to-absent', from: null, to: undefined }],
      },
    ]);
  });

  it('gives results back as function_call_output items', () => {
    const result: ToolResult = {
      callId: 'call_Qx7Jm1w2Zr8sY3kLp0aB',
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    };
    const item: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = responses.toToolResultMessage(result);
    expect(item).toEqual(fixture['result']);
    const input: OpenAI.Responses.ResponseInputItem[] = responses.toToolResultMessages([
      result,
      {
        callId: 'call_2',
        tool: 'x',
        ok: false,
        error: {
          code: 'UNKNOWN_TOOL',
          message: 'No tool "x".',
          issues: [],
          suggestions: ['get_calendar_events'],
          retryable: true,
        },
        transformations: [],
        durationMs: 0,
      },
    ]);
    expect(input[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_2',
      output:
        '{"error":{"code":"UNKNOWN_TOOL","message":"No tool \\"x\\".","retryable":true,"suggestions":["get_calendar_events"]}}',
    });
  });

  it('imports the strict tool back into the same IR', () => {
    const definition = canonicalDefinition();
    const [tool] = responses.toTools([definition], { strict: true });
    expect(responses.fromTool(tool as responses.OpenAIResponsesFunctionTool).parameters).toEqual(definition.parameters);
  });
});

describe('OpenAI Responses streaming', () => {
  const added = (
    outputIndex: number,
    id: string,
    callId: string,
    name: string,
  ): OpenAI.Responses.ResponseStreamEvent => ({
    type: 'response.output_item.added',
    output_index: outputIndex,
    sequence_number: 0,
    item: { type: 'function_call', id, call_id: callId, name, arguments: '', status: 'in_progress' },
  });
  const delta = (outputIndex: number, itemId: string, text: string): OpenAI.Responses.ResponseStreamEvent => ({
    type: 'response.function_call_arguments.delta',
    output_index: outputIndex,
    item_id: itemId,
    delta: text,
    sequence_number: 0,
  });

  it('assembles interleaved parallel calls per output_index and completes each at its .done event', () => {
    const accumulator = responses.createStreamAccumulator({ toolSet: responses.createToolSet(seedRegistry()) });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [
      { type: 'response.created', sequence_number: 0, response: fixture['response'] as OpenAI.Responses.Response },
      added(0, 'fc_a', 'call_a', 'decision_propose'),
      added(1, 'fc_b', 'call_b', 'get_calendar_events'),
      delta(0, 'fc_a', '{"question":'),
      delta(1, 'fc_b', '{"resolved_datetimes":[]}'),
      delta(0, 'fc_a', '"Q","options":[]}'),
      {
        type: 'response.function_call_arguments.done',
        output_index: 1,
        item_id: 'fc_b',
        arguments: '{"resolved_datetimes":[]}',
        sequence_number: 0,
      },
      {
        type: 'response.function_call_arguments.done',
        output_index: 0,
        item_id: 'fc_a',
        arguments: '{"question":"Q","options":[]}',
        sequence_number: 0,
      },
      {
        type: 'response.output_item.done',
        output_index: 0,
        sequence_number: 0,
        item: {
          type: 'function_call',
          id: 'fc_a',
          call_id: 'call_a',
          name: 'decision_propose',
          arguments: '{"question":"Q","options":[]}',
          status: 'completed',
        },
      },
    ];
    const emitted = events.map((event) => accumulator.push(event).map((call) => [call.id, call.name, call.arguments]));
    expect(emitted).toEqual([
      [],
      [],
      [],
      [],
      [],
      [],
      [['call_b', 'get_calendar_events', '{"resolved_datetimes":[]}']],
      [['call_a', 'decision/propose', '{"question":"Q","options":[]}']],
      [],
    ]);
  });

  it('completes a call from output_item.done when no .done event came', () => {
    const accumulator = responses.createStreamAccumulator();
    accumulator.push(added(0, 'fc_a', 'call_a', 'get_calendar_events'));
    accumulator.push(delta(0, 'fc_a', '{"resolved'));
    const done: OpenAI.Responses.ResponseStreamEvent = {
      type: 'response.output_item.done',
      output_index: 0,
      sequence_number: 0,
      item: {
        type: 'function_call',
        id: 'fc_a',
        call_id: 'call_a',
        name: 'get_calendar_events',
        arguments: '{"resolved_datetimes":[]}',
        status: 'completed',
      },
    };
    const [call] = accumulator.push(done);
    expect(call?.arguments).toBe('{"resolved_datetimes":[]}');
  });
});
