import 'reflect-metadata';
import { createTextToolCallParser, parseTextToolCalls, type JsonSchemaTool } from '@toolwright/providers/text';
import { HARNESS_TOOLS, cpuGrowth, generalWorstCases } from '../support/text-parser-harness';

/**
 * Command-R, Gemma `tool_code` and ReAct read by their reference parsers' grammars, not by one example each: every
 * text here is a form the reference accepts (its own test fixture where it has one, else a text its pattern
 * matches), cited as repository and path, and each was missed before the readers were re-derived. What a reference
 * refuses stays unread.
 */
const string = { type: 'string' };
const TOOLS: JsonSchemaTool[] = [
  {
    name: 'tool1',
    description: 'langchain-cohere fixture tool',
    parameters: { type: 'object', properties: { arg1: string, arg2: { type: 'integer' } } },
  },
  {
    name: 'tool2',
    description: 'langchain-cohere fixture tool',
    parameters: { type: 'object', properties: { arg3: string, arg4: { type: 'boolean' } } },
  },
  {
    name: 'convert',
    description: 'Convert the currency with the latest exchange rate',
    parameters: {
      type: 'object',
      properties: { amount: { type: 'number' }, currency: string, new_currency: string },
    },
  },
  {
    name: 'get_exchange_rate',
    description: 'The latest exchange rate',
    parameters: { type: 'object', properties: { currency: string, new_currency: string } },
  },
  {
    name: 'add',
    description: 'Add two numbers',
    parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  },
  {
    name: '加法',
    description: 'Add two numbers',
    parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  },
  {
    name: 'tool',
    description: 'LlamaIndex fixture tool',
    parameters: {
      type: 'object',
      properties: { pages: { type: 'array', items: string }, load_kwargs: { type: 'object' }, query_str: string },
    },
  },
];
const read = (text: string) => parseTextToolCalls(text, { tools: TOOLS });
const calls = (text: string) => read(text).calls.map(({ dialect, name, arguments: args }) => [dialect, name, args]);

const TOOL1 = ['command-r', 'tool1', { arg1: 'value1', arg2: 2 }];
const LIST =
  '[\n    {\n        "tool_name": "tool1",\n        "parameters": {\n            "arg1": "value1",\n            "arg2": 2\n        }\n    }\n]';

describe('command-r by langchain-cohere parse_actions (Action\\s*\\d*\\s*:\\s*\\d*\\s*```json\\n)', () => {
  // langchain-ai/langchain-cohere libs/cohere/langchain_cohere/react_multi_hop/parsing.py, parse_actions
  it('a numbered action marker', () => {
    expect(calls(`Action 1: \`\`\`json\n${LIST}\n\`\`\``)).toEqual([TOOL1]);
    expect(calls(`Plan: First I will look.\nAction 2: \`\`\`json\n${LIST}\n\`\`\``)).toEqual([TOOL1]);
  });

  it('the fence on the line after the marker, and a blank before the colon', () => {
    expect(calls(`Action:\n\`\`\`json\n${LIST}\n\`\`\``)).toEqual([TOOL1]);
    expect(calls(`Reflection: I found out a thing.\nAction :\n\n\`\`\`json\n${LIST}\`\`\``)).toEqual([TOOL1]);
  });

  it("the fixtures of libs/cohere/tests/unit_tests/react_multi_hop/data/completions/*.txt read as the reference's test expects", () => {
    const plan =
      'Plan: Do a thing.\nAnd then do another thing.\nAction: ```json\n[\n    {\n        "tool_name": "tool1",\n' +
      '        "parameters": {\n            "arg1": "value1",\n            "arg2": 2\n        }\n    },\n    {\n' +
      '        "tool_name": "tool2",\n        "parameters": {\n            "arg3": "value3",\n            "arg4": true\n' +
      '        }\n    }\n]\n```';
    expect(read(plan)).toEqual({
      calls: [
        { name: 'tool1', arguments: { arg1: 'value1', arg2: 2 }, dialect: 'command-r' },
        { name: 'tool2', arguments: { arg3: 'value3', arg4: true }, dialect: 'command-r' },
      ],
      rejected: [],
      content: 'Plan: Do a thing.\nAnd then do another thing.',
    });
    expect(calls(`Action: \`\`\`json\n${LIST}\n\`\`\``)).toEqual([TOOL1]); // action_only_abnormal.txt
    expect(read('Foo')).toEqual({ calls: [], rejected: [], content: 'Foo' }); // not_a_plan_reflection_or_action.txt
  });

  it('what the reference refuses stays unread: no json fence, or the template instruction itself', () => {
    expect(calls(`Action: ${LIST}`)).toEqual([]);
    expect(calls(`Action: \`\`\`JSON\n${LIST}\n\`\`\``)).toEqual([]);
    const instruction =
      "Write 'Action:' followed by a json-formatted list of actions that you want to perform in order to produce a " +
      'good response to the user\'s last input. For example:\n```json\n[\n    {\n        "tool_name": title of the tool ' +
      'in the specification,\n        "parameters": a dict of parameters\n    }\n]```';
    expect(read(instruction).calls).toEqual([]);
  });
});

