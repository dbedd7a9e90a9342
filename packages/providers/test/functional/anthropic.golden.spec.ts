import 'reflect-metadata';
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolResult } from '@toolwright/core';
import * as anthropic from '@toolwright/providers/anthropic';
import { CallIdCodec, ANTHROPIC_CALL_ID_PROFILE } from '@toolwright/providers';
import { CANONICAL_ARGUMENTS, CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('anthropic');
const timeout: ToolResult = {
  callId: 'toolu_01A09q90qw90lq917835lq9',
  tool: 'get_calendar_events',
  ok: false,
  error: { code: 'SERVICE_UNAVAILABLE', message: 'Calendar API timed out; retry later.', issues: [], retryable: true },
  transformations: [],
  durationMs: 1,
};

describe('Anthropic Messages: the canonical tool', () => {
  it('is the reference definition as-is when not strict', () => {
    const tools: Anthropic.Messages.Tool[] = anthropic.toTools([canonicalDefinition()]);
    expect(tools).toEqual([fixture['tool']]);
  });

  it("is the reference's strict variant: strict: true, minimum/maximum only in the description, optionals kept optional", () => {
    const [tool] = anthropic.toTools([canonicalDefinition()], { strict: true });
    const typed: Anthropic.Messages.Tool | undefined = tool;
    expect(typed?.strict).toBe(true);
    expect(tool?.input_schema).toEqual({
      ...fixture['tool'].input_schema,
      properties: {
        ...fixture['tool'].input_schema.properties,
        max_results: {
          type: 'integer',
          description:
            'Maximum number of events to return (1-50). Defaults to 10. (JSON Schema: {"minimum":1,"maximum":50})',
          default: 10,
        },
      },
    });
  });

  it('parses tool_use blocks (text blocks before them are skipped)', () => {
    const message = fixture['message'] as Anthropic.Messages.Message;
    expect(anthropic.parseToolCalls(message)).toEqual([
      {
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: CANONICAL_ARGUMENTS,
        transformations: [],
      },
    ]);
  });

  it('accumulates the reference stream (input_json_delta per block index)', () => {
    const accumulator = anthropic.createStreamAccumulator();
    const events = fixture['events'] as Anthropic.Messages.RawMessageStreamEvent[];
    const calls = events.flatMap((event) => accumulator.push(event));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.id).toBe('toolu_01A09q90qw90lq917835lq9');
    expect(JSON.parse(calls[0]?.arguments as string)).toEqual(CANONICAL_ARGUMENTS);
  });

  it('gives results and errors back as tool_result blocks in a user message (is_error for errors)', () => {
    const success: ToolResult = {
      callId: 'toolu_01A09q90qw90lq917835lq9',
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    };
    const message: Anthropic.Messages.MessageParam = anthropic.toToolResultMessage(success);
    expect(message).toEqual(fixture['result']);
    const error: Anthropic.Messages.MessageParam = anthropic.toToolResultMessage(timeout);
    expect(error).toEqual(fixture['error']);
    const both: Anthropic.Messages.MessageParam[] = anthropic.toToolResultMessages([success, timeout]);
    expect(both).toHaveLength(1);
    expect(both[0]?.content).toHaveLength(2);
  });

  it('rewrites foreign call ids to its id pattern and maps them back', () => {
    const callIds = new CallIdCodec(ANTHROPIC_CALL_ID_PROFILE);
    const block = anthropic.toToolResultBlock({ ...timeout, callId: 'functions.Bash:0' }, { callIds });
    expect(block.tool_use_id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(block.tool_use_id).not.toBe('functions.Bash:0');
    const [call] = anthropic.parseToolCalls([{ type: 'tool_use', id: block.tool_use_id, name: 'x', input: {} }], {
      callIds,
    });
    expect(call?.id).toBe('functions.Bash:0');
  });

  it('imports the tool back (strict or not) into the same IR', () => {
    const definition = canonicalDefinition();
    for (const strict of [false, true]) {
      const [tool] = anthropic.toTools([definition], { strict });
      expect(anthropic.fromTool(tool as anthropic.AnthropicTool).parameters).toEqual(definition.parameters);
    }
  });
});

describe('Anthropic Messages: the seed commands', () => {
  it('encodes decision/propose and keeps minItems 2 (not strict) or moves it to the description (strict)', () => {
    const tools: Anthropic.Messages.Tool[] = anthropic.toTools(seedRegistry());
    expect(tools.map((tool) => tool.name)).toEqual(['decision_propose', 'get_calendar_events']);
    const options = (tools[0]?.input_schema.properties as Record<string, Record<string, unknown>>)['options'];
    expect(options?.['minItems']).toBe(2);
    expect(Object.keys(tools[0]?.input_schema.properties as object)).toEqual(['question', 'options']);
    const [strictPropose] = anthropic.toTools(seedRegistry(), { strict: true });
    const strictOptions = (strictPropose?.input_schema.properties as Record<string, Record<string, unknown>>)[
      'options'
    ];
    expect(strictOptions).not.toHaveProperty('minItems');
    expect(strictOptions?.['description']).toBe('The options to choose from (JSON Schema: {"minItems":2})');
  });

  it('assembles interleaved parallel tool_use blocks by index', () => {
    const accumulator = anthropic.createStreamAccumulator({ toolSet: anthropic.createToolSet(seedRegistry()) });
    const events: Anthropic.Messages.RawMessageStreamEvent[] = [
      {
        type: 'content_block_start',
        index: 0,
        content_block: {
          type: 'tool_use',
          id: 'toolu_a',
          name: 'decision_propose',
          input: {},
          caller: { type: 'direct' },
        },
      },
      {
        type: 'content_block_start',
        index: 1,
        content_block: {
          type: 'tool_use',
          id: 'toolu_b',
          name: 'get_calendar_events',
          input: {},
          caller: { type: 'direct' },
        },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"resolved_datetimes": []' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"question": "Q", ' },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"options": []}' } },
      { type: 'content_block_stop', index: 0 },
    ];
    const emitted = events
      .flatMap((event) => accumulator.push(event))
      .map((call) => [call.id, call.name, call.arguments]);
    expect(emitted).toEqual([
      ['toolu_b', 'get_calendar_events', '{"resolved_datetimes": []}'],
      ['toolu_a', 'decision/propose', '{"question": "Q", "options": []}'],
    ]);
  });

  it('gives a tool with no input deltas its empty input object', () => {
    const accumulator = anthropic.createStreamAccumulator();
    const start: Anthropic.Messages.RawMessageStreamEvent = {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_c', name: 'ping', input: {}, caller: { type: 'direct' } },
    };
    const stop: Anthropic.Messages.RawMessageStreamEvent = { type: 'content_block_stop', index: 0 };
    accumulator.push(start);
    expect(accumulator.push(stop)[0]?.arguments).toEqual({});
  });
});
