import 'reflect-metadata';
import type { ChatResponse, Message, Tool } from 'ollama';
import type { ToolResult } from '@toolwright/core';
import * as ollama from '@toolwright/providers/ollama';
import { CANONICAL_ARGUMENTS, CANONICAL_RESULT, CANONICAL_SCHEMA, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('ollama');

describe('Ollama: the canonical tool', () => {
  it('keeps only what the server decodes and folds the rest into descriptions', () => {
    const tools: Tool[] = ollama.toTools([canonicalDefinition()]);
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
                items: { type: 'string', description: '(JSON Schema: {"format":"date-time"})' },
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
          },
        },
      },
    ]);
  });

  it('sends the canonical schema unchanged with lowering: none', () => {
    expect(ollama.toTools([canonicalDefinition()], { lowering: 'none' })[0]?.function.parameters).toEqual(
      CANONICAL_SCHEMA,
    );
  });

  it('parses the reference response (object arguments, the server id read as an extra property)', () => {
    const response = fixture['response'] as ChatResponse;
    expect(ollama.parseToolCalls(response)).toEqual([
      {
        id: 'call_k3x9q2ab',
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: CANONICAL_ARGUMENTS,
        transformations: [],
      },
    ]);
  });

  it('gives results back as tool messages with tool_name and tool_call_id', () => {
    const result: ToolResult = {
      callId: 'call_k3x9q2ab',
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    };
    const message: Message = ollama.toToolResultMessage(result);
    expect(message).toEqual(fixture['result']);
  });

  it('imports the lowered tool back into the same IR', () => {
    const definition = canonicalDefinition();
    const [tool] = ollama.toTools([definition]);
    expect(ollama.fromTool(tool as ollama.OllamaTool).parameters).toEqual(definition.parameters);
  });
});

describe('Ollama: the seed commands', () => {
  it('encodes names, generates ids for calls from older servers and leaves them out of results', () => {
    const toolSet = ollama.createToolSet(seedRegistry());
    const tools: Tool[] = toolSet.tools;
    expect(tools.map((tool) => tool.function.name)).toEqual(['decision_propose', 'get_calendar_events']);
    const options = (tools[0]?.function.parameters?.properties as Record<string, { description?: string }>)['options'];
    expect(options?.description).toBe('The options to choose from (JSON Schema: {"minItems":2})');
    const response: ChatResponse = {
      model: 'qwen3',
      created_at: new Date(0),
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'decision_propose', arguments: { question: 'Q', options: [] } } }],
      },
      done: true,
      done_reason: 'stop',
      total_duration: 0,
      load_duration: 0,
      prompt_eval_count: 0,
      prompt_eval_duration: 0,
      eval_count: 0,
      eval_duration: 0,
    };
    const [call] = ollama.parseToolCalls(response, { toolSet });
    expect(call?.name).toBe('decision/propose');
    expect(call?.id).toMatch(/^toolwright_call_[0-9A-Za-z]{8}_0$/);
    const message: Message = ollama.toToolResultMessage(
      { callId: call?.id ?? '', tool: 'decision/propose', ok: true, value: 'ok', transformations: [], durationMs: 0 },
      { toolSet },
    );
    expect(message).toEqual({ role: 'tool', tool_name: 'decision_propose', content: 'ok' });
  });

  it('returns the whole calls of each stream chunk', () => {
    const accumulator = ollama.createStreamAccumulator();
    expect(accumulator.push({ message: { role: 'assistant', content: 'thinking…' } })).toEqual([]);
    expect(accumulator.push(fixture['response']).map((call) => call.id)).toEqual(['call_k3x9q2ab']);
    expect(accumulator.finish()).toEqual([]);
  });
});
