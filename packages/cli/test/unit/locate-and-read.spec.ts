import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger } from '@toolwright/core';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
import { reportCall } from '../../src/calls/call-report';
import { locateTransformation, pathSegments } from '../../src/calls/locate';
import { readCall } from '../../src/calls/read-call';
import { CliError } from '../../src/errors/cli-error';
import { splitCommandLine } from '../../src/source/load-mcp';
import { contextFromJson, parseContext, parseProviders } from '../../src/source/tools';

const registry = createPersonaRegistry({ logger: silentLogger });

describe('locating transformations in the text the model sent', () => {
  it('splits paths into keys and indices', () => {
    expect(pathSegments('options[1].label')).toEqual(['options', 1, 'label']);
    expect(pathSegments('')).toEqual([]);
  });

  it('places key renames, value changes under renamed keys, dropped keys and wrappers; the rest is the name, the whole text or nowhere', async () => {
    const text =
      '```json\n{"Resolved-Datetimes": "2026-11-23T09:00:00+01:00", "max_results": "7", "job_id": "x", "extra": true}\n```';
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const report = await reportCall(executor, { id: 'c', name: 'functions.get_calendar_events', arguments: text });
    const placed = report.transformations.map((transformation) => [
      transformation.rule,
      transformation.target.kind === 'span'
        ? text.slice(transformation.target.start, transformation.target.end)
        : transformation.target.kind,
    ]);
    expect(placed).toEqual([
      ['tool-name-prefix', 'name'],
      ['fenced-block', '```json\n'],
      ['key-case', '"Resolved-Datetimes"'],
      ['single-to-array', '"2026-11-23T09:00:00+01:00"'],
      ['string-to-integer', '"7"'],
      ['dropped-context-field', '"job_id"'],
      ['dropped-unknown-key', '"extra"'],
    ]);
  });

  it('finds a key inside a double-encoded value (escaped quotes)', async () => {
    const text = JSON.stringify({
      question: 'Which plan?',
      options: JSON.stringify([
        { label: 'Cheap', description: 'Low cost', proposed_by: 'Ana' },
        { label: 'Fast', description: 'This week' },
      ]),
    });
    const executor = new PersonaToolExecutor(registry, { logger: silentLogger });
    const report = await reportCall(executor, { id: 'c', name: 'decision/propose', arguments: text });
    const placed = report.transformations.map((transformation) => [
      transformation.rule,
      transformation.target.kind === 'span'
        ? text.slice(transformation.target.start, transformation.target.end)
        : transformation.target.kind,
    ]);
    expect(placed).toEqual([
      ['json-string-to-array', expect.stringMatching(/^"\[\{.*\}\]"$/)],
      ['key-case', '\\"proposed_by\\"'],
    ]);
  });

  it('a value added from the context is not in the text', () => {
    expect(
      locateTransformation('{}', { path: 'title', rule: 'extracted-title', from: undefined, to: 'Quarterly results' }),
    ).toEqual({ kind: 'none' });
    expect(
      locateTransformation('{"a": 1}', { path: '', rule: 'double-encoded-json', from: '"{\\"a\\": 1}"', to: { a: 1 } }),
    ).toEqual({ kind: 'text' });
  });
});

describe('reading a raw model call in any provider shape', () => {
  const argumentsText = '{"resolved_datetimes": ["2026-11-23T09:00:00+01:00"]}';

  it.each([
    [
      'openai',
      {
        choices: [
          {
            message: {
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'decision_propose', arguments: argumentsText } },
              ],
            },
          },
        ],
      },
      'decision/propose',
    ],
    [
      'openai-responses',
      { output: [{ type: 'function_call', call_id: 'call_1', name: 'get_calendar_events', arguments: argumentsText }] },
      'get_calendar_events',
    ],
    [
      'anthropic',
      {
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_calendar_events', input: {} },
        ],
      },
      'get_calendar_events',
    ],
    [
      'gemini',
      { candidates: [{ content: { parts: [{ functionCall: { name: 'get_calendar_events', args: {} } }] } }] },
      'get_calendar_events',
    ],
    [
      'bedrock',
      { output: { message: { content: [{ toolUse: { toolUseId: 't1', name: 'get_calendar_events', input: {} } }] } } },
      'get_calendar_events',
    ],
    [
      'mcp',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_calendar_events', arguments: {} } },
      'get_calendar_events',
    ],
  ])('detects %s and decodes the name with its codec', (shape, input, name) => {
    const read = readCall(JSON.stringify(input), { registry });
    expect(read.shape).toBe(shape);
    expect(read.call.name).toBe(name);
  });

  it('detects Qwen/Hermes text, falls back to bare arguments for the chosen tool, and says what is missing otherwise', () => {
    const hermes = readCall(
      `<tool_call>\n{"name": "get_calendar_events", "arguments": ${argumentsText}}\n</tool_call>`,
      { registry },
    );
    expect(hermes.shape).toBe('hermes');
    expect(hermes.call.name).toBe('get_calendar_events');
    const bare = readCall("{'resolved_datetimes': 'x'}", { registry, tool: 'get_calendar_events' });
    expect(bare).toEqual({
      shape: 'arguments',
      call: { id: 'call_inspect_1', name: 'get_calendar_events', arguments: "{'resolved_datetimes': 'x'}" },
      found: 1,
    });
    expect(() => readCall('not a call', { registry })).toThrow(/not a tool call in any provider's shape/);
    expect(() => readCall('{}', { registry, shape: 'anthropic' })).toThrow('No anthropic tool call found in the input');
  });
});

describe('command-line values', () => {
  it('splits an MCP server command line like a shell, without running one', () => {
    expect(splitCommandLine(`node "my server.js" --flag 'a b'`)).toEqual({
      command: 'node',
      args: ['my server.js', '--flag', 'a b'],
    });
    expect(() => splitCommandLine('node server.js && rm -rf x')).toThrow(CliError);
    expect(() => splitCommandLine('   ')).toThrow('the command line is empty');
  });

  it('reads --context as a checked ExecutionContext', () => {
    expect(parseContext('{"sessionId": "s-1", "now": "2026-11-21T10:00:00Z"}')).toEqual({
      sessionId: 's-1',
      now: new Date('2026-11-21T10:00:00Z'),
    });
    expect(() => parseContext('[1]')).toThrow('must be a JSON object, got an array');
    expect(() => parseContext('{"sessionId": 42}')).toThrow('"sessionId" must be a string, got 42');
    expect(() => parseContext('{"now": "tomorrow"}')).toThrow('"now" must be an ISO-8601 date-time string');
    const polluted = contextFromJson(JSON.parse('{"__proto__": {"polluted": true}, "jobId": "j"}'));
    expect(polluted.jobId).toBe('j');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reads --provider lists', () => {
    expect(parseProviders('openai, gemini')).toEqual(['openai', 'gemini']);
    expect(parseProviders(undefined)).toHaveLength(10);
    expect(() => parseProviders('openai,gpt')).toThrow('unknown provider "gpt"');
  });
});
