import 'reflect-metadata';
import type OpenAI from 'openai';
import { toStrictJsonSchema } from 'openai/lib/transform';
import type { ToolCall, ToolResult } from '@toolwright/core';
import * as openai from '@toolwright/providers/openai';
import { OPTIONAL_NULL_MARKER, splitNote } from '@toolwright/providers';
import { CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

type ChatCompletionTool = OpenAI.Chat.Completions.ChatCompletionTool;
type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
type ChatCompletionChunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type ChatCompletionToolMessageParam = OpenAI.Chat.Completions.ChatCompletionToolMessageParam;

const fixture = loadFixture('openai-chat');

function chunk(
  toolCalls: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall[],
  finishReason: OpenAI.Chat.Completions.ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4.1',
    choices: [{ index: 0, delta: { tool_calls: toolCalls }, logprobs: null, finish_reason: finishReason }],
  };
}

describe('OpenAI Chat Completions: the canonical tool', () => {
  it('is the reference definition, verbatim, when not strict', () => {
    const tools: ChatCompletionTool[] = openai.toTools([canonicalDefinition()]);
    expect(tools).toEqual([fixture['tool']]);
  });

  it("matches the reference's strict variant (descriptions aside) and passes OpenAI's toStrictJsonSchema", () => {
    const [tool] = openai.toTools([canonicalDefinition()], { strict: true });
    const expected = fixture['toolStrict'];
    const withoutDescriptions = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (key, item: unknown) => (key === 'description' ? undefined : item)));
    expect(withoutDescriptions(tool)).toEqual(withoutDescriptions(expected));
    expect(tool?.function.strict).toBe(true);
    const parameters = tool?.function.parameters ?? {};
    expect(toStrictJsonSchema(JSON.parse(JSON.stringify(parameters)) as never)).toEqual(parameters);
    const properties = parameters['properties'] as Record<string, { description: string }>;
    expect(splitNote(properties['max_results']?.description).text).toBe(
      `Maximum number of events to return (1-50). Defaults to 10. ${OPTIONAL_NULL_MARKER}`,
    );
    expect(splitNote(properties['max_results']?.description).note).toEqual({ default: 10 });
  });

  it('parses the reference call; a strict tool set maps include_declined: null back to absent and says so', () => {
    const completion = fixture['completion'] as ChatCompletion;
    const plain: ToolCall[] = openai.parseToolCalls(completion);
    expect(plain).toEqual([
      {
        id: 'call_Qx7Jm1w2Zr8sY3kLp0aB',
        name: 'get_calendar_events',
        arguments:
          completion.choices[0]?.message.tool_calls?.[0]?.type === 'function'
            ? completion.choices[0].message.tool_calls[0].function.arguments
            : '',
        providerName: 'get_calendar_events',
        transformations: [],
      },
    ]);
    const toolSet = openai.createToolSet([canonicalDefinition()], { strict: true });
    const [strictCall] = openai.parseToolCalls(completion, { toolSet });
    expect(strictCall?.arguments).toEqual({
      resolved_datetimes: ['2026-11-23T09:00:00-05:00'],
      calendar: 'work',
      max_results: 5,
    });
    expect(strictCall?.transformations).toEqual([
      { path: 'include_declined', rule: 'strict-null-to-absent', from: null, to: undefined },
    ]);
  });

  it('accumulates the reference stream into the same call', () => {
    const accumulator = openai.createStreamAccumulator();
    const chunks = fixture['chunks'] as ChatCompletionChunk[];
    const emitted = chunks.map((item) => accumulator.push(item));
    expect(emitted.slice(0, -1).flat()).toEqual([]);
    expect(emitted.at(-1)).toEqual([
      {
        id: 'call_Qx7Jm1w2Zr8sY3kLp0aB',
        name: 'get_calendar_events',
        arguments:
          '{"resolved_datetimes":["2026-11-23T09:00:00-05:00"],"calendar":"work","max_results":5,"include_declined":null}',
        providerName: 'get_calendar_events',
        transformations: [],
      },
    ]);
    expect(accumulator.pending).toBe(0);
  });

  it('gives the result back as the reference tool message, and errors as JSON text', () => {
    const result: ToolResult = {
      callId: 'call_Qx7Jm1w2Zr8sY3kLp0aB',
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 3,
    };
    const message: ChatCompletionToolMessageParam = openai.toToolResultMessage(result);
    expect(message).toEqual(fixture['result']);
    const failure: ToolResult = {
      callId: 'call_Qx7Jm1w2Zr8sY3kLp0aB',
      tool: 'get_calendar_events',
      ok: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'Calendar API timed out; retry later.',
        issues: [],
        retryable: true,
      },
      transformations: [],
      durationMs: 3,
    };
    const errorMessage: ChatCompletionToolMessageParam = openai.toToolResultMessage(failure);
    expect(JSON.parse(errorMessage.content as string)).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'Calendar API timed out; retry later.', retryable: true },
    });
  });

  it('imports the definitions back (strict and not) into the same IR', () => {
    const definition = canonicalDefinition();
    for (const strict of [false, true]) {
      const [tool] = openai.toTools([definition], { strict });
      expect(openai.fromTool(tool as openai.OpenAIChatTool).parameters).toEqual(definition.parameters);
    }
  });
});

