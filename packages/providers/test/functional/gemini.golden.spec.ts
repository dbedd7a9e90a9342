import 'reflect-metadata';
import type { Content, FunctionDeclaration, GenerateContentResponse, Tool } from '@google/genai';
import type { ToolResult } from '@toolwright/core';
import * as gemini from '@toolwright/providers/gemini';
import { CANONICAL_ARGUMENTS, CANONICAL_RESULT, canonicalDefinition } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('gemini');

describe('Gemini: the canonical tool', () => {
  it("is the reference's Definition A (parameters, OpenAPI subset)", () => {
    const tools = gemini.toTools([canonicalDefinition()]) as Tool[]; // GeminiType spells the SDK's Type enum as strings
    expect(tools).toEqual([{ functionDeclarations: [fixture['declarationParameters']] }]);
  });

  it("is the reference's Definition B (parametersJsonSchema, verbatim)", () => {
    const declarations = gemini.toFunctionDeclarations([canonicalDefinition()], {
      schemaField: 'parametersJsonSchema',
    }) as FunctionDeclaration[]; // GeminiType spells the SDK's Type enum as strings
    expect(declarations).toEqual([fixture['declarationJsonSchema']]);
  });

  it('parses functionCall parts (args are an object; the id is kept)', () => {
    const response = fixture['response'] as GenerateContentResponse;
    expect(gemini.parseToolCalls(response)).toEqual([
      {
        id: 'fc_7k2m',
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: CANONICAL_ARGUMENTS,
        transformations: [],
      },
    ]);
  });

  it('gives results back as functionResponse parts in a user turn, errors under response.error', () => {
    const success: ToolResult = {
      callId: 'fc_7k2m',
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    };
    const content: Content = gemini.toToolResultMessage(success);
    expect(content).toEqual(fixture['result']);
    const failure: ToolResult = {
      callId: 'fc_7k2m',
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
    const error: Content = gemini.toToolResultMessage(failure);
    expect(error.parts?.[0]?.functionResponse?.response).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'Calendar API timed out; retry later.', retryable: true },
    });
  });

  it('generates ids for calls without one, matched by order, and leaves them out of the responses', () => {
    const toolSet = gemini.createToolSet(seedRegistry());
    const response: Pick<GenerateContentResponse, 'candidates'> = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: { name: 'decision_propose', args: { question: 'Q', options: [] } },
                thoughtSignature: 'c2ln',
              },
              { functionCall: { name: 'get_calendar_events', args: { resolved_datetimes: [] } } },
            ],
          },
        },
      ],
    };
    const calls = gemini.parseToolCalls(response, { toolSet, generateId: (index) => `toolwright_call_test_${index}` });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['toolwright_call_test_0', 'decision/propose'],
      ['toolwright_call_test_1', 'get_calendar_events'],
    ]);
    const results: ToolResult[] = calls.map((call) => ({
      callId: call.id,
      tool: call.name,
      ok: true,
      value: 'done',
      transformations: [],
      durationMs: 0,
    }));
    const [turn] = gemini.toToolResultMessages(results, { toolSet });
    const typed: Content | undefined = turn;
    expect(typed?.parts?.map((part) => part.functionResponse)).toEqual([
      { name: 'decision_propose', response: { output: 'done' } },
      { name: 'get_calendar_events', response: { output: 'done' } },
    ]);
  });

  it('imports both declaration forms back into the same IR', () => {
    const definition = canonicalDefinition();
    for (const schemaField of ['parameters', 'parametersJsonSchema'] as const) {
      const [declaration] = gemini.toFunctionDeclarations([definition], { schemaField });
      expect(gemini.fromTool(declaration as gemini.GeminiFunctionDeclaration).parameters).toEqual(
        definition.parameters,
      );
    }
  });
});

