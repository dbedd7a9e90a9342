import 'reflect-metadata';
import type { Cohere } from 'cohere-ai';
import type { ToolResult } from '@toolwright/core';
import * as cohere from '@toolwright/providers/cohere';
import { CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('cohere');
const callId = 'get_calendar_events_k88p0m8504w5';
const argumentsText = '{"resolved_datetimes":["2026-11-23T09:00:00-05:00"],"calendar":"work","max_results":5}';

describe('Cohere v2: the canonical tool', () => {
  it('moves minimum, maximum and default into the description (the reference strict_tools lowering)', () => {
    const tools: Cohere.ToolV2[] = cohere.toTools([canonicalDefinition()]);
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_calendar_events',
          description: "List events from the user's calendar, optionally restricted to specific resolved date-times.",
          parameters: {
            type: 'object',
            properties: {
              resolved_datetimes: {
                type: 'array',
                description: "ISO 8601 date-times (RFC 3339) already resolved from the user's request.",
                items: { type: 'string', format: 'date-time' },
              },
              calendar: { type: 'string', description: 'Which calendar to read.', enum: ['work', 'personal'] },
              max_results: {
                type: 'integer',
                description:
                  'Maximum number of events to return (1-50). Defaults to 10. (JSON Schema: {"minimum":1,"maximum":50,"default":10})',
              },
              include_declined: { type: 'boolean', description: 'Whether to include events the user declined.' },
            },
            required: ['calendar'],
            additionalProperties: false,
          },
        },
      },
    ]);
  });

  it('parses the wire response and the SDK (camelCase) response alike', () => {
    const expected = [
      {
        id: callId,
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: argumentsText,
        transformations: [],
      },
    ];
    expect(cohere.parseToolCalls(fixture['response'])).toEqual(expected);
    const sdk: Cohere.V2ChatResponse = {
      id: 'c14c80c3',
      finishReason: 'TOOL_CALL',
      message: {
        role: 'assistant',
        toolPlan: 'I will look up the work calendar.',
        toolCalls: [
          { id: callId, type: 'function', function: { name: 'get_calendar_events', arguments: argumentsText } },
        ],
      },
    };
    expect(cohere.parseToolCalls(sdk)).toEqual(expected);
  });

  it('gives results back as document content (SDK camelCase, or the reference wire JSON)', () => {
    const success: ToolResult = {
      callId,
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    };
    const message: Cohere.ChatMessageV2 = cohere.toToolResultMessage(success);
    expect(message).toEqual({ role: 'tool', toolCallId: callId, content: fixture['resultWire'].content });
    expect(cohere.toWireToolResultMessage(success)).toEqual(fixture['resultWire']);
    const failure: Cohere.ChatMessageV2 = cohere.toToolResultMessage({
      callId,
      tool: 'get_calendar_events',
      ok: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'Calendar API timed out; retry later.',
        issues: [],
        retryable: true,
      },
      transformations: [],
      durationMs: 1,
    });
    expect(failure).toEqual({
      role: 'tool',
      toolCallId: callId,
      content: [
        {
          type: 'document',
          document: {
            data: {
              error: { code: 'SERVICE_UNAVAILABLE', message: 'Calendar API timed out; retry later.', retryable: true },
            },
          },
        },
      ],
    });
    const text: Cohere.ChatMessageV2 = cohere.toToolResultMessage({
      callId,
      tool: 't',
      ok: true,
      value: 'plain',
      transformations: [],
      durationMs: 0,
    });
    expect(text).toEqual({ role: 'tool', toolCallId: callId, content: [{ type: 'text', text: 'plain' }] });
  });

  it('imports the lowered tool back into the same IR', () => {
    const definition = canonicalDefinition();
    const [tool] = cohere.toTools([definition]);
    expect(cohere.fromTool(tool as cohere.CohereTool).parameters).toEqual(definition.parameters);
  });
});

describe('Cohere v2: the seed commands and streaming', () => {
  it('moves minItems of decision/propose into the description', () => {
    const [propose] = cohere.toTools(seedRegistry());
    expect(propose?.function.name).toBe('decision_propose');
    expect(
      (propose?.function.parameters['properties'] as Record<string, Record<string, unknown>>)['options'],
    ).not.toHaveProperty('minItems');
  });

  it('assembles interleaved tool-call deltas per index', () => {
    const accumulator = cohere.createStreamAccumulator({ toolSet: cohere.createToolSet(seedRegistry()) });
    const events: Cohere.V2ChatStreamResponse[] = [
      { type: 'message-start', id: 'm1', delta: { message: { role: 'assistant' } } },
      { type: 'tool-plan-delta', delta: { message: { toolPlan: 'I will propose it.' } } },
      {
        type: 'tool-call-start',
        index: 0,
        delta: {
          message: {
            toolCalls: {
              id: 'decision_propose_aaaaaaaaaaaa',
              type: 'function',
              function: { name: 'decision_propose', arguments: '' },
            },
          },
        },
      },
      {
        type: 'tool-call-start',
        index: 1,
        delta: {
          message: {
            toolCalls: {
              id: 'get_calendar_events_bbbbbbbbbbbb',
              type: 'function',
              function: { name: 'get_calendar_events', arguments: '' },
            },
          },
        },
      },
      {
        type: 'tool-call-delta',
        index: 0,
        delta: { message: { toolCalls: { function: { arguments: '{"question":"Q",' } } } },
      },
      {
        type: 'tool-call-delta',
        index: 1,
        delta: { message: { toolCalls: { function: { arguments: '{"resolved_datetimes":[]}' } } } },
      },
      { type: 'tool-call-end', index: 1 },
      {
        type: 'tool-call-delta',
        index: 0,
        delta: { message: { toolCalls: { function: { arguments: '"options":[]}' } } } },
      },
      { type: 'tool-call-end', index: 0 },
      { type: 'message-end', delta: { finishReason: 'TOOL_CALL' } },
    ];
    const emitted = events
      .flatMap((event) => accumulator.push(event))
      .map((call) => [call.id, call.name, call.arguments]);
    expect(emitted).toEqual([
      ['get_calendar_events_bbbbbbbbbbbb', 'get_calendar_events', '{"resolved_datetimes":[]}'],
      ['decision_propose_aaaaaaaaaaaa', 'decision/propose', '{"question":"Q","options":[]}'],
    ]);
  });

  it('reads wire (snake_case) stream events too', () => {
    const accumulator = cohere.createStreamAccumulator();
    accumulator.push({
      type: 'tool-call-start',
      index: 0,
      delta: { message: { tool_calls: { id: 'x_1', type: 'function', function: { name: 'x', arguments: '' } } } },
    });
    accumulator.push({
      type: 'tool-call-delta',
      index: 0,
      delta: { message: { tool_calls: { function: { arguments: '{}' } } } },
    });
    expect(accumulator.push({ type: 'tool-call-end', index: 0 })).toMatchObject([
      { id: 'x_1', name: 'x', arguments: '{}' },
    ]);
  });
});
