import 'reflect-metadata';
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionDeclaration } from '@google/genai';
import type { Tool as McpSdkTool } from '@modelcontextprotocol/server';
import type OpenAI from 'openai';
import { definitionFromJsonSchema, DefinitionError } from '@toolwright/core';
import {
  adapt,
  API_VERSIONS,
  getApiVersions,
  getProviders,
  resolveApiVersion,
  type ProviderId,
} from '@toolwright/providers';
import * as anthropic from '@toolwright/providers/anthropic';
import * as gemini from '@toolwright/providers/gemini';
import * as mcp from '@toolwright/providers/mcp';
import * as openai from '@toolwright/providers/openai';
import { canonicalDefinition, CANONICAL_SCHEMA } from '../support/canonical';
import { loadFixture } from '../support/fixtures';

const errorOf = (run: () => unknown): DefinitionError => {
  try {
    run();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('expected a DefinitionError');
};

describe('API versions: resolution', () => {
  it('resolves a date to the last format change on or before it; latest (the default) is the current one', () => {
    expect(resolveApiVersion('openai', '2024-01').id).toBe('2023-11-06');
    expect(resolveApiVersion('openai', '2023-11').id).toBe('2023-11-06');
    expect(resolveApiVersion('openai', '2023-11-05').id).toBe('2023-06-13');
    expect(resolveApiVersion('openai', '2024-08-06').id).toBe('2024-08-06');
    expect(resolveApiVersion('openai', undefined)).toBe(resolveApiVersion('openai', 'latest'));
    expect(resolveApiVersion('openai', undefined).id).toBe('2024-08-06');
    expect(getApiVersions('mcp').map((version) => version.id)).toEqual(['2024-11-05', '2025-03-26', '2025-06-18']);
  });

  it('gives every provider a version list', () => {
    for (const provider of getProviders()) expect(API_VERSIONS[provider.id].length).toBeGreaterThan(0);
  });

  it.each<[ProviderId, string, string]>([
    [
      'openai',
      'v2',
      'openai.version: unknown openai API version "v2": a version is a date (YYYY-MM or YYYY-MM-DD) or "latest". Fix: give the date of the API version you are pinned to; the openai tool format changed on 2023-06-13, 2023-11-06, 2024-08-06.',
    ],
    [
      'openai',
      '2024-13',
      'openai.version: unknown openai API version "2024-13": a version is a date (YYYY-MM or YYYY-MM-DD) or "latest".',
    ],
    [
      'openai',
      '2023-01',
      'openai.version: unknown openai API version "2023-01": openai had no tool calling before 2023-06-13',
    ],
    ['anthropic', '2024-03-31', 'anthropic had no tool calling before 2024-04-04'],
    ['mistral', '2023-12', 'mistral had no tool calling before 2024-02-26'],
    ['ollama', '2024-06', 'ollama had no tool calling before 2024-07-25'],
  ])('%s %s: a clear error', (provider, version, message) => {
    const error = errorOf(() => adapt(canonicalDefinition(), provider, { version }));
    expect(error.message).toContain(message);
    expect(error.property).toBe('version');
  });
});

describe('OpenAI Chat by API version', () => {
  const fixture = loadFixture('openai-chat');

  it("seed 004's adapt(tool, 'openai', { version: '2024-01' }): the tools format, verbatim", () => {
    const tool: OpenAI.Chat.Completions.ChatCompletionFunctionTool = adapt(canonicalDefinition(), 'openai', {
      version: '2024-01',
    });
    expect(tool).toEqual(fixture['tool']);
  });

  it('2023-06 to 2023-11-05: the legacy `functions` field (ChatCompletionCreateParams.Function), and a clear error for `tools`', () => {
    const functions: OpenAI.Chat.Completions.ChatCompletionCreateParams.Function[] = openai.toFunctions(
      [canonicalDefinition()],
      { version: '2023-07' },
    );
    expect(functions).toEqual([fixture['tool'].function]);
    expect(errorOf(() => adapt(canonicalDefinition(), 'openai', { version: '2023-07' })).message).toBe(
      'openai.version: `tools` is not in the openai API version "2023-07" (it came on 2023-11-06). Fix: that API takes the legacy `functions` field: send openai.toFunctions(registry, { version }) as `functions`, or pin a later version.',
    );
  });

  it('strict needs 2024-08-06 or later', () => {
    expect(errorOf(() => openai.toTools([canonicalDefinition()], { version: '2024-07', strict: true })).message).toBe(
      'openai.version: `strict: true` (Structured Outputs) is not in the openai API version "2024-07" (it came on 2024-08-06). Fix: leave strict off, or pin 2024-08-06 or later.',
    );
    const [strict]: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = openai.toTools([canonicalDefinition()], {
      version: '2024-09',
      strict: true,
    });
    expect(strict?.function.strict).toBe(true);
  });
});

describe('Anthropic by API version', () => {
  const fixture = loadFixture('anthropic');
  const withExamples = definitionFromJsonSchema({
    name: 'get_calendar_events',
    parameters: { ...CANONICAL_SCHEMA, examples: [{ calendar: 'work' }] },
  });

  it('2024-04-04 (tool use): the canonical tool as is; root examples stay JSON Schema `examples`', () => {
    const tool: Anthropic.Tool = adapt(canonicalDefinition(), 'anthropic', { version: '2024-06' });
    expect(tool).toEqual(fixture['tool']);
    const old: Anthropic.Tool = adapt(withExamples, 'anthropic', { version: '2024-06' });
    expect(old.input_schema['examples']).toEqual([{ calendar: 'work' }]);
    expect(old.input_examples).toBeUndefined();
  });

  it('2025-11-13 and later: input_examples and strict', () => {
    const current: Anthropic.Tool = adapt(withExamples, 'anthropic');
    expect(current.input_examples).toEqual([{ calendar: 'work' }]);
    expect(current.input_schema['examples']).toBeUndefined();
    expect(anthropic.toTools([canonicalDefinition()], { strict: true, version: '2025-12' })[0]?.strict).toBe(true);
    expect(
      errorOf(() => anthropic.toTools([canonicalDefinition()], { strict: true, version: '2025-06' })).message,
    ).toBe(
      'anthropic.version: strict tool use is not in the anthropic API version "2025-06" (it came on 2025-11-13). Fix: leave strict off, or pin 2025-11-13 or later.',
    );
  });
});

describe('Gemini by API version', () => {
  const fixture = loadFixture('gemini');

  it('`parameters` in every version; `parametersJsonSchema` from 2025-07-15', () => {
    const old = adapt(canonicalDefinition(), 'gemini', { version: '2024-05' }) as FunctionDeclaration;
    expect(old).toEqual(fixture['declarationParameters']);
    const jsonSchema = gemini.toFunctionDeclarations([canonicalDefinition()], {
      schemaField: 'parametersJsonSchema',
      version: '2025-08',
    }) as FunctionDeclaration[];
    expect(jsonSchema).toEqual([fixture['declarationJsonSchema']]);
    expect(
      errorOf(() =>
        gemini.toFunctionDeclarations([canonicalDefinition()], {
          schemaField: 'parametersJsonSchema',
          version: '2025-01',
        }),
      ).message,
    ).toBe(
      'gemini.version: `parametersJsonSchema` is not in the gemini API version "2025-01" (it came on 2025-07-15). Fix: use schemaField: \'parameters\' (the OpenAPI-subset Schema), or pin a later version.',
    );
  });
});

describe('MCP by protocol version', () => {
  const titled = definitionFromJsonSchema(
    { name: 'get_calendar_events', description: 'Lists events.', parameters: CANONICAL_SCHEMA },
    { title: 'Calendar events', annotations: { readOnlyHint: true } },
  );

  it.each<[string, McpSdkTool]>([
    [
      '2024-11-05',
      {
        name: 'get_calendar_events',
        description: 'Lists events.',
        inputSchema: CANONICAL_SCHEMA as unknown as McpSdkTool['inputSchema'],
      },
    ],
    [
      '2025-03-26',
      {
        name: 'get_calendar_events',
        description: 'Lists events.',
        inputSchema: CANONICAL_SCHEMA as unknown as McpSdkTool['inputSchema'],
        annotations: { title: 'Calendar events', readOnlyHint: true },
      },
    ],
    [
      '2025-06-18',
      {
        name: 'get_calendar_events',
        title: 'Calendar events',
        description: 'Lists events.',
        inputSchema: CANONICAL_SCHEMA as unknown as McpSdkTool['inputSchema'],
        annotations: { title: 'Calendar events', readOnlyHint: true },
      },
    ],
  ])('%s', (version, expected) => {
    const [tool] = mcp.toTools([titled], { version });
    const typed: McpSdkTool = tool!;
    expect(typed).toEqual(expected);
  });

  it('the default is the current protocol', () => {
    expect(mcp.toTools([titled])).toEqual(mcp.toTools([titled], { version: '2025-11-25' }));
  });
});

describe('providers whose tool format has not changed since tool calling began', () => {
  it.each<[ProviderId, string]>([
    ['openai-responses', '2025-04'],
    ['mistral', '2024-03'],
    ['ollama', '2024-08'],
    ['bedrock', '2024-06'],
    ['cohere', '2024-10'],
    ['hermes', '2024-04'],
  ])('%s %s: the same definition as the current version', (provider, version) => {
    expect(adapt(canonicalDefinition(), provider, { version })).toEqual(adapt(canonicalDefinition(), provider));
  });
});
