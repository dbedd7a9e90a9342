import 'reflect-metadata';
import { DefinitionError } from '@toolwright/core';
import type { Tool } from '@modelcontextprotocol/server';
import { importRemoteTool, McpContent, type RemoteToolImportOptions } from '@toolwright/mcp';
import { errorTextOfResult, valueOfResult } from '../../src/client/remote-tools';

const TOOL: Tool = {
  name: 'control_zwave_device',
  title: 'Control a device',
  description: 'Switch a device.',
  inputSchema: {
    type: 'object',
    properties: { deviceName: { type: 'string' }, action: { type: 'string', enum: ['on', 'off'] } },
    required: ['deviceName', 'action'],
  },
  annotations: { title: 'Control (annotation title)', readOnlyHint: true, destructiveHint: false },
};

function options(overrides: Partial<RemoteToolImportOptions> = {}): RemoteToolImportOptions & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    server: 'zwave',
    namespace: 'zwave',
    trustAnnotations: false,
    toolOptions: {},
    warn: (message) => warnings.push(message),
    warnings,
    ...overrides,
  };
}

describe('importRemoteTool', () => {
  it('namespaces the tool, keeps title and description, drops untrusted annotations', () => {
    const definition = importRemoteTool(TOOL, options());
    expect(definition.name).toBe('zwave.control_zwave_device');
    expect(definition.description).toBe('Switch a device.');
    expect(definition.options.title).toBe('Control a device');
    expect(definition.options.annotations).toBeUndefined();
    expect(definition.source).toEqual({ kind: 'json-schema', schema: TOOL.inputSchema });
  });

  it('keeps annotations from a trusted server, and the annotation title when there is no title', () => {
    const { title: _title, ...untitled } = TOOL;
    const definition = importRemoteTool(untitled, options({ trustAnnotations: true, namespace: undefined }));
    expect(definition.name).toBe('control_zwave_device');
    expect(definition.options.title).toBe('Control (annotation title)');
    expect(definition.options.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
  });

  it('adds the mapping table as declared aliases, and reports entries that cannot apply', () => {
    const settings = options({
      aliases: { device_name: 'deviceName', command: 'action', level: 'brightness', action: 'deviceName' },
    });
    const definition = importRemoteTool(TOOL, settings);
    expect(definition.parameters.properties.map((property) => [property.name, property.aliases])).toEqual([
      ['deviceName', ['device_name']],
      ['action', ['command']],
    ]);
    expect(settings.warnings).toEqual([
      'MCP server \'zwave\': parameterAliases maps "level" to "brightness", which is not a top-level parameter of "control_zwave_device"; the alias is ignored',
      'MCP server \'zwave\': parameterAliases maps "action" for "control_zwave_device", but "action" is already a parameter name there; the alias is ignored',
    ]);
    expect(Object.isFrozen(definition.parameters.properties[0])).toBe(true);
  });

  it('applies the tool options (timeout, tags, permissions)', () => {
    const definition = importRemoteTool(
      TOOL,
      options({ toolOptions: { timeoutMs: 1_234, tags: ['home'], permissions: ['devices'] } }),
    );
    expect(definition.options).toMatchObject({ timeoutMs: 1_234, tags: ['home'], permissions: ['devices'] });
  });

  it('bounds untrusted schemas: too deep, ReDoS-prone patterns and unsupported keywords are refused', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 40; level++) deep = { type: 'object', properties: { x: deep } };
    const tool = (inputSchema: Record<string, unknown>): Tool => ({
      name: 'bad',
      inputSchema: { type: 'object', ...inputSchema },
    });
    expect(() => importRemoteTool(tool({ properties: { x: deep } }), options())).toThrow(DefinitionError);
    expect(() =>
      importRemoteTool(tool({ properties: { s: { type: 'string', pattern: '^(a+)+$' } } }), options()),
    ).toThrow(/nests a quantifier inside a quantified group/);
    expect(() => importRemoteTool(tool({ properties: { s: { not: { type: 'string' } } } }), options())).toThrow(
      /The keyword 'not' excludes values by a schema/,
    );
  });
});

