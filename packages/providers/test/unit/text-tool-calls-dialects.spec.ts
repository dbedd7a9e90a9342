import 'reflect-metadata';
import {
  createTextToolCallParser,
  getTextDialects,
  parseTextToolCalls,
  type JsonSchemaTool,
} from '@toolwright/providers/text';

/**
 * The dialects of DeepSeek V3 / V3.1 / V3.2, Kimi K2, GLM-4.5, gpt-oss, InternLM2, Command R7B, Step-3, Hunyuan,
 * FunctionGemma, LongCat, Apertus and OLMo 3, on the examples of their reference parsers' tests and docstrings
 * (vLLM `tests/tool_parsers/*`, SGLang `function_call/*_detector.py`) and chat templates: the call read as written,
 * several calls, a cut-off call rejected (never completed), a closing tag inside a value, and texts that are not calls.
 */
const string = { type: 'string' };
const TOOLS: JsonSchemaTool[] = [
  {
    name: 'get_current_weather',
    description: 'Weather for a place',
    parameters: { type: 'object', properties: { location: string, unit: string, city: string, state: string } },
  },
  {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: {
        city: string,
        date: string,
        days: { type: 'integer' },
        metric: { type: 'boolean' },
        hours: { type: 'array', items: { type: 'integer' } },
        note: { type: ['string', 'null'] },
      },
    },
  },
  { name: 'get_time', description: 'Time in a zone', parameters: { type: 'object', properties: { timezone: string } } },
  {
    name: 'get_favorite_tourist_spot',
    description: 'A spot',
    parameters: { type: 'object', properties: { city: string } },
  },
  {
    name: 'get_current_temperature',
    description: 'Temperature',
    parameters: { type: 'object', properties: { location: string, unit: string } },
  },
  {
    name: 'test_function',
    description: 'Values of every type',
    parameters: {
      type: 'object',
      properties: {
        string_field: string,
        int_field: { type: 'integer' },
        float_field: { type: 'number' },
        bool_field: { type: 'boolean' },
        null_field: { type: ['string', 'null'] },
        array_field: { type: 'array' },
        object_field: { type: 'object' },
        quoted: string,
        path: string,
        newline: string,
      },
    },
  },
  { name: 'refresh', description: 'No parameters', parameters: { type: 'object', properties: {} } },
];
const read = (text: string) => parseTextToolCalls(text, { tools: TOOLS });
const call = (dialect: string, name: string, args: Record<string, unknown>) => ({ name, arguments: args, dialect });