describe('gemma-tool-code by the Gemma 3 function-calling reader (```tool_code\\s*(.*?)\\s*``` then eval)', () => {
  // philschmid/gemini-samples examples/gemma-function-calling.ipynb, extract_tool_call (Google's Gemma 3
  // function-calling example); the block's body is one Python expression.
  const CONVERT = ['gemma-tool-code', 'convert', { amount: 200000.0, currency: 'USD', new_currency: 'EUR' }];
  const RATE = ['gemma-tool-code', 'get_exchange_rate', { currency: 'USD', new_currency: 'EUR' }];
  const call = 'convert(amount=200000.0, currency="USD", new_currency="EUR")';
  const rate = 'get_exchange_rate(currency="USD", new_currency="EUR")';

  it("the notebook's own model turn", () => {
    expect(
      read(
        `Okay, I need to convert $200,000 to EUR. I will use the \`convert\` function for this.\n\`\`\`tool_code\n${call}\n\`\`\``,
      ),
    ).toEqual({
      calls: [
        {
          name: 'convert',
          arguments: { amount: 200000, currency: 'USD', new_currency: 'EUR' },
          dialect: 'gemma-tool-code',
        },
      ],
      rejected: [],
      content: 'Okay, I need to convert $200,000 to EUR. I will use the `convert` function for this.',
    });
  });

  it('the call on the opener line (\\s* after the language, the block ends at the first ```)', () => {
    expect(calls(`\`\`\`tool_code ${call}\`\`\``)).toEqual([CONVERT]);
    expect(calls(`\`\`\`tool_code\n\n  ${call}  \n\n\`\`\``)).toEqual([CONVERT]);
  });

  it('print() of several calls, a tuple, and comments: expressions whose only effect is the calls', () => {
    expect(calls(`\`\`\`tool_code\nprint(${call}, ${rate})\n\`\`\``)).toEqual([CONVERT, RATE]);
    expect(calls(`\`\`\`tool_code\n(${call}, ${rate})\n\`\`\``)).toEqual([CONVERT, RATE]);
    expect(calls(`\`\`\`tool_code\n${call}, ${rate}\n\`\`\``)).toEqual([CONVERT, RATE]);
    expect(calls(`\`\`\`tool_code\n# convert first\n${call}  # then answer\n\`\`\``)).toEqual([CONVERT]);
    expect(calls(`\`\`\`tool_code\nprint(${call})\nprint(${rate})\n\`\`\``)).toEqual([CONVERT, RATE]);
  });

  it('what eval would not run as calls alone is reported, never read in part', () => {
    for (const body of [`result = ${call}`, `${call}; ${rate}`, `${call} and more`, `print(${call}) + 1`]) {
      const result = read(`\`\`\`tool_code\n${body}\n\`\`\``);
      expect(result.calls).toEqual([]);
      expect(result.rejected.length).toBeGreaterThan(0);
    }
    // ```tool_codex is another language, and an opener that never closes is a cut-off call.
    expect(read(`\`\`\`tool_codex ${call}\`\`\``).calls).toEqual([]);
    expect(read(`\`\`\`tool_code\n${call}`).rejected).toEqual([
      expect.objectContaining({ reason: 'the tool_code block is cut off before its closing fence' }),
    ]);
  });
});

