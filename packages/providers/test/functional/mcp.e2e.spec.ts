import 'reflect-metadata';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import * as mcp from '@toolwright/providers/mcp';
import {
  CALENDAR_ARGUMENTS,
  CALENDAR_VALUE,
  CONTEXT,
  PROPOSE_ARGUMENTS,
  PROPOSE_VALUE,
  seedExecutor,
} from '../support/seed-executor';

/**
 * The official MCP client talks to an MCP server (the SDK's own Server class) whose tools/list and tools/call
 * handlers are this module's shapes over the executor: the format interoperates with the SDK on both ends.
 */
describe('MCP SDK v2 client -> SDK server using the mcp shapes -> executor', () => {
  it('lists our tools, and calls come back as CallToolResult (errors with isError)', async () => {
    const { registry, executor } = seedExecutor();
    const toolSet = mcp.createToolSet(registry);
    const server = new Server({ name: 'toolwright-test', version: '0.1.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools: toolSet.tools }));
    server.setRequestHandler('tools/call', async (request) => {
      const [call] = mcp.parseToolCalls(request, { toolSet });
      if (!call) throw new Error('no call in request');
      return mcp.toToolResultMessage(await executor.execute(call, CONTEXT));
    });
    const client = new Client({ name: 'test-client', version: '0.1.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      const listed = await client.listTools();
      expect(listed.tools).toEqual(toolSet.tools);

      const propose = await client.callTool({
        name: 'decision_propose',
        arguments: PROPOSE_ARGUMENTS,
      });
      expect(propose).toEqual({
        content: [{ type: 'text', text: JSON.stringify(PROPOSE_VALUE) }],
        structuredContent: PROPOSE_VALUE,
        isError: false,
      });
      const calendar = await client.callTool({
        name: 'get_calendar_events',
        arguments: CALENDAR_ARGUMENTS,
      });
      expect(calendar.structuredContent).toEqual(CALENDAR_VALUE);

      const invalid = await client.callTool({
        name: 'decision_propose',
        arguments: { question: 'Q', options: [{ label: 'Only one', description: 'x' }] },
      });
      expect(invalid.isError).toBe(true);
      expect((invalid.content as Array<{ type: string; text: string }>)[0]?.text).toMatch(/options/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
