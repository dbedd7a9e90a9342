import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, ToolRegistry } from '@toolwright/core';
import { providerDefinitions } from '../../src/commands/describe-providers';
import { describeRegistry } from '../../src/inspector/describe-registry';

function registryWithOutput(): ToolRegistry {
  const registry = new ToolRegistry({ logger: silentLogger });
  registry.registerJsonSchemaTool(
    { name: 'count', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    (params) => ({ count: params['n'] }),
    { outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } },
  );
  registry.registerJsonSchemaTool({ name: 'plain' }, () => 'no output schema');
  return registry;
}

describe('output schemas in the CLI', () => {
  it('`toolwright tools` shows the MCP outputSchema and the Gemini response; providers without one ignore it', () => {
    const [mcp, openai, gemini] = providerDefinitions(registryWithOutput(), ['mcp', 'openai', 'gemini']);
    expect(gemini!.tools[0]).toMatchObject({
      name: 'count',
      response: { type: 'OBJECT', properties: { count: { type: 'INTEGER' } }, required: ['count'] },
    });
    expect(gemini!.tools[1]).not.toHaveProperty('response');
    expect(mcp!.tools[0]).toMatchObject({
      name: 'count',
      outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
    });
    expect(mcp!.tools[1]).not.toHaveProperty('outputSchema');
    expect(JSON.stringify(openai!.tools)).not.toContain('outputSchema');
  });

  it('the inspector describes what a tool returns', async () => {
    const registry = registryWithOutput();
    const described = await describeRegistry(registry, {
      source: 'test',
      allowRun: false,
      defaultContext: {},
      executor: new PersonaToolExecutor(registry, { logger: silentLogger }),
    });
    expect(described.tools[0]!.output).toMatchObject({
      kind: 'object',
      properties: [{ name: 'count', required: true, schema: { kind: 'int' } }],
    });
    expect(described.tools[1]).not.toHaveProperty('output');
  });
});
