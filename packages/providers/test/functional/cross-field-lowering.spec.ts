import 'reflect-metadata';
import {
  Command,
  crossField,
  definitionFromJsonSchema,
  silentLogger,
  ToolParam,
  ToolRegistry,
  type ToolDefinition,
} from '@toolwright/core';
import { adapt, fromProviderTool, getProviders, splitNote, type ProviderId } from '@toolwright/providers';

const FILE_TOOL: ToolDefinition = definitionFromJsonSchema({
  name: 'read_file',
  description: 'Reads a file or echoes content.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      content: { type: 'string' },
      start: { type: 'integer' },
      end: { type: 'integer' },
    },
    oneOf: [{ required: ['path'] }, { required: ['content'] }],
    dependentRequired: { end: ['start'] },
    additionalProperties: false,
  },
});

const SENTENCES = 'When sending "end", also send "start". Send exactly one of "path" or "content".';
const CHAT_PROVIDERS = getProviders()
  .map((provider) => provider.id)
  .filter((id) => id !== 'mcp');

/** The provider's parameters object and description, whatever its wrapper. */
function partsOf(provider: ProviderId, tool: unknown): { description?: string; parameters: Record<string, unknown> } {
  const descriptor = getProviders().find((entry) => entry.id === provider)!;
  const parameters = descriptor.parametersOf(tool) as Record<string, unknown>;
  const record = tool as Record<string, any>;
  const description = record.description ?? record.function?.description ?? record.toolSpec?.description;
  return { description, parameters };
}

describe('cross-field rules in provider tool definitions', () => {
  it.each(CHAT_PROVIDERS)(
    '%s: moves the root keywords into the note and says the rules in the tool description',
    (provider) => {
      const { description, parameters } = partsOf(provider, adapt(FILE_TOOL, provider));
      expect(description).toBe(`Reads a file or echoes content. ${SENTENCES}`);
      for (const keyword of ['oneOf', 'anyOf', 'allOf', 'not', 'dependentRequired'])
        expect(parameters[keyword]).toBeUndefined();
      const note = splitNote(parameters['description'] as string | undefined).note;
      expect(note).toEqual({
        dependentRequired: { end: ['start'] },
        oneOf: [{ required: ['path'] }, { required: ['content'] }],
      });
    },
  );

  it.each(CHAT_PROVIDERS)('%s: fromProviderTool gets the rules and the original description back', (provider) => {
    const imported = fromProviderTool(adapt(FILE_TOOL, provider) as never, provider);
    expect(imported.description).toBe('Reads a file or echoes content.');
    expect(imported.parameters.crossFieldRules).toEqual(FILE_TOOL.parameters.crossFieldRules);
  });

  it.each(['openai', 'anthropic', 'mistral'] as const)(
    '%s strict mode: the rules still go into the note and round-trip',
    (provider) => {
      const tool = adapt(FILE_TOOL, provider, { strict: true });
      const { description, parameters } = partsOf(provider, tool);
      expect(description).toBe(`Reads a file or echoes content. ${SENTENCES}`);
      expect(parameters['oneOf']).toBeUndefined();
      expect(fromProviderTool(tool as never, provider).parameters.crossFieldRules).toEqual(
        FILE_TOOL.parameters.crossFieldRules,
      );
    },
  );

  it('mcp: keeps them as JSON Schema keywords in inputSchema', () => {
    const tool = adapt(FILE_TOOL, 'mcp');
    expect(tool.description).toBe('Reads a file or echoes content.');
    expect(tool.inputSchema).toMatchObject({
      dependentRequired: { end: ['start'] },
      oneOf: [{ required: ['path'] }, { required: ['content'] }],
    });
    expect(fromProviderTool(tool, 'mcp').parameters.crossFieldRules).toEqual(FILE_TOOL.parameters.crossFieldRules);
  });
});

describe('declarative rules of a class command reach the providers too', () => {
  class ShareParams {
    @ToolParam({ required: false }) email?: string;
    @ToolParam({ required: false }) phone?: string;
  }
  @Command({
    name: 'share',
    description: 'Shares a link.',
    params: ShareParams,
    crossFieldRules: [crossField.atLeastOne('email', 'phone')],
  })
  class Share {
    execute() {
      return 'ok';
    }
  }

  it('says the rule in the OpenAI description and keeps it as anyOf for MCP', () => {
    const registry = ToolRegistry.from([Share], { logger: silentLogger });
    const [definition] = registry.list();
    expect(adapt(definition!, 'openai').function.description).toBe(
      'Shares a link. Send at least one of "email" or "phone".',
    );
    expect(adapt(definition!, 'mcp').inputSchema).toMatchObject({
      anyOf: [{ required: ['email'] }, { required: ['phone'] }],
    });
  });
});
