import 'reflect-metadata';
import { DefinitionError } from '@toolwright/core';
import type { Tool } from '@modelcontextprotocol/server';
import { importRemoteTool, type RemoteToolImportOptions } from '@toolwright/mcp';
import { clientMessages } from '../../src/messages';

/**
 * Issue 28, failure 2 (and the text caps): every string an MCP server's tool brings that reaches a prompt, a log or a
 * listing is capped at 4,096 characters by the one clip of the import; an allowed value that is longer refuses the tool.
 */

const HUGE = 262_144;
const CAP = 4_096;
const clipped = (length: number) => `... [clipped from ${length} characters]`;

function options(overrides: Partial<RemoteToolImportOptions> = {}): RemoteToolImportOptions {
  return {
    server: 'big',
    namespace: 'big',
    trustAnnotations: false,
    toolOptions: {},
    warn: () => undefined,
    ...overrides,
  };
}

describe('imported MCP tool text is capped', () => {
  it('a 262,144-character title (the tool’s own, or its annotation title) is clipped like a description', () => {
    for (const tool of [
      { name: 'a', title: 't'.repeat(HUGE), inputSchema: { type: 'object' } },
      { name: 'a', annotations: { title: 't'.repeat(HUGE) }, inputSchema: { type: 'object' } },
    ] as Tool[]) {
      const definition = importRemoteTool(tool, options());
      expect(definition.options.title).toBe(`${'t'.repeat(CAP)}${clipped(HUGE)}`);
    }
  });

  it('every kind of imported string is capped: descriptions, parameter titles at any depth, examples, defaults, annotations', () => {
    const long = (letter: string) => letter.repeat(HUGE);
    const tool = {
      name: 'every',
      title: long('t'),
      description: long('d'),
      inputSchema: {
        type: 'object',
        properties: {
          text: {
            type: 'string',
            title: long('p'),
            description: long('q'),
            examples: ['short', long('e')],
            default: long('f'),
          },
          list: {
            type: 'array',
            items: { type: 'object', title: long('i'), description: long('j'), properties: {} },
          },
        },
      },
      annotations: { readOnlyHint: true, note: long('n') } as Tool['annotations'],
    } as Tool;
    const definition = importRemoteTool(tool, options({ trustAnnotations: true }));
    const strings: string[] = [];
    const collect = (value: unknown) => {
      if (typeof value === 'string') strings.push(value);
      else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
    };
    collect({ ...definition, source: undefined });
    expect(strings.length).toBeGreaterThan(8);
    for (const text of strings) expect(text.length).toBeLessThanOrEqual(CAP + clipped(HUGE).length);
    const [text, list] = definition.parameters.properties;
    expect(text!.schema.examples).toEqual(['short']);
    expect(text!.schema.default).toBeUndefined();
    expect(list!.schema.kind === 'array' && list!.schema.items.title).toBe(`${'i'.repeat(CAP)}${clipped(HUGE)}`);
    expect((definition.options.annotations as Record<string, unknown>)['note']).toBe(
      `${'n'.repeat(CAP)}${clipped(HUGE)}`,
    );
  });

  it('an enum or const value longer than the cap refuses the tool (an allowed value cannot be clipped)', () => {
    const schemas: { [keyword: string]: string | string[] }[] = [
      { enum: ['ok', 'v'.repeat(CAP + 1)] },
      { const: 'v'.repeat(CAP + 1) },
    ];
    for (const schema of schemas) {
      const tool = {
        name: 'pick',
        inputSchema: { type: 'object', properties: { choice: { type: 'string', ...schema } } },
      } as Tool;
      expect(() => importRemoteTool(tool, options())).toThrow(DefinitionError);
      expect(() => importRemoteTool(tool, options())).toThrow(/4097 characters long; imported text is capped at 4096/);
    }
    const fits = { name: 'pick', inputSchema: { type: 'object', properties: { c: { enum: ['v'.repeat(CAP)] } } } };
    expect(importRemoteTool(fits as Tool, options()).parameters.properties[0]!.schema.enum).toEqual(['v'.repeat(CAP)]);
  });
});

describe("a server's stderr in the client's log messages", () => {
  it('is one line whatever the server wrote (issue 28, failure 5)', () => {
    const text = 'boot\n\u2028[toolwright] forged\u2029\u0085\r\u000b\u000c';
    for (const message of [clientMessages.stderr('s', text), clientMessages.disconnected('s', text)]) {
      expect(message).not.toMatch(/[\n\u2028\u2029\u0085\r\u000b\u000c]/);
      expect(message).toContain('boot\\n\\u2028[toolwright] forged\\u2029\\u0085');
    }
  });
});