/** Each dialect: a text as the model writes it, the calls in it, and a place inside the first call to cut it. */
const EXAMPLES: readonly {
  readonly dialect: string;
  readonly text: string;
  readonly calls: readonly ReturnType<typeof call>[];
  readonly content: string;
  readonly cutAfter: string;
}[] = [
  {
    dialect: 'deepseek-v3',
    text:
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_current_weather\n```json\n{"location": "Tokyo"}\n```<｜tool▁call▁end｜>\n' +
      '<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_current_weather\n```json\n{"location": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [
      call('deepseek-v3', 'get_current_weather', { location: 'Tokyo' }),
      call('deepseek-v3', 'get_current_weather', { location: 'Paris' }),
    ],
    content: '',
    cutAfter: '"Tok',
  },
  {
    dialect: 'deepseek-v3.1',
    text:
      'Let me look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_current_weather<｜tool▁sep｜>{"location": "Tokyo"}<｜tool▁call▁end｜>' +
      '<｜tool▁call▁begin｜>get_current_weather<｜tool▁sep｜>{"location": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [
      call('deepseek-v3.1', 'get_current_weather', { location: 'Tokyo' }),
      call('deepseek-v3.1', 'get_current_weather', { location: 'Paris' }),
    ],
    content: 'Let me look.',
    cutAfter: '"Tok',
  },
  {
    dialect: 'deepseek-v3.2',
    text:
      '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_favorite_tourist_spot">\n' +
      '<｜DSML｜parameter name="city" string="true">San Francisco</｜DSML｜parameter>\n</｜DSML｜invoke>\n' +
      '<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">3</｜DSML｜parameter>\n' +
      '<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>\n' +
      '<｜DSML｜parameter name="hours" string="false">[9, 12]</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    calls: [
      call('deepseek-v3.2', 'get_favorite_tourist_spot', { city: 'San Francisco' }),
      call('deepseek-v3.2', 'get_weather', { city: '3', days: 3, hours: [9, 12] }),
    ],
    content: '',
    cutAfter: 'San Fr',
  },
  {
    dialect: 'kimi-k2',
    text:
      'I will check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|>' +
      '<|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{"timezone": "Asia/Shanghai"}<|tool_call_end|><|tool_calls_section_end|>',
    calls: [
      call('kimi-k2', 'get_weather', { city: 'Beijing' }),
      call('kimi-k2', 'get_time', { timezone: 'Asia/Shanghai' }),
    ],
    content: 'I will check.',
    cutAfter: '"Bei',
  },
  {
    dialect: 'glm-4.5',
    text:
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>北京</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2024-06-27</arg_value>\n' +
      '<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n<tool_call>get_time<arg_key>timezone</arg_key><arg_value>Asia/Shanghai</arg_value></tool_call>',
    calls: [
      call('glm-4.5', 'get_weather', { city: '北京', date: '2024-06-27', days: 3 }),
      call('glm-4.5', 'get_time', { timezone: 'Asia/Shanghai' }),
    ],
    content: '',
    cutAfter: '2024-0',
  },
  {
    dialect: 'gpt-oss',
    text:
      '<|channel|>analysis<|message|>User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.<|end|>' +
      '<|start|>assistant<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{"location": "Tokyo"}<|call|>' +
      '<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{\n"timezone": "Asia/Tokyo"\n}<|call|>' +
      '<|start|>assistant<|channel|>commentary to=functions.refresh <|constrain|>json<|message|><|call|>',
    calls: [
      call('gpt-oss', 'get_current_weather', { location: 'Tokyo' }),
      call('gpt-oss', 'get_time', { timezone: 'Asia/Tokyo' }),
      call('gpt-oss', 'refresh', {}),
    ],
    content: '',
    cutAfter: '"Tok',
  },
  {
    dialect: 'internlm2',
    text:
      "What's the weather like?<|action_start|> <|plugin|>\n" +
      '{"name": "get_current_weather", "parameters": {"location": "Tokyo"}}<|action_end|>\n' +
      '<|action_start|><|plugin|>\n{"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}<|action_end|>',
    calls: [
      call('internlm2', 'get_current_weather', { location: 'Tokyo' }),
      call('internlm2', 'get_time', { timezone: 'Asia/Tokyo' }),
    ],
    content: "What's the weather like?",
    cutAfter: '"Tok',
  },
  {
    dialect: 'command-r7b',
    text:
      '<|START_THINKING|>I will look up the weather, then the time.<|END_THINKING|><|START_ACTION|>[\n' +
      '    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Toronto"}},\n' +
      '    {"tool_call_id": "1", "tool_name": "get_time", "parameters": {"timezone": "America/Toronto"}}\n]<|END_ACTION|>',
    calls: [
      call('command-r7b', 'get_weather', { city: 'Toronto' }),
      call('command-r7b', 'get_time', { timezone: 'America/Toronto' }),
    ],
    content: '',
    cutAfter: '"Toro',
  },
  {
    dialect: 'step3',
    text:
      'Let me check the weather for you.\n\n<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="test_function">' +
      '<steptml:parameter name="string_field">hello</steptml:parameter><steptml:parameter name="int_field">42</steptml:parameter>' +
      '<steptml:parameter name="float_field">3.14</steptml:parameter><steptml:parameter name="bool_field">true</steptml:parameter>' +
      '<steptml:parameter name="null_field">null</steptml:parameter><steptml:parameter name="array_field">["a", "b", "c"]</steptml:parameter>' +
      '<steptml:parameter name="object_field">{"nested": "value"}</steptml:parameter></steptml:invoke><｜tool_call_end｜>\n' +
      '<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="test_function"><steptml:parameter name="quoted">He said "hello"</steptml:parameter>' +
      '<steptml:parameter name="path">C:\\Users\\file.txt</steptml:parameter><steptml:parameter name="newline">line1\nline2 </steptml:parameter>' +
      "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>\n\nI'll get that information.",
    calls: [
      call('step3', 'test_function', {
        string_field: 'hello',
        int_field: 42,
        float_field: 3.14,
        bool_field: true,
        null_field: null,
        array_field: ['a', 'b', 'c'],
        object_field: { nested: 'value' },
      }),
      call('step3', 'test_function', {
        quoted: 'He said "hello"',
        path: 'C:\\Users\\file.txt',
        newline: 'line1\nline2 ',
      }),
    ],
    content: "Let me check the weather for you.\n\nI'll get that information.",
    cutAfter: 'hel',
  },
  {
    dialect: 'hunyuan',
    text:
      '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Shenzhen</arg_value>\n' +
      '<arg_key>metric</arg_key>\n<arg_value>true</arg_value>\n</tool_call>\n' +
      '<tool_call>get_time<tool_sep>\n<arg_key>timezone</arg_key>\n<arg_value>Asia/Shanghai</arg_value>\n</tool_call>\n</tool_calls>',
    calls: [
      call('hunyuan', 'get_weather', { city: 'Shenzhen', metric: true }),
      call('hunyuan', 'get_time', { timezone: 'Asia/Shanghai' }),
    ],
    content: '',
    cutAfter: 'Shen',
  },
  {
    dialect: 'functiongemma',
    text:
      '<start_function_call>call:get_current_temperature{location:<escape>Paris<escape>,unit:<escape>celsius<escape>}<end_function_call>' +
      '<start_function_call>call:get_weather{city:<escape>Paris, "FR" {x}<escape>,days:3,metric:false,hours:[9,12],note:null}<end_function_call>',
    calls: [
      call('functiongemma', 'get_current_temperature', { location: 'Paris', unit: 'celsius' }),
      call('functiongemma', 'get_weather', {
        city: 'Paris, "FR" {x}',
        days: 3,
        metric: false,
        hours: [9, 12],
        note: null,
      }),
    ],
    content: '',
    cutAfter: 'Par',
  },
  {
    dialect: 'longcat',
    text:
      '<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Beijing"}}\n</longcat_tool_call>' +
      '<longcat_tool_call>\n{"name": "get_time", "arguments": {"timezone": "Asia/Shanghai"}}\n</longcat_tool_call>',
    calls: [
      call('longcat', 'get_weather', { city: 'Beijing' }),
      call('longcat', 'get_time', { timezone: 'Asia/Shanghai' }),
    ],
    content: '',
    cutAfter: '"Bei',
  },
  {
    dialect: 'apertus',
    text: 'Sure.<|tools_prefix|>[{"get_weather": {"city": "Zurich", "days": 2}}, {"get_time": {"timezone": "Europe/Zurich"}}]<|tools_suffix|>',
    calls: [
      call('apertus', 'get_weather', { city: 'Zurich', days: 2 }),
      call('apertus', 'get_time', { timezone: 'Europe/Zurich' }),
    ],
    content: 'Sure.',
    cutAfter: '"Zur',
  },
  {
    dialect: 'olmo3',
    text: '<function_calls>\nget_weather(city="San Francisco", metric=true, note=null)\nget_time(timezone=\'America/Los_Angeles\')\n</function_calls>',
    calls: [
      call('olmo3', 'get_weather', { city: 'San Francisco', metric: true, note: null }),
      call('olmo3', 'get_time', { timezone: 'America/Los_Angeles' }),
    ],
    content: '',
    cutAfter: 'San Fr',
  },
];

