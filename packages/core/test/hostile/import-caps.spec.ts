import 'reflect-metadata';
import {
  DEFAULT_JSON_SCHEMA_LIMITS,
  definitionFromJsonSchema,
  PersonaToolExecutor,
  silentLogger,
  ToolRegistry,
} from '@toolwright/core';

const LONG = 'v'.repeat(1_000);

function enumTool(validation: 'compiled' | 'reference'): PersonaToolExecutor {
  const registry = new ToolRegistry({ logger: silentLogger });
  const values = Array.from({ length: 9_990 }, (_, index) => `${LONG}${index}`);
  registry.registerJsonSchemaTool(
    {
      name: 'pick',
      description: 'Pick one',
      parameters: { type: 'object', properties: { choice: { type: 'string', enum: values } }, required: ['choice'] },
    },
    async (params) => params,
    { untrusted: true, limits: { maxNodes: 20_000 } },
  );
  return new PersonaToolExecutor(registry, { logger: silentLogger, validation });
}

describe('imported enums, examples, descriptions and defaults stay small in messages and the IR', () => {
  it.each(['compiled', 'reference'] as const)(
    'a refusal against an enum of 9,990 long values is a short message (%s)',
    async (validation) => {
      const result = await enumTool(validation).execute({ id: 'c1', name: 'pick', arguments: { choice: 'nope' } });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.message).toContain('(and 9970 more)');
      expect(result.error.message.length).toBeLessThan(4_000);
      expect(JSON.stringify(result.error).length).toBeLessThan(12_000);
    },
  );

  it('clips untrusted descriptions and titles, keeps at most 5 small examples and drops a large default', () => {
    const huge = { blob: 'x'.repeat(5_000) };
    const definition = definitionFromJsonSchema(
      {
        name: 'remote',
        description: 'd'.repeat(10_000),
        parameters: {
          type: 'object',
          properties: {
            text: {
              type: 'string',
              description: 'p'.repeat(10_000),
              title: 't'.repeat(5_000),
              examples: ['a', 'b', 'x'.repeat(5_000), 'c', 'd', 'e', 'f', 'g'],
              default: 'x'.repeat(5_000),
            },
            small: { type: 'object', default: { a: 1 }, examples: [huge, { a: 2 }] },
          },
        },
      },
      { untrusted: true },
    );
    expect(definition.description).toBe(
      `${'d'.repeat(DEFAULT_JSON_SCHEMA_LIMITS.maxDescriptionLength)}... [clipped from 10000 characters]`,
    );
    const [text, small] = definition.parameters.properties;
    expect(text!.schema.description!.length).toBeLessThan(4_200);
    expect(text!.schema.title!.length).toBeLessThan(4_200);
    expect(text!.schema.examples).toEqual(['a', 'b', 'c', 'd']);
    expect(text!.schema.default).toBeUndefined();
    expect(small!.schema.default).toEqual({ a: 1 });
    expect(small!.schema.examples).toEqual([{ a: 2 }]);
  });

  it('clips an untrusted tool title of 262,144 characters and the string values of its annotations (issue 28)', () => {
    const definition = definitionFromJsonSchema(
      {
        name: 'remote',
        title: 't'.repeat(262_144),
        annotations: { readOnlyHint: true, note: 'n'.repeat(262_144) } as never,
      },
      { untrusted: true },
    );
    expect(definition.options.title).toBe(`${'t'.repeat(4_096)}... [clipped from 262144 characters]`);
    expect(definition.options.annotations).toEqual({
      readOnlyHint: true,
      note: `${'n'.repeat(4_096)}... [clipped from 262144 characters]`,
    });
  });

  it('leaves a trusted (developer) schema as written', () => {
    const definition = definitionFromJsonSchema({
      name: 'local',
      description: 'd'.repeat(10_000),
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'p'.repeat(10_000), examples: ['a', 'b', 'c', 'd', 'e', 'f'] },
        },
      },
    });
    expect(definition.description).toHaveLength(10_000);
    expect(definition.parameters.properties[0]!.schema.examples).toHaveLength(6);
  });
});
