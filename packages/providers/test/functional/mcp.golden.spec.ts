import 'reflect-metadata';
import type { CallToolRequest, CallToolResult, Tool } from '@modelcontextprotocol/server';
import { definitionFromJsonSchema } from '@toolwright/core';
import * as mcp from '@toolwright/providers/mcp';
import { CANONICAL_ARGUMENTS, CANONICAL_DESCRIPTION, CANONICAL_RESULT, CANONICAL_SCHEMA } from '../support/canonical';
import { loadFixture } from '../support/fixtures';
import { seedRegistry } from '../support/seed-commands';

const fixture = loadFixture('mcp');

function annotatedCanonical() {
  return definitionFromJsonSchema({
    name: 'get_calendar_events',
    title: 'Get calendar events',
    description: CANONICAL_DESCRIPTION,
    parameters: CANONICAL_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: true },
  });
}

describe('MCP: the canonical tool', () => {
  it('is the reference tools/list entry (its outputSchema aside: the IR has none)', () => {
    const tools: Tool[] = mcp.toTools([annotatedCanonical()]);
    expect(tools).toEqual([fixture['tool']]);
  });

  it('parses tools/call requests (the JSON-RPC id is the call id)', () => {
    const request = fixture['request'] as CallToolRequest & { id: number };
    expect(mcp.parseToolCalls(request)).toEqual([
      {
        id: '7',
        name: 'get_calendar_events',
        providerName: 'get_calendar_events',
        arguments: CANONICAL_ARGUMENTS,
        transformations: [],
      },
    ]);
    expect(mcp.parseToolCalls({ jsonrpc: '2.0', id: 8, method: 'tools/list' })).toEqual([]);
  });

  it('gives results back as CallToolResult, errors with isError', () => {
    const success: CallToolResult = mcp.toToolResultMessage({
      callId: '7',
      tool: 'get_calendar_events',
      ok: true,
      value: CANONICAL_RESULT,
      transformations: [],
      durationMs: 1,
    });
    expect(success).toEqual(fixture['result']);
    const failure: CallToolResult = mcp.toToolResultMessage({
      callId: '7',
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
    });
    expect(failure).toEqual(fixture['error']);
  });

  it('imports the tool back with its title and annotations', () => {
    const definition = annotatedCanonical();
    const [tool] = mcp.toTools([definition]);
    const imported = mcp.fromTool(tool as mcp.McpTool);
    expect(imported.parameters).toEqual(definition.parameters);
    expect(imported.options).toEqual({
      title: 'Get calendar events',
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
  });
});

describe('MCP: the seed commands', () => {
  it('keeps names that MCP allows and encodes the slash', () => {
    const tools: Tool[] = mcp.toTools(seedRegistry());
    expect(tools.map((tool) => tool.name)).toEqual(['decision_propose', 'get_calendar_events']);
    expect(mcp.toTools([{ ...annotatedCanonical(), name: 'math.factorial' }])[0]?.name).toBe('math.factorial');
  });
});
