import 'reflect-metadata';
import { GoogleGenAI, Type, type Content, type FunctionDeclaration } from '@google/genai';
import * as gemini from '@toolwright/providers/gemini';
import {
  CALENDAR_ARGUMENTS,
  CALENDAR_VALUE,
  PROPOSE_ARGUMENTS,
  PROPOSE_VALUE,
  seedExecutor,
} from '../support/seed-executor';
import { startStubServer, type StubServer } from '../support/stub-server';

let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
});
afterAll(() => server.close());
beforeEach(() => server.requests.splice(0));

// An explicit fetch: the SDK's default per-request undici dispatcher reads Node's global dispatcher, which jest's
// sandboxed globalThis does not expose.
const client = (): GoogleGenAI =>
  new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: { baseUrl: server.url, fetch: (input, init) => fetch(input, init) },
  });

describe('GeminiType', () => {
  it("lists exactly the values of @google/genai's Type enum (declared here so our .d.ts never imports the optional SDK)", () => {
    const ours: Record<gemini.GeminiType, true> = {
      TYPE_UNSPECIFIED: true,
      STRING: true,
      NUMBER: true,
      INTEGER: true,
      BOOLEAN: true,
      ARRAY: true,
      OBJECT: true,
      NULL: true,
    };
    expect(Object.keys(ours).sort()).toEqual(Object.values(Type).sort());
  });
});

// Our declarations spell Gemini's `Type` enum as its string values (see GeminiType), so the SDK's typed config takes
// them with a cast: `toolSet.tools as FunctionDeclaration[]`.
describe('@google/genai -> stub generateContent -> executor', () => {
  it.each(['parameters', 'parametersJsonSchema'] as const)(
    'sends our declarations (%s), parses functionCall parts, runs them and answers with functionResponse parts',
    async (schemaField) => {
      const { registry, run } = seedExecutor();
      const toolSet = gemini.createToolSet(registry, { schemaField });
      const modelTurn = {
        role: 'model',
        parts: [
          {
            functionCall: { id: 'fc_1', name: 'decision_propose', args: PROPOSE_ARGUMENTS },
            thoughtSignature: 'c2lnbmF0dXJl',
          },
          { functionCall: { name: 'get_calendar_events', args: CALENDAR_ARGUMENTS } },
        ],
      };
      server.reply({
        kind: 'json',
        body: {
          candidates: [{ content: modelTurn, finishReason: 'STOP', index: 0 }],
          modelVersion: 'gemini-2.5-flash',
        },
      });
      const contents: Content[] = [{ role: 'user', parts: [{ text: 'Plan lunch and check my calendar.' }] }];
      const response = await client().models.generateContent({
        model: 'gemini-2.5-flash',
        contents,
        config: { tools: [{ functionDeclarations: toolSet.tools as FunctionDeclaration[] }] },
      });
      expect(server.requests[0]?.url).toBe('/v1/models/gemini-2.5-flash:generateContent');
      expect(server.requests[0]?.body.tools).toEqual([{ functionDeclarations: toolSet.tools }]);

      const calls = gemini.parseToolCalls(response, { toolSet });
      expect(calls.map((call) => call.name)).toEqual(['decision/propose', 'get_calendar_events']);
      expect(calls[0]?.id).toBe('fc_1');
      const results = await run(calls);
      expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual([
        PROPOSE_VALUE,
        CALENDAR_VALUE,
      ]);

      server.reply({
        kind: 'json',
        body: {
          candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP', index: 0 }],
        },
      });
      await client().models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [
          ...contents,
          response.candidates?.[0]?.content as Content,
          ...gemini.toToolResultMessages(results, { toolSet }),
        ],
        config: { tools: [{ functionDeclarations: toolSet.tools as FunctionDeclaration[] }] },
      });
      const sent = server.requests[1]?.body.contents;
      // The model turn goes back unchanged (thought signature included), then one user turn with both responses.
      expect(sent[1]).toEqual(modelTurn);
      expect(sent[2]).toEqual({
        role: 'user',
        parts: [
          { functionResponse: { id: 'fc_1', name: 'decision_propose', response: { output: PROPOSE_VALUE } } },
          { functionResponse: { name: 'get_calendar_events', response: { output: CALENDAR_VALUE } } },
        ],
      });
    },
  );
});
