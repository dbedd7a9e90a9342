import 'reflect-metadata';
import { PersonaToolExecutor, silentLogger, type ToolResult } from '@toolwright/core';
import { McpContent, toCallToolResult, toMcpTool } from '@toolwright/mcp';
import { createTestRegistry } from '../support/test-commands';

const ok = (value: unknown): ToolResult => ({
  callId: 'c',
  tool: 't',
  ok: true,
  value,
  transformations: [],
  durationMs: 1,
});

describe('toCallToolResult', () => {
  it('an object: structuredContent plus the same JSON as text', () => {
    const value = { id: 'evt_1', start: new Date('2026-11-23T14:00:00.000Z'), missing: undefined };
    expect(toCallToolResult(ok(value))).toEqual({
      content: [{ type: 'text', text: '{"id":"evt_1","start":"2026-11-23T14:00:00.000Z"}' }],
      structuredContent: { id: 'evt_1', start: '2026-11-23T14:00:00.000Z' },
    });
  });

  it('a string as is; arrays, numbers, booleans and null as JSON text', () => {
    expect(toCallToolResult(ok('plain'))).toEqual({ content: [{ type: 'text', text: 'plain' }] });
    expect(toCallToolResult(ok([1, 2]))).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(toCallToolResult(ok(42))).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(toCallToolResult(ok(null))).toEqual({ content: [{ type: 'text', text: 'null' }] });
    expect(toCallToolResult(ok(undefined))).toEqual({ content: [{ type: 'text', text: '' }] });
    expect(toCallToolResult(ok(10n))).toEqual({ content: [{ type: 'text', text: '10' }] });
  });

  it('a bigint inside an object: a string of digits in the text and structuredContent (the one MCP mapping)', () => {
    expect(toCallToolResult(ok({ id: 10n }))).toEqual({
      content: [{ type: 'text', text: '{"id":"10"}' }],
      structuredContent: { id: '10' },
    });
  });

  it('McpContent: its blocks (and structured content) unchanged', () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    expect(toCallToolResult(ok(new McpContent([image], { width: 1 })))).toEqual({
      content: [image],
      structuredContent: { width: 1 },
    });
  });

  it('an error: isError with the model-facing message only', () => {
    const failed: ToolResult = {
      callId: 'c',
      tool: 't',
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'The arguments for "t" are invalid: ...',
        issues: [],
        retryable: true,
      },
      transformations: [],
      durationMs: 1,
    };
    expect(toCallToolResult(failed)).toEqual({
      content: [{ type: 'text', text: 'The arguments for "t" are invalid: ...' }],
      isError: true,
    });
  });

  it('runs end to end with the executor: a handler failure never leaks its cause', async () => {
    const executor = new PersonaToolExecutor(createTestRegistry(), { logger: silentLogger });
    const result = toCallToolResult(await executor.execute({ id: '1', name: 'explode', arguments: {} }));
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toMatch(/hunter2|db\.ts|\n\s+at /);
  });
});

describe('toMcpTool', () => {
  const registry = createTestRegistry();

  it('a decorated command: title, description, annotations with the title, schema without context fields', () => {
    expect(toMcpTool(registry.get('save_note')!)).toMatchObject({
      name: 'save_note',
      title: 'Save a note',
      description: 'Save a note for this session.',
      annotations: { title: 'Save a note', readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['text'] },
    });
    expect(Object.keys(toMcpTool(registry.get('save_note')!).inputSchema.properties!)).toEqual(['text', 'priority']);
  });

  it('no annotations, no empty description', () => {
    registry.registerJsonSchemaTool({ name: 'bare', parameters: { type: 'object' } }, () => 'ok');
    expect(toMcpTool(registry.get('bare')!)).toEqual({ name: 'bare', inputSchema: { type: 'object' } });
  });

  it('a JSON Schema tool keeps its declared schema, and the listing cannot alter the registered one', () => {
    const listed = toMcpTool(registry.get('set_address')!);
    expect(listed.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    });
    (listed.inputSchema as Record<string, unknown>)['additionalProperties'] = true;
    expect(toMcpTool(registry.get('set_address')!).inputSchema['additionalProperties']).toBe(false);
  });
});
