import 'reflect-metadata';
import OpenAI from 'openai';
import { GoogleGenAI, type FunctionDeclaration, type ToolConfig } from '@google/genai';
import { DefinitionError, definitionFromJsonSchema, type ToolDefinition } from '@toolwright/core';
import { adaptAll } from '@toolwright/providers';
import * as anthropic from '@toolwright/providers/anthropic';
import * as gemini from '@toolwright/providers/gemini';
import * as mistral from '@toolwright/providers/mistral';
import * as openai from '@toolwright/providers/openai';
import * as responses from '@toolwright/providers/openai-responses';
import { startStubServer, type StubServer } from '../support/stub-server';

/**
 * `allow`: the calls restricted to some tools while the request keeps the whole tool list, so the provider's prompt
 * cache keeps its prefix. Golden request payloads through the official SDKs (openai, @google/genai) against a
 * 127.0.0.1 stub: the same `tools` bytes whatever is allowed, plus each provider's own restriction field.
 */
let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const tool = (name: string): ToolDefinition =>
  definitionFromJsonSchema({
    name,
    description: `The ${name.replace(/_/g, ' ')} tool`,
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  });
const TOOLS = ['search_tools', 'get_weather', 'get_time', 'send_mail', 'book/room'].map(tool);

const openaiClient = (): OpenAI => new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
// An explicit fetch: the SDK's default undici dispatcher is not reachable from jest's sandboxed globals.
const geminiClient = (): GoogleGenAI =>
  new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: { baseUrl: server.url, fetch: (input, init) => fetch(input, init) },
  });

const CHAT_COMPLETION = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-5',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop', logprobs: null },
  ],
};
const RESPONSE = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-5',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'ok', annotations: [] }],
    },
  ],
};
const GEMINI_RESPONSE = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
};

describe('OpenAI Chat Completions: tool_choice allowed_tools', () => {
  it('sends every tool and the restriction; the tools bytes are the same whatever is allowed', async () => {
    const first = openai.createToolSet(TOOLS, { allow: ['search_tools', 'get_weather'] });
    const second = openai.createToolSet(TOOLS, { allow: ['search_tools', 'book/room'], allowMode: 'required' });
    expect(first.restriction).toEqual({
      tools: ['search_tools', 'get_weather'],
      providerNames: ['search_tools', 'get_weather'],
      mode: 'auto',
      by: 'provider',
    });
    for (const toolSet of [first, second]) {
      server.reply({ kind: 'json', body: CHAT_COMPLETION });
      const choice = openai.allowedToolsChoice(toolSet);
      await openaiClient().chat.completions.create({
        model: 'gpt-5',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: toolSet.tools,
        ...(choice ? { tool_choice: choice } : {}),
      });
    }
    const [one, two] = server.requests;
    expect(one?.url).toBe('/v1/chat/completions');
    expect(JSON.stringify(one?.body.tools)).toBe(JSON.stringify(two?.body.tools));
    expect(one?.body.tools.map((sent: { function: { name: string } }) => sent.function.name)).toEqual([
      'search_tools',
      'get_weather',
      'get_time',
      'send_mail',
      'book_room',
    ]);
    expect(one?.body.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: {
        mode: 'auto',
        tools: [
          { type: 'function', function: { name: 'search_tools' } },
          { type: 'function', function: { name: 'get_weather' } },
        ],
      },
    });
    // The provider sees the encoded name (`book/room` is `book_room` on the wire).
    expect(two?.body.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: {
        mode: 'required',
        tools: [
          { type: 'function', function: { name: 'search_tools' } },
          { type: 'function', function: { name: 'book_room' } },
        ],
      },
    });
  });

  it('OpenAIChatModel sends it from toolOptions.allow', async () => {
    server.reply({ kind: 'json', body: CHAT_COMPLETION });
    const model = new openai.OpenAIChatModel({
      client: openaiClient(),
      model: 'gpt-5',
      toolOptions: { allow: ['get_time'] },
    });
    await model.complete({ messages: [{ role: 'user', content: 'Time?' }], tools: TOOLS });
    expect(server.requests[0]?.body.tools).toHaveLength(5);
    expect(server.requests[0]?.body.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_time' } }] },
    });
  });

  it('falls back to the subset when the whole list exceeds maxTools (128), and says why', async () => {
    const many = Array.from({ length: openai.OPENAI_LIMITS.maxTools + 1 }, (_, index) => tool(`tool_${index}`));
    const toolSet = openai.createToolSet(many, { allow: ['tool_3', 'tool_7'] });
    expect(toolSet.tools.map((sent) => sent.function.name)).toEqual(['tool_3', 'tool_7']);
    expect(toolSet.restriction).toEqual({
      tools: ['tool_3', 'tool_7'],
      providerNames: ['tool_3', 'tool_7'],
      mode: 'auto',
      by: 'subset',
      reason: "the 129 tools exceed the provider's 128 per request",
    });
    expect(openai.allowedToolsChoice(toolSet)).toBeUndefined();
  });
});

