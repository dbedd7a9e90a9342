import 'reflect-metadata';
import type * as Mistral from '@mistralai/mistralai/models/components';
import type { ToolResult } from '@toolwright/core';
import * as mistral from '@toolwright/providers/mistral';
import { CallIdCodec, MISTRAL_CALL_ID_PROFILE } from '@toolwright/providers';
import { CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('mistral');
const success = (callId: string): ToolResult => ({
  callId,
  tool: 'get_calendar_events',
  ok: true,
  value: CANONICAL_RESULT,
  transformations: [],
  durationMs: 1,
});

describe('Mistral: the canonical tool', () => {
  it('is the reference definition (the wire JSON the SDK sends)', () => {
    const tools: Mistral.Tool[] = mistral.toTools([canonicalDefinition()]);
    expect(tools).toEqual([fixture['tool']]);
  });

  it('parses the wire response and the SDK (camelCase) response alike', () => {
    const wire = fixture['response'];
    const expected = {
      id: 'D681PevKs',
      name: 'get_calendar_events',
      providerName: 'get_calendar_events',
      arguments: '{"resolved_datetimes": ["2026-11-23T09:00:00-05:00"], "calendar": "work", "max_results": 5}',
      transformations: [],
    };
    expect(mistral.parseToolCalls(wire)).toEqual([expected]);
    const sdk: Mistral.ChatCompletionResponse = {
      id: 'cmpl-1',
      object: 'chat.completion',
      model: 'mistral-large-latest',
      created: 1,
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      choices: [
        {
          index: 0,
          finishReason: 'tool_calls',
          message: {
            role: 'assistant',
            content: '',
            toolCalls: [
              {
                id: 'D681PevKs',
                type: 'function',
                index: 0,
                function: { name: 'get_calendar_events', arguments: expected.arguments },
              },
            ],
          },
        },
      ],
    };
    expect(mistral.parseToolCalls(sdk)).toEqual([expected]);
  });

  it('gives results back as tool messages: SDK camelCase, or the reference wire JSON', () => {
    const message: Mistral.ToolMessage = mistral.toToolResultMessage(success('D681PevKs'));
    expect(message).toEqual({
      role: 'tool',
      toolCallId: 'D681PevKs',
      name: 'get_calendar_events',
      content: fixture['resultWire'].content,
    });
    expect(mistral.toWireToolResultMessage(success('D681PevKs'))).toEqual(fixture['resultWire']);
  });

  it('maps foreign call ids to 9 alphanumeric characters and back', () => {
    const callIds = new CallIdCodec(MISTRAL_CALL_ID_PROFILE);
    const message = mistral.toToolResultMessage(success('call_Qx7Jm1w2Zr8sY3kLp0aB'), { callIds });
    expect(message.toolCallId).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(mistral.toToolResultMessage(success('call_Qx7Jm1w2Zr8sY3kLp0aB')).toolCallId).toBe(message.toolCallId);
    const [call] = mistral.parseToolCalls(
      [{ id: message.toolCallId, type: 'function', function: { name: 'get_calendar_events', arguments: '{}' } }],
      { callIds },
    );
    expect(call?.id).toBe('call_Qx7Jm1w2Zr8sY3kLp0aB');
    expect(callIds.toProvider('toolu_01A09q90qw90lq917835lq9')).not.toBe(message.toolCallId);
  });

  it('imports the tool back into the same IR', () => {
    const definition = canonicalDefinition();
    const [tool] = mistral.toTools([definition], { strict: true });
    expect(tool?.function.strict).toBe(true);
    expect(mistral.fromTool(tool as mistral.MistralTool).parameters).toEqual(definition.parameters);
  });
});

describe('Mistral: the seed commands and streaming', () => {
  it('encodes decision/propose and names the function in results with the encoded name', () => {
    const toolSet = mistral.createToolSet(seedRegistry());
    expect(toolSet.tools.map((tool) => tool.function.name)).toEqual(['decision_propose', 'get_calendar_events']);
    const message = mistral.toToolResultMessage(
      { callId: 'abcDEF123', tool: 'decision/propose', ok: true, value: { ok: 1 }, transformations: [], durationMs: 0 },
      { toolSet },
    );
    expect(message.name).toBe('decision_propose');
    // Without the tool set, a name Mistral would reject is left out (it is optional).
    expect(
      mistral.toToolResultMessage({
        callId: 'abcDEF123',
        tool: 'decision/propose',
        ok: true,
        value: 1,
        transformations: [],
        durationMs: 0,
      }),
    ).not.toHaveProperty('name');
  });

  it('accumulates whole and fragmented calls from SDK completion events, ignoring the "null" ids of later fragments', () => {
    const accumulator = mistral.createStreamAccumulator({ toolSet: mistral.createToolSet(seedRegistry()) });
    const events: Mistral.CompletionEvent[] = [
      {
        data: {
          id: 'c',
          model: 'm',
          choices: [
            {
              index: 0,
              delta: {
                toolCalls: [
                  { id: 'AAAAAAAA1', index: 0, function: { name: 'decision_propose', arguments: '{"question":' } },
                ],
              },
              finishReason: null,
            },
          ],
        },
      },
      {
        data: {
          id: 'c',
          model: 'm',
          choices: [
            {
              index: 0,
              delta: {
                toolCalls: [
                  {
                    id: 'BBBBBBBB2',
                    index: 1,
                    function: { name: 'get_calendar_events', arguments: '{"resolved_datetimes":[]}' },
                  },
                ],
              },
              finishReason: null,
            },
          ],
        },
      },
      {
        data: {
          id: 'c',
          model: 'm',
          choices: [
            {
              index: 0,
              delta: { toolCalls: [{ id: 'null', index: 0, function: { name: '', arguments: '"Q","options":[]}' } }] },
              finishReason: null,
            },
          ],
        },
      },
      { data: { id: 'c', model: 'm', choices: [{ index: 0, delta: { content: '' }, finishReason: 'tool_calls' }] } },
    ];
    const emitted = events.flatMap((event) => accumulator.push(event));
    expect(emitted.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['AAAAAAAA1', 'decision/propose', '{"question":"Q","options":[]}'],
      ['BBBBBBBB2', 'get_calendar_events', '{"resolved_datetimes":[]}'],
    ]);
  });
});