describe('remote results', () => {
  it('structuredContent wins; all-text content becomes one string; anything else stays MCP content', () => {
    expect(valueOfResult({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } })).toEqual({
      a: 1,
    });
    expect(
      valueOfResult({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\ntwo');
    expect(valueOfResult({ content: [] })).toBe('');
    const mixed = valueOfResult({
      content: [
        { type: 'text', text: 'see' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    });
    expect(McpContent.isInstance(mixed)).toBe(true);
    expect(JSON.parse(JSON.stringify(mixed))).toEqual({
      content: [
        { type: 'text', text: 'see' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    });
  });

  it('structuredContent with an image or a resource: both kept, the blocks as content and the object beside them', () => {
    const blocks = [
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: 'a chart' },
      { type: 'resource', resource: { uri: 'file:///r.csv', mimeType: 'text/csv', text: 'a,b' } },
    ] as const;
    const value = valueOfResult({ content: [...blocks], structuredContent: { points: 3 } });
    expect(McpContent.isInstance(value)).toBe(true);
    expect((value as McpContent).content).toEqual(blocks);
    expect((value as McpContent).structuredContent).toEqual({ points: 3 });
    expect(JSON.parse(JSON.stringify(value))).toEqual({ content: blocks, structuredContent: { points: 3 } });
  });

  it('an error result gives its text, or says there was none', () => {
    expect(errorTextOfResult({ content: [{ type: 'text', text: 'offline' }], isError: true })).toBe('offline');
    expect(
      errorTextOfResult({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], isError: true }),
    ).toBe('the server gave no message');
  });
});

describe('remote results are bounded (issue 11)', () => {
  it('all-text: the first maxChars characters, then a notice with the real length', () => {
    const value = valueOfResult({ content: [{ type: 'text', text: 'x'.repeat(9 * 1024 * 1024) }] }, 1_000) as string;
    expect(value).toBe(
      `${'x'.repeat(1_000)}\n[toolwright: the result was truncated: 9437184 characters long, the first 1000 are shown. Ask for less (a narrower query, a page, a summary) to see the rest.]`,
    );
  });

  it('several text blocks are cut across the join', () => {
    const value = valueOfResult(
      {
        content: [
          { type: 'text', text: 'abc' },
          { type: 'text', text: 'defgh' },
        ],
      },
      6,
    ) as string;
    expect(value.split('\n[toolwright')[0]).toBe('abc\nde');
    expect(value).toContain('9 characters long, the first 6 are shown');
  });

  it('structured content too large becomes its cut JSON text with the notice', () => {
    const value = valueOfResult({ content: [], structuredContent: { rows: 'y'.repeat(5_000) } }, 100) as string;
    expect(value.startsWith('{"rows":"yyy')).toBe(true);
    expect(value).toContain('[toolwright: the result was truncated: 5011 characters long, the first 100 are shown.');
  });

  it('MCP content: blocks that fit are kept, a text block is cut, an image that does not fit is left out, a notice ends it', () => {
    const value = valueOfResult(
      {
        content: [
          { type: 'text', text: 'a'.repeat(60) },
          { type: 'image', data: 'B'.repeat(80), mimeType: 'image/png' },
          { type: 'text', text: 'c'.repeat(60) },
        ],
      },
      100,
    );
    expect(McpContent.isInstance(value)).toBe(true);
    expect((value as McpContent).content).toEqual([
      { type: 'text', text: 'a'.repeat(60) },
      { type: 'text', text: 'c'.repeat(40) },
      {
        type: 'text',
        text: '[toolwright: the result was truncated: 200 characters of content, 100 kept; 1 content block left out. Ask for less to see the rest.]',
      },
    ]);
  });

  it('structuredContent and blocks share maxChars: the blocks get what the structured JSON leaves', () => {
    const value = valueOfResult(
      {
        content: [
          { type: 'text', text: 'a'.repeat(30) },
          { type: 'image', data: 'B'.repeat(80), mimeType: 'image/png' },
        ],
        structuredContent: { n: 'x'.repeat(52) },
      },
      100,
    ) as McpContent;
    // `{"n":"x…"}` is 60 characters: 40 are left, the text fits, the image does not.
    expect(value.structuredContent).toEqual({ n: 'x'.repeat(52) });
    expect(value.content).toEqual([
      { type: 'text', text: 'a'.repeat(30) },
      {
        type: 'text',
        text: '[toolwright: the result was truncated: 110 characters of content, 30 kept; 1 content block left out. Ask for less to see the rest.]',
      },
    ]);
    // Structured content over the bound alone: its cut JSON text, as for a result without blocks.
    const over = valueOfResult(
      { content: [{ type: 'image', data: 'B', mimeType: 'image/png' }], structuredContent: { n: 'x'.repeat(200) } },
      100,
    );
    expect(typeof over).toBe('string');
    expect(over).toContain('the result was truncated: 208 characters long, the first 100 are shown');
  });

  it('within the limit nothing changes', () => {
    expect(valueOfResult({ content: [{ type: 'text', text: 'x'.repeat(100) }] }, 100)).toBe('x'.repeat(100));
  });
});
