import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { silentLogger, ToolContent, ToolRegistry } from '@toolwright/core';
import { McpContent, serveMcp } from '@toolwright/mcp';
import { StreamClientTransport } from '../support/stream-client-transport';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

function bigValue(count = 20_000): { orders: { id: number; note: string }[] } {
  return {
    orders: Array.from({ length: count }, (_, index) => ({ id: index, note: `order ${index}: ${'x'.repeat(240)}` })),
  };
}

const ORDERS_SCHEMA = {
  type: 'object',
  properties: {
    orders: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, note: { type: 'string' } } },
    },
  },
  required: ['orders'],
};

function resultsRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.registerJsonSchemaTool(
    { name: 'list_orders', inputSchema: { type: 'object', properties: { cursor: { type: 'string' } } } },
    () => bigValue(),
  );
  // About 800,000 characters: over the result budget, within the structured content's own bound (1,000,000).
  registry.registerJsonSchemaTool({ name: 'typed_orders', outputSchema: ORDERS_SCHEMA }, () => bigValue(3_000));
  // About 1.2 MB: over both.
  registry.registerJsonSchemaTool({ name: 'typed_everything', outputSchema: ORDERS_SCHEMA }, () => bigValue(4_500));
  registry.registerJsonSchemaTool({ name: 'get_order' }, () => ({ id: 'o-1', supplier: 'secret supplier' }), {
    toModelOutput: (value: { id: string }) => `Order ${value.id}`,
  });
  registry.registerJsonSchemaTool(
    { name: 'chart' },
    () =>
      new ToolContent([
        { type: 'text', text: 'Sales by month' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ]),
  );
  return registry;
}

async function connected(): Promise<{ client: Client; close: () => Promise<void> }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const handle = await serveMcp(resultsRegistry(), { transport: 'stdio', stdin, stdout, logger: silentLogger });
  const client = new Client({ name: 'results-client', version: '1.0.0' });
  await client.connect(new StreamClientTransport(stdout, stdin));
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
      await handle.closed;
    },
  };
}

describe('serveMcp sends the model view, within the result budget (the MCP SDK client)', () => {
  it('a 5 MB result is cut to the budget, stays valid JSON, says what was cut; no structuredContent without an output schema', async () => {
    const { client, close } = await connected();
    try {
      const result = await client.callTool({ name: 'list_orders', arguments: {} });
      expect(result.isError).toBeUndefined();
      const texts = result.content.map((block) => (block as { text: string }).text);
      expect(texts.join('').length).toBeLessThanOrEqual(80_000 + 200);
      expect((JSON.parse(texts[0]!) as { orders: unknown[] }).orders.length).toBeLessThan(20_000);
      expect(texts[1]).toContain('This result was cut to fit the tool-result budget of 80,000 characters');
      expect(texts[1]).toContain('call list_orders again with its `cursor` parameter');
      expect(texts[2]).toBe('[The structured content of this result was left out too: it is over the budget.]');
      expect(result.structuredContent).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('a tool with an output schema: the text is cut, structuredContent is sent whole (the SDK client validates it)', async () => {
    const { client, close } = await connected();
    try {
      const result = await client.callTool({ name: 'typed_orders', arguments: {} });
      expect(result.isError).toBeUndefined();
      expect((result.structuredContent as { orders: unknown[] }).orders).toHaveLength(3_000);
      expect((result.content[1] as { text: string }).text).toContain('This result was cut');
      // Over the structured content's own bound: never cut into a shape the schema refuses, the call fails plainly.
      const huge = await client.callTool({ name: 'typed_everything', arguments: {} });
      expect(huge.isError).toBe(true);
      expect((huge.content[0] as { text: string }).text).toMatch(
        /^The result of typed_everything is too large to send: its structured content is over 1000000 characters/,
      );
    } finally {
      await close();
    }
  });

  it('toModelOutput: the content is the view; structuredContent the value', async () => {
    const { client, close } = await connected();
    try {
      const result = await client.callTool({ name: 'get_order', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Order o-1' }]);
      expect(result.structuredContent).toEqual({ id: 'o-1', supplier: 'secret supplier' });
    } finally {
      await close();
    }
  });

  it('an image round trip: the SDK client receives the bytes and the media type as an MCP image block', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = await serveMcp(resultsRegistry(), { transport: 'stdio', stdin, stdout, logger: silentLogger });
    const sdk = new Client({ name: 'results-client', version: '1.0.0' });
    await sdk.connect(new StreamClientTransport(stdout, stdin));
    try {
      const result = await sdk.callTool({ name: 'chart', arguments: {} });
      expect(result.content).toEqual([
        { type: 'text', text: 'Sales by month' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ]);
      expect(McpContent).toBe(ToolContent);
    } finally {
      await sdk.close();
      await handle.close();
      await handle.closed;
    }
  });
});