describe('the text dialects of DeepSeek, Kimi, GLM, gpt-oss, InternLM2, Command R7B, Step-3, Hunyuan, FunctionGemma, LongCat, Apertus and OLMo 3', () => {
  it('are registered: 32 dialects in all', () => {
    expect(getTextDialects()).toEqual(expect.arrayContaining(EXAMPLES.map((example) => example.dialect)));
    expect(getTextDialects()).toHaveLength(32);
  });

  it.each(EXAMPLES.map((example) => [example.dialect, example] as const))(
    '%s: reads several calls as written, the rest is content',
    (_dialect, example) => {
      const result = read(example.text);
      expect(result.rejected).toEqual([]);
      expect(result.calls).toEqual(example.calls);
      expect(result.content).toBe(example.content);
    },
  );

  it.each(EXAMPLES.map((example) => [example.dialect, example] as const))(
    '%s: the same calls forced, and streamed one character at a time',
    (_dialect, example) => {
      expect(parseTextToolCalls(example.text, { tools: TOOLS, dialect: example.dialect }).calls).toEqual(example.calls);
      const parser = createTextToolCallParser({ tools: TOOLS });
      const early = [...example.text].flatMap((character) => parser.push(character));
      expect([...early, ...parser.end().calls]).toEqual(example.calls);
    },
  );

  it.each(EXAMPLES.map((example) => [example.dialect, example] as const))(
    '%s: a call cut off inside a value is rejected, never completed',
    (_dialect, example) => {
      const text = example.text.slice(0, example.text.indexOf(example.cutAfter) + example.cutAfter.length);
      const result = read(text);
      expect(result.calls).toEqual([]);
      expect(result.rejected).toEqual([
        expect.objectContaining({ reason: expect.stringMatching(/cut off|ends before/) }),
      ]);
    },
  );

  it.each(EXAMPLES.map((example) => [example.dialect, example] as const))(
    '%s: a call to a tool that is not offered is rejected with the known names',
    (_dialect, example) => {
      const result = parseTextToolCalls(example.text, {
        tools: TOOLS.filter((tool) => tool.name !== example.calls[0]?.name),
      });
      expect(result.calls.map((found) => found.name)).not.toContain(example.calls[0]?.name);
      expect(result.rejected).toContainEqual(
        expect.objectContaining({ dialect: example.dialect, reason: expect.stringContaining('no tool is named') }),
      );
    },
  );
});

