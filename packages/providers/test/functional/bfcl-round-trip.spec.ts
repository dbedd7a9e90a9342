import 'reflect-metadata';
import { definitionFromJsonSchema, type ToolDefinition } from '@toolwright/core';
import { fromProviderTool, getProvider, getProviders, lint, type ProviderId } from '@toolwright/providers';
import { BFCL_QUESTION_FILES, bfclToJsonSchema, loadBfclEntries } from '../../../core/test/support/bfcl';

/**
 * Every BFCL v4 function definition, through every provider (and every strict variant) and back through
 * fromProviderTool, comes back as the same definition: same name (decoded with the tool set's codec), description
 * and parameters. Tool sets are BFCL's entries (the functions offered together).
 */
interface Variant {
  readonly provider: ProviderId;
  readonly options: Record<string, unknown>;
}

const VARIANTS: readonly Variant[] = [
  ...getProviders().map((provider) => ({ provider: provider.id, options: {} })),
  ...(['openai', 'openai-responses', 'anthropic', 'mistral', 'bedrock', 'cohere'] as const).map((provider) => ({
    provider,
    options: { strict: true },
  })),
  { provider: 'gemini', options: { schemaField: 'parametersJsonSchema' } },
  { provider: 'ollama', options: { lowering: 'none' } },
];

/** BFCL's entries as tool sets, each function once (the corpus repeats many): 3,264 distinct definitions. */
function toolSets(): ToolDefinition[][] {
  const seen = new Set<string>();
  const sets: ToolDefinition[][] = [];
  for (const file of BFCL_QUESTION_FILES) {
    for (const entry of loadBfclEntries(file)) {
      const fresh = entry.function.filter((definition) => {
        const key = JSON.stringify(definition);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (fresh.length === 0) continue;
      sets.push(
        fresh.map(({ name, description, parameters }) =>
          definitionFromJsonSchema(
            { name, description, parameters: bfclToJsonSchema(parameters) },
            { untrusted: true },
          ),
        ),
      );
    }
  }
  return sets;
}

describe('BFCL round trips through every provider', () => {
  const sets = toolSets();
  const functions = sets.reduce((count, set) => count + set.length, 0);

  it('covers the corpus (distinct tool sets)', () => {
    expect(functions).toBe(3264);
  });

  it.each(VARIANTS.map((variant) => [`${variant.provider} ${JSON.stringify(variant.options)}`, variant] as const))(
    '%s: definition -> provider -> fromProviderTool is stable',
    (_label, variant) => {
      const mismatches: string[] = [];
      for (const definitions of sets) {
        const { tools, codec } = getProvider(variant.provider).createToolSet(definitions, variant.options);
        tools.forEach((tool, index) => {
          const original = definitions[index] as ToolDefinition;
          const back = fromProviderTool(tool as never, variant.provider, { codec });
          if (
            back.name !== original.name ||
            back.description !== original.description ||
            JSON.stringify(back.parameters) !== JSON.stringify(original.parameters)
          ) {
            mismatches.push(original.name);
          }
        });
      }
      expect(mismatches).toEqual([]);
    },
  );
});

describe('BFCL names and lint', () => {
  const dotted = ['math.factorial', 'search_engine.query'];

  it('lint finds the BFCL names OpenAI rejects (dots) and passes once the codec is applied', () => {
    const definitions = toolSets().flat();
    const unique = [...new Map(definitions.map((definition) => [definition.name, definition])).values()];
    const raw = lint(unique, { providers: ['openai'] }).filter((finding) => finding.rule === 'name-pattern');
    const flagged = new Set(raw.map((finding) => finding.tool));
    for (const name of dotted) expect(flagged.has(name)).toBe(true);
    expect([...flagged].every((name) => !/^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(unique.filter((definition) => !/^[a-zA-Z0-9_-]{1,64}$/.test(definition.name)).length).toBe(flagged.size);
    expect(raw.find((finding) => finding.tool === 'math.factorial')).toMatchObject({
      provider: 'openai',
      severity: 'info', // the codec handles it
      message: expect.stringContaining('(it contains ".")'),
      fix: expect.stringContaining('"math_factorial"'),
    });
    const encoded = lint(unique, { providers: ['openai'], names: 'encoded' }).filter(
      (finding) => finding.rule === 'name-pattern' || finding.rule === 'name-collision',
    );
    expect(encoded).toEqual([]);
  });
});