describe('Gemini: the seed commands', () => {
  it('lowers decision/propose to the OpenAPI subset (minItems as a string, no additionalProperties)', () => {
    const [propose] = gemini.toFunctionDeclarations(seedRegistry()) as FunctionDeclaration[]; // GeminiType spells the SDK's Type enum as strings
    expect(propose).toEqual({
      name: 'decision_propose',
      description: 'Propose a decision with at least two options.',
      parameters: {
        type: 'OBJECT',
        properties: {
          question: { type: 'STRING', description: 'The question to decide' },
          options: {
            type: 'ARRAY',
            description: 'The options to choose from',
            items: {
              type: 'OBJECT',
              properties: {
                label: { type: 'STRING', description: 'Short name of the option' },
                description: { type: 'STRING', description: 'What choosing this option means' },
                proposedBy: { type: 'STRING', description: 'Who proposed the option' },
              },
              required: ['label', 'description'],
              propertyOrdering: ['label', 'description', 'proposedBy'],
            },
            minItems: '2',
          },
        },
        required: ['question', 'options'],
        propertyOrdering: ['question', 'options'],
      },
    });
  });
});

describe('Gemini schema lowering', () => {
  it('turns nullables, non-string enums, unions and unsupported keywords into what Gemini accepts', () => {
    const schema = gemini.toGeminiSchema({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        level: { type: 'integer', enum: [1, 2, 3] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
        ratio: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
        day: { type: 'string', format: 'date' },
        fixed: { const: 'yes' },
        map: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
      },
      required: [],
      additionalProperties: false,
    });
    expect(schema.properties).toEqual({
      note: { type: 'STRING', nullable: true },
      level: { type: 'INTEGER', description: '(JSON Schema: {"enum":[1,2,3]})' },
      either: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }], nullable: true },
      ratio: { type: 'NUMBER', description: '(JSON Schema: {"exclusiveMinimum":0,"multipleOf":0.5})' },
      day: { type: 'STRING', description: '(JSON Schema: {"format":"date"})' },
      fixed: { enum: ['yes'] },
      map: { type: 'OBJECT', properties: {}, description: '(JSON Schema: {"additionalProperties":{"type":"string"}})' },
    });
    expect(schema).not.toHaveProperty('additionalProperties');
  });
});

describe('Gemini streaming', () => {
  it('returns whole calls per chunk', () => {
    const accumulator = gemini.createStreamAccumulator();
    const chunk = fixture['response'] as GenerateContentResponse;
    expect(accumulator.push(chunk).map((call) => call.id)).toEqual(['fc_7k2m']);
    expect(accumulator.finish()).toEqual([]);
  });

  it("assembles Vertex's partialArgs by JSON path until willContinue ends", () => {
    const accumulator = gemini.createStreamAccumulator();
    const chunks: Array<Pick<GenerateContentResponse, 'candidates'>> = [
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { id: 'fc_1', name: 'get_calendar_events', willContinue: true } }],
            },
          },
        ],
      },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: {
                    willContinue: true,
                    partialArgs: [{ jsonPath: '$.calendar', stringValue: 'wo', willContinue: true }],
                  },
                },
              ],
            },
          },
        ],
      },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: {
                    willContinue: true,
                    partialArgs: [
                      { jsonPath: '$.calendar', stringValue: 'rk' },
                      { jsonPath: '$.resolved_datetimes[0]', stringValue: '2026-11-23T09:00:00-05:00' },
                      { jsonPath: '$.max_results', numberValue: 5 },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { willContinue: false } }] } }] },
    ];
    const emitted = chunks.map((chunk) => accumulator.push(chunk));
    expect(emitted.slice(0, 3).flat()).toEqual([]);
    expect(emitted[3]?.[0]?.arguments).toEqual({
      calendar: 'work',
      resolved_datetimes: ['2026-11-23T09:00:00-05:00'],
      max_results: 5,
    });
    expect(gemini.parseJsonPath("$.a['b.c'][2].d")).toEqual(['a', 'b.c', 2, 'd']);
  });
});