describe('OpenAI Chat Completions: the seed commands', () => {
  it('lowers decision/propose and get_calendar_events (names encoded, context fields absent)', () => {
    const tools: ChatCompletionTool[] = openai.toTools(seedRegistry());
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'decision_propose',
          description: 'Propose a decision with at least two options.',
          parameters: {
            type: 'object',
            properties: {
              question: { type: 'string', description: 'The question to decide' },
              options: {
                type: 'array',
                description: 'The options to choose from',
                items: {
                  type: 'object',
                  properties: {
                    label: { type: 'string', description: 'Short name of the option' },
                    description: { type: 'string', description: 'What choosing this option means' },
                    proposedBy: { type: 'string', description: 'Who proposed the option' },
                  },
                  required: ['label', 'description'],
                  additionalProperties: false,
                },
                minItems: 2,
              },
            },
            required: ['question', 'options'],
            additionalProperties: false,
          },
        },
      },
      {
        type: 'function',
        function: {
          name: 'get_calendar_events',
          description: 'List calendar events at the given date-times.',
          parameters: {
            type: 'object',
            properties: {
              resolved_datetimes: {
                type: 'array',
                description: 'Resolved ISO-8601 date-times with offset',
                items: { type: 'string', format: 'date-time' },
              },
              max_results: { type: 'integer', description: 'Most events to return', minimum: 1, maximum: 50 },
              include_declined: { type: 'boolean', description: 'Include declined events' },
            },
            required: ['resolved_datetimes'],
            additionalProperties: false,
          },
        },
      },
    ]);
  });

  it('lowers them for strict mode: proposedBy nullable and required inside each option', () => {
    const [propose] = openai.toTools(seedRegistry(), { strict: true });
    const parameters = propose?.function.parameters as Record<string, any>;
    expect(parameters['properties'].options.items.required).toEqual(['label', 'description', 'proposedBy']);
    expect(parameters['properties'].options.items.properties.proposedBy.type).toEqual(['string', 'null']);
    expect(parameters['properties'].options.minItems).toBe(2);
    expect(toStrictJsonSchema(JSON.parse(JSON.stringify(parameters)) as never)).toEqual(parameters);
  });

  it('decodes the encoded name of a call and strips strict nulls inside array items', () => {
    const toolSet = openai.createToolSet(seedRegistry(), { strict: true });
    const completion: ChatCompletion = {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: {
                  name: 'decision_propose',
                  arguments:
                    '{"question":"Lunch?","options":[{"label":"Pizza","description":"Fast","proposedBy":null},{"label":"Sushi","description":"Fresh","proposedBy":"Ann"}]}',
                },
              },
            ],
          },
        },
      ],
    };
    const [call] = openai.parseToolCalls(completion, { toolSet });
    expect(call?.name).toBe('decision/propose');
    expect(call?.providerName).toBe('decision_propose');
    expect(call?.arguments).toEqual({
      question: 'Lunch?',
      options: [
        { label: 'Pizza', description: 'Fast' },
        { label: 'Sushi', description: 'Fresh', proposedBy: 'Ann' },
      ],
    });
    expect(call?.transformations).toEqual([
      { path: 'options[0].proposedBy', rule: 'strict-null-to-absent', from: null, to: undefined },
    ]);
  });
});

describe('OpenAI Chat Completions streaming', () => {
  it('separates interleaved parallel calls by index and completes them at finish_reason', () => {
    const toolSet = openai.createToolSet(seedRegistry());
    const accumulator = openai.createStreamAccumulator({ toolSet });
    const events: ChatCompletionChunk[] = [
      chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'decision_propose', arguments: '' } }]),
      chunk([
        {
          index: 1,
          id: 'call_b',
          type: 'function',
          function: { name: 'get_calendar_events', arguments: '{"resolved_' },
        },
      ]),
      chunk([{ index: 0, function: { arguments: '{"question":"Q",' } }]),
      chunk([
        { index: 1, function: { arguments: 'datetimes":["2026-11-23T09:00:00Z"]}' } },
        { index: 0, function: { arguments: '"options":[]}' } },
      ]),
      chunk([], 'tool_calls'),
    ];
    const emitted = events.flatMap((event) => accumulator.push(event));
    expect(emitted.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['call_a', 'decision/propose', '{"question":"Q","options":[]}'],
      ['call_b', 'get_calendar_events', '{"resolved_datetimes":["2026-11-23T09:00:00Z"]}'],
    ]);
  });

  it('returns calls still open when the stream ends without finish_reason', async () => {
    async function* stream(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk([
        { index: 0, id: 'call_x', type: 'function', function: { name: 'get_calendar_events', arguments: '{}' } },
      ]);
    }
    const calls = [];
    for await (const call of openai.streamCalls(stream())) calls.push(call);
    expect(calls.map((call) => call.id)).toEqual(['call_x']);
  });
});