describe('react by the union of LangChain and LlamaIndex ReAct parsers', () => {
  const ADD = ['react', 'add', { a: 1, b: 1 }];

  // run-llama/llama_index llama-index-core/tests/agent/react/test_react_output_parser.py (extract_tool_use)
  it("LlamaIndex's test inputs: blank lines, a note after the name, a wrapper, non-ASCII names", () => {
    const thought = 'Thought: I need to use a tool to help me answer the question.\n';
    expect(calls(`${thought}\nAction: add\n\n\n\nAction Input: {"a": 1, "b": 1}\n`)).toEqual([ADD]); // _multiline
    expect(calls(`${thought}\nAction: add\n\nAction Input: {"a": 1, "b": 1}\n`)).toEqual([ADD]); // _spurious_newlines
    expect(calls(`${thought}Action: add (add two numbers)\nAction Input: {"a": 1, "b": 1}\n`)).toEqual([ADD]); // _extra_action_output
    expect(calls(`${thought}Action: add\nAction Input: QueryEngineTool({"a": 1, "b": 1})\n`)).toEqual([ADD]); // test_extract_tool_use_
    expect(calls(`${thought}\nAction: 加法\n\nAction Input: {"a": 1, "b": 1}\n`)).toEqual([
      ['react', '加法', { a: 1, b: 1 }],
    ]); // _with_Chinese_characters
  });

  it("LlamaIndex's `.*?(\\{.*\\})`: the object in a code fence after the marker", () => {
    const text = 'Thought: use it.\nAction: add\nAction Input: ```json\n{"a": 1, "b": 1}\n```\nObservation: 2';
    expect(read(text)).toEqual({
      calls: [{ name: 'add', arguments: { a: 1, b: 1 }, dialect: 'react' }],
      rejected: [],
      content: 'Thought: use it.\n\nObservation: 2',
    });
  });

  // langchain-ai/langchain libs/langchain/langchain/agents/output_parsers/react_single_input.py
  // (Action\s*\d*\s*:[\s]*(.*?)[\s]*Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*))
  it("LangChain's pattern: numbered markers, and the markers on one line", () => {
    expect(calls('Thought: hm\nAction 1: add\nAction 1 Input 1: {"a": 1, "b": 1}')).toEqual([ADD]);
    expect(calls('Thought: hm Action: add Action Input: {"a": 1, "b": 1}')).toEqual([ADD]);
    expect(calls('Thought: hm\nAction:\nadd\nAction Input:\n{"a": 1, "b": 1}')).toEqual([ADD]);
  });

  // langchain-ai/langchain libs/langchain/langchain/agents/output_parsers/react_json_single_input.py
  // (`^.*?`{3}(?:json)?\n?(.*?)`{3}.*?$`, then json.loads) and its test
  // libs/langchain/tests/unit_tests/agents/output_parsers/test_react_json_single_input.py
  it("LangChain's JSON form: a fence holding only {action, action_input}, with or without `Action:`", () => {
    const blob = '{\n    "action": "add",\n    "action_input": {"a": 1, "b": 1}\n}';
    expect(read(`Thought: agent thought here\n\`\`\`\n${blob}\n\`\`\`\n`)).toEqual({
      calls: [{ name: 'add', arguments: { a: 1, b: 1 }, dialect: 'react' }],
      rejected: [],
      content: 'Thought: agent thought here',
    });
    expect(calls(`Thought: use it\nAction:\n\`\`\`json\n${blob}\n\`\`\``)).toEqual([ADD]);
    // test_action's own input: a string input would fill a parameter by guessing, so it is refused.
    expect(
      read('Thought: agent thought here\n```\n{\n    "action": "add",\n    "action_input": "one and one"\n}\n```\n')
        .rejected,
    ).toEqual([expect.objectContaining({ name: 'add', reason: 'the action_input is not a JSON object' })]);
    // test_finish: no call.
    expect(read('Thought: agent thought here\nFinal Answer: The temperature is 100').calls).toEqual([]);
    // Not this form: an unknown tool, another key, or more than the object in the fence.
    for (const body of [
      '{"action": "search", "action_input": {}}',
      '{"action": "add", "action_input": {"a": 1}, "thought": "x"}',
      '{"action": "add", "action_input": {"a": 1}} and more',
    ])
      expect(read(`\`\`\`\n${body}\n\`\`\``)).toEqual({ calls: [], rejected: [], content: `\`\`\`\n${body}\n\`\`\`` });
  });

  it('still refused: a name that is no tool, and an input that is not one JSON object', () => {
    expect(read('Action: search\nAction Input: {"q": 1}')).toEqual({
      calls: [],
      rejected: [],
      content: 'Action: search\nAction Input: {"q": 1}',
    });
    expect(read('Action: add\nAction Input: 1 + 1').rejected).toEqual([
      expect.objectContaining({ name: 'add', reason: 'the Action Input is not a JSON object' }),
    ]);
    expect(read('Action: add (add two numbers) and then tool\nAction Input: {"a": 1}').calls).toEqual([]);
  });
});

describe('the re-derived grammars stay linear', () => {
  // The harness's worst cases for these grammars' optional parts (numbered markers, blanks, notes, wrappers, tool_code
  // on the opener's line): CPU time at four times the size grows about 4 times when linear, 16 when quadratic.
  const LABELS = [
    'numbered markers and blanks',
    'marker then blanks',
    'react markers without input',
    'react note unclosed',
    'tool_code openers',
    'tool_code comments',
    'action fences unclosed',
    'action fences without close',
  ];
  const cases = generalWorstCases().filter((worst) => LABELS.includes(worst.label));
  const whole = (text: string) => parseTextToolCalls(text, { tools: HARNESS_TOOLS });
  const streamed = (text: string) => {
    const parser = createTextToolCallParser({ tools: HARNESS_TOOLS });
    for (let at = 0; at < text.length; at += 64) parser.push(text.slice(at, at + 64));
    parser.end();
  };

  it.each(LABELS)('%s', (label) => {
    const worst = cases.find((found) => found.label === label);
    expect(worst).toBeDefined();
    for (const run of [whole, streamed]) {
      const growth = cpuGrowth(worst!.text, run, { size: 32 * 1024 });
      expect([label, run === whole ? 'whole' : 'streamed', growth.ratio < 8]).toEqual([
        label,
        run === whole ? 'whole' : 'streamed',
        true,
      ]);
    }
  });
});
