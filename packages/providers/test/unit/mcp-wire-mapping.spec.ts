/**
 * The one MCP wire mapping (`@toolwright/providers/mcp`, also what `@toolwright/mcp`'s server sends): the points
 * where the two mappings used to disagree, each with the behaviour chosen (ADR 0014).
 */
import 'reflect-metadata';
import { ToolRegistry, type ToolResult } from '@toolwright/core';
import * as mcp from '@toolwright/providers/mcp';

const ok = (value: unknown): ToolResult => ({
  callId: 'c',
  tool: 't',
  ok: true,
  value,
  transformations: [],
  durationMs: 1,
});

describe('MCP results', () => {
  it('a bigint is its digits at the top level, and a string of digits inside an object (nothing lost)', () => {
    expect(mcp.toToolResultMessage(ok(12345678901234567890n), { successFlag: 'omitted' })).toEqual({
      content: [{ type: 'text', text: '12345678901234567890' }],
    });
    expect(mcp.toToolResultMessage(ok({ id: 7n, name: 'a' }), { successFlag: 'omitted' })).toEqual({
      content: [{ type: 'text', text: '{"id":"7","name":"a"}' }],
      structuredContent: { id: '7', name: 'a' },
    });
  });

  it('no value is empty text, with no structuredContent', () => {
    expect(mcp.toToolResultMessage(ok(undefined))).toEqual({ content: [{ type: 'text', text: '' }], isError: false });
  });

  it('isError: false on success by default, omitted with successFlag: omitted; errors always carry it', () => {
    expect(mcp.toToolResultMessage(ok('done'))).toEqual({ content: [{ type: 'text', text: 'done' }], isError: false });
    expect(mcp.toToolResultMessage(ok('done'), { successFlag: 'omitted' })).toEqual({
      content: [{ type: 'text', text: 'done' }],
    });
    const failed: ToolResult = {
      callId: 'c',
      tool: 't',
      ok: false,
      error: { code: 'HANDLER_ERROR', message: 'It failed.', issues: [], retryable: false },
      transformations: [],
      durationMs: 1,
    };
    expect(mcp.toToolResultMessage(failed, { successFlag: 'omitted' })).toEqual({
      content: [{ type: 'text', text: 'It failed.' }],
      isError: true,
    });
  });

  it('an error keeps its suggestions when the message does not name them', () => {
    const failed: ToolResult = {
      callId: 'c',
      tool: 't',
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'Unknown argument "calender".',
        issues: [],
        suggestions: ['calendar'],
        retryable: true,
      },
      transformations: [],
      durationMs: 1,
    };
    expect(mcp.toToolResultMessage(failed).content).toEqual([
      { type: 'text', text: 'Unknown argument "calender". Did you mean: calendar?' },
    ]);
  });
});

describe('MCP tool listing', () => {
  function registry(): ToolRegistry {
    const tools = new ToolRegistry();
    tools.registerJsonSchemaTool(
      {
        name: 'notes/export',
        description: 'Export notes.',
        parameters: {
          type: 'object',
          $defs: { format: { type: 'string', enum: ['md', 'txt'] } },
          properties: { format: { $ref: '#/$defs/format' } },
        },
      },
      () => 'ok',
    );
    return tools;
  }

  it('encodes names outside SEP-986 by default and lists them as registered on request', () => {
    expect(mcp.toTools(registry()).map((tool) => tool.name)).toEqual(['notes_export']);
    const toolSet = mcp.createToolSet(registry(), { names: 'as-registered' });
    expect(toolSet.tools.map((tool) => tool.name)).toEqual(['notes/export']);
    expect(
      mcp.parseToolCalls(
        { id: 1, method: 'tools/call', params: { name: 'notes/export', arguments: {} } },
        { toolSet },
      )[0]?.name,
    ).toBe('notes/export');
  });

  it('lists a JSON Schema tool with its declared schema ($defs and $ref kept), as a fresh copy', () => {
    const tools = registry();
    const [listed] = mcp.toTools(tools);
    expect(listed?.inputSchema).toEqual({
      type: 'object',
      $defs: { format: { type: 'string', enum: ['md', 'txt'] } },
      properties: { format: { $ref: '#/$defs/format' } },
    });
    (listed!.inputSchema as Record<string, unknown>)['type'] = 'string';
    expect(mcp.toTools(tools)[0]?.inputSchema.type).toBe('object');
  });
});