describe('OpenAI Responses: tool_choice allowed_tools', () => {
  it('sends every tool and {type: "allowed_tools", mode, tools: [{type: "function", name}]}', async () => {
    const toolSet = responses.createToolSet(TOOLS, { allow: ['get_weather', 'send_mail'] });
    server.reply({ kind: 'json', body: RESPONSE });
    const choice = responses.allowedToolsChoice(toolSet);
    await openaiClient().responses.create({
      model: 'gpt-5',
      input: 'Weather in Paris?',
      tools: toolSet.tools,
      ...(choice ? { tool_choice: choice } : {}),
    });
    expect(server.requests[0]?.url).toBe('/v1/responses');
    expect(server.requests[0]?.body.tools).toEqual(responses.createToolSet(TOOLS).tools);
    expect(server.requests[0]?.body.tool_choice).toEqual({
      type: 'allowed_tools',
      mode: 'auto',
      tools: [
        { type: 'function', name: 'get_weather' },
        { type: 'function', name: 'send_mail' },
      ],
    });
  });

  it('OpenAIResponsesChatModel sends it from toolOptions.allow', async () => {
    server.reply({ kind: 'json', body: RESPONSE });
    await new responses.OpenAIResponsesChatModel({
      client: openaiClient(),
      model: 'gpt-5',
      toolOptions: { allow: ['get_time'], allowMode: 'required' },
    }).complete({ messages: [{ role: 'user', content: 'Time?' }], tools: TOOLS });
    expect(server.requests[0]?.body.tools).toHaveLength(5);
    expect(server.requests[0]?.body.tool_choice).toEqual({
      type: 'allowed_tools',
      mode: 'required',
      tools: [{ type: 'function', name: 'get_time' }],
    });
  });
});

describe('Gemini: toolConfig.functionCallingConfig.allowedFunctionNames', () => {
  it('VALIDATED for allowMode auto (AUTO does not take the list), ANY for required; every declaration sent', async () => {
    const auto = gemini.createToolSet(TOOLS, { allow: ['search_tools', 'book/room'] });
    const required = gemini.createToolSet(TOOLS, { allow: ['get_time'], allowMode: 'required' });
    for (const toolSet of [auto, required]) {
      server.reply({ kind: 'json', body: GEMINI_RESPONSE });
      const toolConfig = gemini.allowedFunctionsConfig(toolSet);
      await geminiClient().models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
        config: {
          tools: [{ functionDeclarations: toolSet.tools as FunctionDeclaration[] }],
          ...(toolConfig ? { toolConfig: toolConfig as ToolConfig } : {}),
        },
      });
    }
    const [one, two] = server.requests;
    expect(one?.url).toBe('/v1/models/gemini-2.5-flash:generateContent');
    expect(JSON.stringify(one?.body.tools)).toBe(JSON.stringify(two?.body.tools));
    expect(one?.body.tools[0].functionDeclarations).toHaveLength(5);
    expect(one?.body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['search_tools', 'book_room'] },
    });
    expect(two?.body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] },
    });
  });

  it('GeminiChatModel sends it from toolOptions.allow', async () => {
    server.reply({ kind: 'json', body: GEMINI_RESPONSE });
    await new gemini.GeminiChatModel({
      client: geminiClient(),
      model: 'gemini-2.5-flash',
      toolOptions: { allow: ['get_weather'] },
    }).complete({ messages: [{ role: 'user', content: 'Weather?' }], tools: TOOLS });
    expect(server.requests[0]?.body.tools[0].functionDeclarations).toHaveLength(5);
    expect(server.requests[0]?.body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['get_weather'] },
    });
  });
});

describe('providers without a restriction field, and mistakes', () => {
  it('Anthropic and Mistral send the subset and say why', () => {
    for (const toolSet of [
      anthropic.createToolSet(TOOLS, { allow: ['get_time', 'search_tools'] }),
      mistral.createToolSet(TOOLS, { allow: ['get_time', 'search_tools'] }),
    ]) {
      expect(toolSet.definitions.map((definition) => definition.name)).toEqual(['search_tools', 'get_time']);
      expect(toolSet.restriction).toEqual({
        tools: ['search_tools', 'get_time'],
        providerNames: ['search_tools', 'get_time'],
        mode: 'auto',
        by: 'subset',
        reason: 'the provider has no field that restricts calls to some of the tools sent',
      });
    }
  });

  it('with only: the allowed tools must be among the ones sent', () => {
    const toolSet = openai.createToolSet(TOOLS, { only: ['search_tools', 'get_time'], allow: ['get_time'] });
    expect(toolSet.tools).toHaveLength(2);
    expect(openai.allowedToolsChoice(toolSet)?.allowed_tools.tools).toEqual([
      { type: 'function', function: { name: 'get_time' } },
    ]);
    expect(() => openai.createToolSet(TOOLS, { only: ['search_tools'], allow: ['get_time'] })).toThrow(
      /allow.*names a tool the tool set does not hold: "get_time"/s,
    );
  });

  it('the tools alone (toTools, adaptAll) would drop a provider restriction: refused; a subset is fine', () => {
    expect(() => openai.toTools(TOOLS, { allow: ['get_time'] })).toThrow(/which the tools alone would drop/);
    expect(() => gemini.toFunctionDeclarations(TOOLS, { allow: ['get_time'] })).toThrow(/allowedFunctionsConfig/);
    expect(() => adaptAll(TOOLS, 'openai-responses', { allow: ['get_time'] })).toThrow(DefinitionError);
    expect(anthropic.toTools(TOOLS, { allow: ['get_time'] }).map((sent) => sent.name)).toEqual(['get_time']);
  });

  it('refuses an unknown name, an empty list, and allowMode without allow or with another value', () => {
    expect(() => openai.createToolSet(TOOLS, { allow: ['get_wether'] })).toThrow(DefinitionError);
    expect(() => gemini.createToolSet(TOOLS, { allow: [] })).toThrow(/names no tool/);
    expect(() => openai.createToolSet(TOOLS, { allowMode: 'required' })).toThrow(/is set without `allow`/);
    expect(() => openai.createToolSet(TOOLS, { allow: ['get_time'], allowMode: 'any' as 'auto' })).toThrow(
      /must be 'auto' or 'required'/,
    );
  });
});
