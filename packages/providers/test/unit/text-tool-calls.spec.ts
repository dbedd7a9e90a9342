import 'reflect-metadata';
import { definitionFromJsonSchema, DefinitionError } from '@toolwright/core';
import * as hermes from '@toolwright/providers/hermes';
import { createToolSet } from '@toolwright/providers/openai';
import { parseTextToolCalls as fromRoot } from '@toolwright/providers';
import {
  createTextToolCallParser,
  getTextDialects,
  parseTextToolCalls,
  type JsonSchemaTool,
} from '@toolwright/providers/text';

/** parseTextToolCalls on the cases the issue names: typing raw values, closing tags in values, reasoning, names. */
const TOOLS: JsonSchemaTool[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        metric: { type: 'boolean' },
        hours: { type: 'array', items: { type: 'integer' } },
        note: { type: ['string', 'null'] },
        code: { type: 'string' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        anything: {},
      },
    },
  },
  { name: 'math.factorial', description: 'n!', parameters: { type: 'object', properties: { n: { type: 'integer' } } } },
];
const read = (text: string) => parseTextToolCalls(text, { tools: TOOLS });
const qwen = (parameters: string) => `<tool_call>\n<function=get_weather>\n${parameters}</function>\n</tool_call>`;

describe('parseTextToolCalls', () => {
  it('is exported from the root and from /text', () => {
    expect(fromRoot).toBe(parseTextToolCalls);
    expect(getTextDialects()).toEqual(expect.arrayContaining(['hermes', 'qwen3-coder', 'pythonic', 'react', 'json']));
  });

  it('types raw XML values by the schema with the executor conversions; None and null are null', () => {
    const result = read(
      qwen(
        '<parameter=city>\n3\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n' +
          '<parameter=hours>\n[9, 12]\n</parameter>\n<parameter=note>\nNone\n</parameter>\n',
      ),
    );
    expect(result.rejected).toEqual([]);
    expect(result.calls).toEqual([
      {
        name: 'get_weather',
        arguments: { city: '3', days: 3, metric: true, hours: [9, 12], note: null },
        dialect: 'qwen3-coder',
      },
    ]);
  });

  it('keeps text no conversion reads, for the executor to refuse (never a guess)', () => {
    expect(read(qwen('<parameter=days>\nthree\n</parameter>\n')).calls[0]?.arguments).toEqual({ days: 'three' });
    expect(read(qwen('<parameter=days>\n2.5\n</parameter>\n')).calls[0]?.arguments).toEqual({ days: '2.5' });
  });

  it('refuses a raw value with two readings (string | integer, a parameter of any type)', () => {
    for (const parameter of ['either', 'anything']) {
      const result = read(qwen(`<parameter=${parameter}>\n3\n</parameter>\n`));
      expect(result.calls).toEqual([]);
      expect(result.rejected).toEqual([
        expect.objectContaining({
          dialect: 'qwen3-coder',
          name: 'get_weather',
          reason: expect.stringContaining(`"${parameter}"`),
        }),
      ]);
    }
    expect(read(qwen('<parameter=either>\nParis\n</parameter>\n')).calls[0]?.arguments).toEqual({ either: 'Paris' });
  });

  it('reads a value holding its own closing tag by the structure around it', () => {
    const code = 'print("</parameter>")\nx = "</function>"';
    const result = read(qwen(`<parameter=code>\n${code}\n</parameter>\n<parameter=days>\n2\n</parameter>\n`));
    expect(result.calls[0]?.arguments).toEqual({ code, days: 2 });
  });

  it('refuses a block followed by stray closing tags (two readings of where a value ends)', () => {
    const text = `${qwen('<parameter=code>\na\n</parameter>\n')}\nb\n</parameter>\n</function>\n</tool_call>`;
    const result = read(text);
    expect(result.calls).toEqual([]);
    expect(result.rejected[0]?.reason).toMatch(/two readings/);
  });

  it('keeps __proto__ an own key, never a prototype', () => {
    const [call] = read(qwen('<parameter=__proto__>\n{"polluted": true}\n</parameter>\n')).calls;
    expect(Object.getPrototypeOf(call?.arguments)).toBe(Object.prototype);
    expect(Object.hasOwn(call?.arguments ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('rejects cut-off calls and unknown names, with the reason; content is the rest', () => {
    const cut = read('Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Pa');
    expect(cut.calls).toEqual([]);
    expect(cut.rejected).toEqual([
      expect.objectContaining({
        dialect: 'hermes',
        name: 'get_weather',
        reason: expect.stringMatching(/cut-off|cut off/),
      }),
    ]);
    expect(cut.content).toBe('Checking.');
    const unknown = read('<tool_call>\n{"name": "get_wether", "arguments": {}}\n</tool_call>');
    expect(unknown.rejected[0]?.reason).toMatch(/no tool is named "get_wether"/);
  });

  it('never reads reasoning; content leaves it out', () => {
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>';
    for (const reasoning of [
      `<think>draft ${call}</think>`,
      `draft ${call}\n</think>`,
      `[THINK]draft ${call}[/THINK]`,
      `<|START_THINKING|>draft ${call}<|END_THINKING|>`,
      `<seed:think>draft ${call}</seed:think>`,
      `<|channel|>analysis<|message|>draft ${call}<|end|>`,
    ]) {
      const result = read(`${reasoning}\nIt is sunny.`);
      expect(result).toEqual({ calls: [], rejected: [], content: 'It is sunny.' });
    }
  });

  it('reads the reported Ollama texts: bare JSON with "arguments" and with "parameters"', () => {
    const tools: JsonSchemaTool[] = [
      { name: 'get_state', parameters: { type: 'object', properties: { entity: { type: 'string' } } } },
      { name: 'write_log', parameters: { type: 'object', properties: { message: { type: 'string' } } } },
    ];
    expect(
      parseTextToolCalls('{"name": "get_state", "arguments": {"entity": "light.kitchen"}}', { tools }).calls,
    ).toEqual([{ name: 'get_state', arguments: { entity: 'light.kitchen' }, dialect: 'json' }]);
    expect(parseTextToolCalls('{"name": "write_log", "parameters": {"message": "done"}}', { tools }).calls).toEqual([
      { name: 'write_log', arguments: { message: 'done' }, dialect: 'json' },
    ]);
  });

  it('reads Python literals in pythonic calls and refuses positional arguments', () => {
    const result = read(
      "[get_weather(city='Paris', metric=True, note=None, hours=(9, 12), anything={'a': [1, {'b': 'x'}]})]",
    );
    expect(result.calls[0]?.arguments).toEqual({
      city: 'Paris',
      metric: true,
      note: null,
      hours: [9, 12],
      anything: { a: [1, { b: 'x' }] },
    });
    const positional = read("[get_weather('Paris')]");
    expect(positional.calls).toEqual([]);
    expect(positional.rejected[0]?.reason).toMatch(/positional argument/);
  });

  it('matches names with the name codec of a provider tool set, a registry, or as written', () => {
    const definitions = TOOLS.map((tool) =>
      definitionFromJsonSchema({ name: tool.name, parameters: tool.parameters ?? {} }),
    );
    const toolSet = createToolSet(definitions);
    const text = '<tool_call>\n{"name": "math_factorial", "arguments": {"n": 5}}\n</tool_call>';
    expect(parseTextToolCalls(text, { tools: toolSet }).calls).toEqual([
      { name: 'math.factorial', arguments: { n: 5 }, dialect: 'hermes' },
    ]);
    expect(parseTextToolCalls(text, { tools: { list: () => definitions } }).calls[0]?.name).toBe('math.factorial');
    expect(read(text).calls[0]?.name).toBe('math.factorial');
  });

  it('reads only the forced dialect, and names the dialects when the forced one is unknown', () => {
    const text = '<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>';
    expect(parseTextToolCalls(text, { tools: TOOLS, dialect: 'pythonic' }).calls).toEqual([]);
    expect(parseTextToolCalls(text, { tools: TOOLS, dialect: 'hermes' }).calls).toHaveLength(1);
    expect(() => parseTextToolCalls(text, { tools: TOOLS, dialect: 'nope' })).toThrow(DefinitionError);
    expect(() => parseTextToolCalls(text, { tools: TOOLS, dialect: 'nope' })).toThrow(
      /use one of deepseek-v3, .*seed-oss, .*json,/,
    );
  });

  it("drops Command-R's directly_answer pseudo-tool unless the app has one", () => {
    const text = 'Action: ```json\n[{"tool_name": "directly_answer", "parameters": {}}]\n```';
    expect(read(text)).toEqual({ calls: [], rejected: [], content: '' });
  });

  it('streams: calls settle once a later complete block follows, the rest at end()', () => {
    const parser = createTextToolCallParser({ tools: TOOLS });
    const block = (city: string) =>
      `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>\n`;
    expect(parser.push('<think>plan</think>')).toEqual([]);
    expect(parser.push(block('Oslo'))).toEqual([]);
    // a later block only begun is not yet a block: it may still become anything
    expect(parser.push(block('Rome').slice(0, 15))).toEqual([]);
    expect(parser.push(block('Rome').slice(15))).toEqual([]);
    // the text is read again once enough has arrived (256 characters): the Oslo call is final, Rome's is the last
    expect(parser.push('Both requested. '.repeat(16))).toEqual([
      { name: 'get_weather', arguments: { city: 'Oslo' }, dialect: 'hermes' },
    ]);
    expect(parser.end().calls).toEqual([{ name: 'get_weather', arguments: { city: 'Rome' }, dialect: 'hermes' }]);
    expect(() => parser.push('x')).toThrow(DefinitionError);
  });

  it('hermes.parseToolCalls with a tool set reads the other dialects when there are no <tool_call> tags', () => {
    const definitions = TOOLS.map((tool) =>
      definitionFromJsonSchema({ name: tool.name, parameters: tool.parameters ?? {} }),
    );
    const toolSet = hermes.createToolSet(definitions);
    const ids = (index: number) => `call_${index}`;
    const text = `[TOOL_CALLS]${toolSet.codec.encode('math.factorial')}[ARGS]{"n": 5}`;
    expect(
      hermes.parseToolCalls(text, { toolSet, generateId: ids }).map((call) => [call.id, call.name, call.arguments]),
    ).toEqual([['call_0', 'math.factorial', { n: 5 }]]);
    expect(hermes.parseToolCalls(text, { toolSet, prose: false })).toEqual([]);
  });
});