describe('XML-style values of GLM-4.5, Hunyuan, Step-3 and DeepSeek V3.2', () => {
  it('reads a value holding its own closing tag by the structure around it', () => {
    const glm = read(
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>a</arg_value> b</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>',
    );
    expect(glm.calls).toEqual([call('glm-4.5', 'get_weather', { city: 'a</arg_value> b', days: 2 })]);
    const step3 = read(
      '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="get_weather"><steptml:parameter name="city">x</steptml:parameter>y</steptml:parameter>' +
        '</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
    );
    expect(step3.calls).toEqual([call('step3', 'get_weather', { city: 'x</steptml:parameter>y' })]);
    const dsml = read(
      '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">a</｜DSML｜parameter>b</｜DSML｜parameter>\n' +
        '</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    );
    expect(dsml.calls).toEqual([call('deepseek-v3.2', 'get_weather', { city: 'a</｜DSML｜parameter>b' })]);
  });

  it('refuses a call followed by a stray closing tag (two readings of where a value ends)', () => {
    const result = read(
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>a</arg_value>\n</tool_call> b</arg_value>\n</tool_call>',
    );
    expect(result.calls).toEqual([]);
    expect(result.rejected).toEqual([
      expect.objectContaining({ dialect: 'glm-4.5', reason: expect.stringContaining('stray </arg_value>') }),
    ]);
  });

  it('types raw values by the schema and refuses two readings; DSML values carry their own type', () => {
    expect(
      read(
        '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>3</arg_value>\n<arg_key>note</arg_key>\n<arg_value>None</arg_value>\n</tool_call>',
      ).calls,
    ).toEqual([call('glm-4.5', 'get_weather', { city: '3', note: null })]);
    const dsml = read(
      '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="days" string="false">three</｜DSML｜parameter>\n' +
        '</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    );
    expect(dsml.calls).toEqual([]);
    expect(dsml.rejected).toEqual([
      expect.objectContaining({ dialect: 'deepseek-v3.2', reason: expect.stringContaining('string="false"') }),
    ]);
  });

  it('keeps the whitespace of inline values (Step-3, GLM), where a template writes none', () => {
    expect(
      read('<tool_call>get_weather<arg_key>city</arg_key><arg_value>    if x:\n</arg_value></tool_call>').calls,
    ).toEqual([call('glm-4.5', 'get_weather', { city: '    if x:\n' })]);
  });
});

describe('what these dialects do not read', () => {
  it.each([
    ['prose naming the markers', 'Wrap each call in <tool_call> tags, or <|tool_calls_section_begin|> for Kimi.'],
    ['a GLM-style example without a name line', 'The format is <tool_call>\n<arg_key>'],
    [
      'OLMo 3 and Claude XML share <function_calls>: prose inside is neither',
      '<function_calls> are listed here </function_calls>',
    ],
    ['a harmony final answer', '<|channel|>final<|message|>The weather is sunny.<|return|>'],
    [
      'FunctionGemma declarations',
      '<start_function_declaration>declaration:get_weather{description:<escape>x<escape>}<end_function_declaration>',
    ],
  ])('%s: no call, nothing rejected', (_label, text) => {
    const result = read(text);
    expect(result.calls).toEqual([]);
    expect(result.rejected).toEqual([]);
  });

  it('a gpt-oss call addressed from the analysis channel is reasoning: rejected, never read', () => {
    const result = read(
      '<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
    );
    expect(result.calls).toEqual([]);
    expect(result.rejected).toEqual([
      expect.objectContaining({ dialect: 'gpt-oss', reason: expect.stringContaining('analysis channel') }),
    ]);
  });

  it('refuses what it cannot read without guessing', () => {
    const refused = (text: string) => {
      const result = read(text);
      expect(result.calls).toEqual([]);
      return result.rejected.map((rejected) => `${rejected.dialect}: ${rejected.reason}`);
    };
    expect(refused('<start_function_call>call:get_weather{days:three}<end_function_call>')).toEqual([
      expect.stringContaining('functiongemma: the bare value "three" is not a literal'),
    ]);
    expect(refused('<|tools_prefix|>[{"get_weather": {"city": "Zurich"}, "get_time": {}}]<|tools_suffix|>')).toEqual([
      expect.stringContaining('apertus: the call object has 2 keys'),
    ]);
    expect(
      refused(
        '<|tool_calls_section_begin|><|tool_call_begin|>get_weather<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
      ),
    ).toEqual([expect.stringContaining('kimi-k2: the call\'s head "get_weather" does not name a tool')]);
    expect(refused('<function_calls>\nget_weather("Paris")\n</function_calls>')).toEqual([
      expect.stringContaining('olmo3: positional argument'),
    ]);
    expect(
      refused('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>Paris please<|call|>'),
    ).toEqual(['gpt-oss: the arguments are not a JSON object']);
  });

  it('tells apart the dialects that share a marker', () => {
    const dialects = (text: string) => read(text).calls.map((found) => found.dialect);
    expect(dialects('<tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>')).toEqual(['jamba']);
    expect(dialects('<tool_calls>\n<tool_call>get_time<tool_sep>\n</tool_call>\n</tool_calls>')).toEqual(['hunyuan']);
    expect(dialects('<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>')).toEqual(['hermes']);
    expect(dialects('<tool_call>get_time\n</tool_call>')).toEqual(['glm-4.5']);
    expect(dialects('<function_calls>\nget_time()\n</function_calls>')).toEqual(['olmo3']);
    expect(dialects('<function_calls>\n<invoke name="get_time">\n</invoke>\n</function_calls>')).toEqual([
      'claude-xml',
    ]);
  });
});

describe('the landed Command-R and Gemma dialects, re-checked against their sources', () => {
  it("command-r: the command-r-plus output of Ollama's template test", () => {
    const text =
      'Action: ```json\n[\n    {\n        "tool_name": "get_current_weather",\n        "parameters": {\n            "format": "fahrenheit",\n' +
      '            "location": "San Francisco, CA"\n        }\n    },\n    {\n        "tool_name": "get_current_weather",\n' +
      '        "parameters": {\n            "format": "celsius",\n            "location": "Toronto, Canada"\n        }\n    }\n]\n```';
    expect(read(text)).toEqual({
      calls: [
        call('command-r', 'get_current_weather', { format: 'fahrenheit', location: 'San Francisco, CA' }),
        call('command-r', 'get_current_weather', { format: 'celsius', location: 'Toronto, Canada' }),
      ],
      rejected: [],
      content: '',
    });
  });

  it("gemma-tool-code: a call, print(call), and Gemma 3's prompted list inside the tool_code fence", () => {
    for (const body of ['get_time(timezone="UTC")', 'print(get_time(timezone="UTC"))', '[get_time(timezone="UTC")]'])
      expect(read(`\`\`\`tool_code\n${body}\n\`\`\``).calls).toEqual([
        call('gemma-tool-code', 'get_time', { timezone: 'UTC' }),
      ]);
    expect(read('```tool_code\n[get_time(timezone="UTC")] and more\n```').calls).toEqual([]);
  });
});

describe('spelling variants the reference parsers read', () => {
  it('kimi-k2: the singular section token, and a section whose end token was never written', () => {
    expect(
      read(
        '<|tool_call_section_begin|><|tool_call_begin|>functions.get_time:3<|tool_call_argument_begin|>{"timezone": "UTC"}<|tool_call_end|>',
      ).calls,
    ).toEqual([call('kimi-k2', 'get_time', { timezone: 'UTC' })]);
  });
});

describe("FunctionGemma values as written (vLLM's parser tests)", () => {
  it('an <escape> string stays the string the model wrote, for the executor to type', () => {
    expect(
      read(
        '<start_function_call>call:get_weather{days:<escape>42<escape>,metric:<escape>true<escape>}<end_function_call>',
      ).calls,
    ).toEqual([call('functiongemma', 'get_weather', { days: '42', metric: 'true' })]);
  });
});

describe("vLLM's malformed DeepSeek V3 outputs", () => {
  it('an object that never closes is rejected; a section without its call token is left as text', () => {
    const unclosed = read(
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Tokyo"\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    );
    expect(unclosed.calls).toEqual([]);
    expect(unclosed.rejected).toEqual([expect.objectContaining({ dialect: 'deepseek-v3', name: 'get_weather' })]);
    const text =
      '<｜tool▁calls▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Tokyo"}\n```<｜tool▁calls▁end｜>';
    expect(read(text)).toEqual({ calls: [], rejected: [], content: text });
  });
});

describe('a call after an unreadable one', () => {
  it('olmo3 (vLLM test_bad_sibling_call_does_not_drop_good_calls): the sibling is reported, not lost and not guessed', () => {
    const result = read(
      "<function_calls>get_weather('Paris')\nget_weather(city='San Francisco', metric='celsius')</function_calls>",
    );
    expect(result.calls).toEqual([]);
    expect(result.rejected.map((rejected) => rejected.reason)).toEqual([
      expect.stringContaining('positional argument'),
      'a call after an unreadable one in the same list is not read',
    ]);
  });
});
