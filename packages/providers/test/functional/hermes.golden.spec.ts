import 'reflect-metadata';
import type { ToolResult } from '@toolwright/core';
import * as hermes from '@toolwright/providers/hermes';
import { CANONICAL_ARGUMENTS, CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('hermes');
const ids = (index: number): string => `toolwright_call_test_${index}`;

describe('Qwen/Hermes: the canonical tool', () => {
  it('renders the tools section of the Qwen template (one tojson line per tool)', () => {
    const prompt = hermes.renderToolsPrompt(hermes.toTools([canonicalDefinition()]), {
      systemPrompt: 'You are a scheduling assistant.',
    });
    expect(prompt).toBe(
      'You are a scheduling assistant.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
        'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
        '{"type": "function", "function": {"name": "get_calendar_events", "description": "List events from the user\'s calendar, optionally restricted to specific resolved date-times.", "parameters": {"type": "object", "properties": {"resolved_datetimes": {"type": "array", "description": "ISO 8601 date-times (RFC 3339) already resolved from the user\'s request.", "items": {"type": "string", "format": "date-time"}}, "calendar": {"type": "string", "description": "Which calendar to read.", "enum": ["work", "personal"]}, "max_results": {"type": "integer", "description": "Maximum number of events to return (1-50). Defaults to 10.", "minimum": 1, "maximum": 50, "default": 10}, "include_declined": {"type": "boolean", "description": "Whether to include events the user declined."}}, "required": ["calendar"], "additionalProperties": false}}}\n' +
        '</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
    );
    expect(hermes.renderToolsPrompt(hermes.toTools([canonicalDefinition()]), { flavor: 'hermes' })).toMatch(
      /^You are a function calling AI model\./,
    );
  });

  it('parses the reference completion (end-of-turn marker tolerated) with a generated id', () => {
    expect(hermes.parseToolCalls(fixture['completion'], { generateId: ids })).toEqual([
      {
        id: 'toolwright_call_test_0',
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: CANONICAL_ARGUMENTS,
        transformations: [],
      },
    ]);
  });

  it("parses Qwen3-Coder's <function=...><parameter=...> form, coercing raw values with the schema", () => {
    const toolSet = hermes.createToolSet([canonicalDefinition()]);
    const [call] = hermes.parseToolCalls(fixture['coder'], { toolSet, generateId: ids });
    expect(call?.arguments).toEqual({ calendar: 'work', max_results: 5 });
    // Without the schema every value stays text, for the executor to coerce.
    expect(hermes.parseToolCalls(fixture['coder'])[0]?.arguments).toEqual({ calendar: 'work', max_results: '5' });
  });

  it('gives results back in <tool_response> (Qwen: one user turn; Hermes: tool turns)', () => {
    const results: ToolResult[] = [
      {
        callId: ids(0),
        tool: 'get_calendar_events',
        ok: true,
        value: CANONICAL_RESULT,
        transformations: [],
        durationMs: 1,
      },
      {
        callId: ids(1),
        tool: 'get_calendar_events',
        ok: false,
        error: { code: 'TIMEOUT', message: 'Calendar API timed out; retry later.', issues: [], retryable: true },
        transformations: [],
        durationMs: 1,
      },
    ];
    expect(hermes.toToolResultMessage(results[0] as ToolResult)).toEqual({ role: 'user', content: fixture['result'] });
    expect(hermes.toToolResultMessages(results)).toEqual([
      {
        role: 'user',
        content: `${fixture['result']}\n<tool_response>\n{"error":{"code":"TIMEOUT","message":"Calendar API timed out; retry later.","retryable":true}}\n</tool_response>`,
      },
    ]);
    expect(hermes.toToolResultMessages(results, { flavor: 'hermes' }).map((message) => message.role)).toEqual([
      'tool',
      'tool',
    ]);
  });
});

describe('Qwen/Hermes: parsing model text', () => {
  const toolSet = hermes.createToolSet(seedRegistry());

  it('reads parallel calls in order and decodes names', () => {
    const text =
      '<tool_call>\n{"name": "decision_propose", "arguments": {"question": "Lunch?", "options": [{"label": "Pizza", "description": "Fast"}, {"label": "Sushi", "description": "Fresh"}]}}\n</tool_call>\n' +
      '<tool_call>\n{"name": "get_calendar_events", "arguments": "{\\"resolved_datetimes\\": [\\"2026-11-23T09:00:00Z\\"]}"}\n</tool_call>';
    const calls = hermes.parseToolCalls(text, { toolSet, generateId: ids });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['toolwright_call_test_0', 'decision/propose'],
      ['toolwright_call_test_1', 'get_calendar_events'],
    ]);
    // arguments given as a JSON string stay text for the executor.
    expect(calls[1]?.arguments).toBe('{"resolved_datetimes": ["2026-11-23T09:00:00Z"]}');
  });

  it('ignores calls inside <think> and accepts a missing closing tag at the end', () => {
    const text =
      '<think>Maybe <tool_call>{"name": "decision_propose", "arguments": {}}</tool_call>? No.</think>\n' +
      'Sure.\n<tool_call>\n{"name": "get_calendar_events", "arguments": {"resolved_datetimes": []}}';
    const calls = hermes.parseToolCalls(text, { toolSet });
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['get_calendar_events', { resolved_datetimes: [] }],
    ]);
  });

  it('reads calls written in prose or a fenced block, only for names of the tool set', () => {
    const text =
      'I will call the tool now: {"name": "get_calendar_events", "arguments": {"resolved_datetimes": []}} and also\n```json\n{"name": "unknown_tool", "arguments": {}}\n```\n' +
      'and {"name": "decision_propose", "parameters": {"question": "Q"}}.';
    expect(hermes.parseToolCalls(text, { toolSet }).map((call) => call.name)).toEqual([
      'get_calendar_events',
      'decision/propose',
    ]);
    expect(hermes.parseToolCalls(text).map((call) => call.name)).toEqual([
      'get_calendar_events',
      'unknown_tool',
      'decision_propose',
    ]);
    expect(hermes.parseToolCalls(text, { toolSet, prose: false })).toEqual([]);
    expect(hermes.parseToolCalls('No tools needed: {"answer": 42}.')).toEqual([]);
  });

  it('hands invalid JSON (Python literals) to the executor as text instead of dropping the call', () => {
    const [call] = hermes.parseToolCalls(
      "<tool_call>{'name': 'get_calendar_events', 'arguments': {'resolved_datetimes': [], 'include_declined': True}}</tool_call>",
    );
    expect(call?.name).toBe('get_calendar_events');
    expect(call?.arguments).toBe("{'resolved_datetimes': [], 'include_declined': True}");
  });
});

describe('Qwen/Hermes streaming', () => {
  it('returns each call when its closing tag arrives, across split tags, and skips thinking', () => {
    const accumulator = hermes.createStreamAccumulator({ generateId: ids });
    const deltas = [
      '<think>I could <tool_',
      'call>{"name":"x","arguments":{}}</tool_call></think>Ok. <tool',
      '_call>\n{"name": "get_calendar_events", ',
      '"arguments": {"calendar": "work"}}\n</tool_',
      'call>\n<tool_call>{"name": "second", "arguments": {}}',
    ];
    const emitted = deltas.map((delta) => accumulator.push(delta).map((call) => call.name));
    expect(emitted).toEqual([[], [], [], [], ['get_calendar_events']]);
    expect(accumulator.pending).toBe(1);
    const last = accumulator.finish();
    expect(last.map((call) => [call.id, call.name])).toEqual([['toolwright_call_test_1', 'second']]);
  });
});
