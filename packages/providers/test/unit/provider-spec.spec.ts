/**
 * The provider spec: every provider object implements it, the root's maps are derived from the one table with each
 * provider's own types, and lowering returns its lint findings in the same pass.
 */
import 'reflect-metadata';
import { definitionFromJsonSchema } from '@toolwright/core';
import { getProviders, lint, PROVIDERS, type ProviderOptionsMap, type ProviderToolMap } from '@toolwright/providers';
import type { GeminiFunctionDeclaration } from '@toolwright/providers/gemini';
import type { McpToolsOptions } from '@toolwright/providers/mcp';
import type { OpenAIChatTool, OpenAIToolsOptions } from '@toolwright/providers/openai';
import * as gemini from '@toolwright/providers/gemini';
import * as openai from '@toolwright/providers/openai';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compile-time checks: each fails the type-check (and so the suite) when the derived map loses the provider's type. */
const derivedTypes: [
  Equal<ProviderToolMap['openai'], OpenAIChatTool>,
  Equal<ProviderOptionsMap['openai'], OpenAIToolsOptions>,
  Equal<ProviderToolMap['gemini'], GeminiFunctionDeclaration>,
  Equal<ProviderOptionsMap['mcp'], McpToolsOptions>,
] = [true, true, true, true];

const definitions = [
  definitionFromJsonSchema({
    name: 'find_events',
    description: 'Find events.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['query'],
    },
  }),
];

describe('the provider spec', () => {
  it('derives the maps from the one table', () => {
    expect(derivedTypes).toEqual([true, true, true, true]);
    expect(getProviders().map((provider) => provider.id)).toEqual(Object.keys(PROVIDERS));
  });

  it.each(getProviders().map((provider) => [provider.id, provider] as const))(
    '%s: lower returns the tool set and the findings about it in one pass',
    (_id, provider) => {
      const { toolSet, findings } = provider.lower(
        definitions,
        { strict: provider.supportsStrict },
        { strict: provider.supportsStrict },
      );
      expect(toolSet.tools).toEqual(provider.createToolSet(definitions, { strict: provider.supportsStrict }).tools);
      const fromLint = lint(definitions, { providers: [provider.id], strict: provider.supportsStrict }).filter(
        (finding) =>
          !finding.rule.startsWith('name-') &&
          !finding.rule.startsWith('description-') &&
          finding.rule !== 'tool-count',
      );
      expect(findings).toEqual(fromLint);
    },
  );

  it('the lowering findings are real: keywords a provider cannot take are reported where they were moved', () => {
    const rules = getProviders().flatMap((provider) =>
      provider
        .lower(definitions, { strict: provider.supportsStrict }, { strict: provider.supportsStrict })
        .findings.map((finding) => `${finding.provider} ${finding.rule}`),
    );
    expect(rules).toContain('ollama unsupported-keyword');
  });

  it('derives toTools and the default toMessages from the spec', () => {
    expect(PROVIDERS.openai.toTools(definitions)).toEqual(openai.toTools(definitions));
    // Gemini's module-level toTools stays its own: one `Tool` wrapping every declaration.
    expect(gemini.toTools(definitions)).toEqual([{ functionDeclarations: PROVIDERS.gemini.toTools(definitions) }]);
    const result = {
      callId: 'c1',
      tool: 'find_events',
      ok: true as const,
      value: { found: 1 },
      transformations: [],
      durationMs: 1,
    };
    expect(PROVIDERS.openai.results.toMessages([result, { ...result, callId: 'c2' }])).toEqual(
      openai.toToolResultMessages([result, { ...result, callId: 'c2' }]),
    );
    expect(PROVIDERS.mcp.calls.createStreamAccumulator).toBeUndefined();
  });
});
