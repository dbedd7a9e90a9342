import 'reflect-metadata';
import type {
  ConverseResponse,
  ConverseStreamOutput,
  Message,
  Tool,
  ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import type { ToolResult } from '@toolwright/core';
import * as bedrock from '@toolwright/providers/bedrock';
import { CANONICAL_ARGUMENTS, CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('bedrock');
const callId = 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q';

describe('Bedrock Converse: the canonical tool', () => {
  it('is the reference toolConfig', () => {
    const configuration: ToolConfiguration = bedrock.toToolConfiguration([canonicalDefinition()]);
    expect(configuration).toEqual(fixture['toolConfiguration']);
  });

  it('parses toolUse blocks of the reference response', () => {
    const response = fixture['response'] as ConverseResponse;
    expect(bedrock.parseToolCalls(response)).toEqual([
      {
        id: callId,
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: CANONICAL_ARGUMENTS,
        transformations: [],
      },
    ]);
  });

  it('gives results back as toolResult blocks (json, status) and errors with status "error"', () => {
    const success: ToolResult = {
      callId,
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    };
    const message: Message = bedrock.toToolResultMessage(success);
    expect(message).toEqual(fixture['result']);
    const failure: ToolResult = {
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
    };
    const error: Message = bedrock.toToolResultMessage(failure);
    expect(error).toEqual(fixture['error']);
    const portable: Message = bedrock.toToolResultMessage(success, { content: 'text', status: false });
    expect(portable).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: callId, content: [{ text: JSON.stringify(CANONICAL_RESULT) }] } }],
    });
  });

  it('imports the tool back (strict or not) into the same IR', () => {
    const definition = canonicalDefinition();
    for (const strict of [false, true]) {
      const [tool] = bedrock.toTools([definition], { strict });
      expect(bedrock.fromTool(tool as bedrock.BedrockTool).parameters).toEqual(definition.parameters);
    }
  });
});

describe('Bedrock Converse: the seed commands and streaming', () => {
  it('encodes names, leaves an empty description out and applies the strict subset on request', () => {
    const tools: Tool[] = bedrock.toTools(seedRegistry(), { strict: true });
    const [propose] = bedrock.toTools(seedRegistry(), { strict: true });
    expect(tools).toHaveLength(2);
    expect(propose?.toolSpec.name).toBe('decision_propose');
    expect(propose?.toolSpec.strict).toBe(true);
    expect(
      (propose?.toolSpec.inputSchema.json['properties'] as Record<string, Record<string, unknown>>)['options']?.[
        'description'
      ],
    ).toBe('The options to choose from (JSON Schema: {"minItems":2})');
    const [bare] = bedrock.toTools([{ ...canonicalDefinition(), description: '' }]);
    expect(bare?.toolSpec).not.toHaveProperty('description');
  });

  it('assembles interleaved toolUse deltas per contentBlockIndex', () => {
    const accumulator = bedrock.createStreamAccumulator({ toolSet: bedrock.createToolSet(seedRegistry()) });
    const events: ConverseStreamOutput[] = [
      { messageStart: { role: 'assistant' } },
      {
        contentBlockStart: {
          contentBlockIndex: 1,
          start: { toolUse: { toolUseId: 'tooluse_a', name: 'decision_propose' } },
        },
      },
      {
        contentBlockStart: {
          contentBlockIndex: 2,
          start: { toolUse: { toolUseId: 'tooluse_b', name: 'get_calendar_events' } },
        },
      },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"question":"Q",' } } } },
      { contentBlockDelta: { contentBlockIndex: 2, delta: { toolUse: { input: '{"resolved_datetimes":[]}' } } } },
      { contentBlockStop: { contentBlockIndex: 2 } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '"options":[]}' } } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { messageStop: { stopReason: 'tool_use' } },
    ];
    const emitted = events
      .flatMap((event) => accumulator.push(event))
      .map((call) => [call.id, call.name, call.arguments]);
    expect(emitted).toEqual([
      ['tooluse_b', 'get_calendar_events', '{"resolved_datetimes":[]}'],
      ['tooluse_a', 'decision/propose', '{"question":"Q","options":[]}'],
    ]);
  });
});
