import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ToolRegistry } from '@toolwright/core';
import { serveMcp, type McpServerHandle } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { StreamClientTransport } from '../support/stream-client-transport';
import { createTestRegistry } from '../support/test-commands';

/**
 * One serveMcp endpoint, both protocol generations: an SDK v2 client pinned to the stateless 2026-07-28 revision and
 * one on the 2025-11-25 revision (the `initialize` handshake, a session) list and call the same tools.
 */
describe('serveMcp over HTTP answers clients of both protocol generations', () => {
  let registry: ToolRegistry;
  let handle: McpServerHandle;
  const seen: { readonly persona: string; readonly sessionId?: string }[] = [];

  beforeAll(async () => {
    registry = createTestRegistry();
    handle = await serveMcp(registry, {
      transport: 'http',
      logger: new RecordingLogger(),
      context: (session) => {
        const persona = session.headers?.get('x-persona') ?? 'anonymous';
        seen.push({ persona, ...(session.sessionId !== undefined ? { sessionId: session.sessionId } : {}) });
        return { persona: { name: persona } };
      },
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  const connect = async (revision: '2026-07-28' | '2025-11-25', persona: string) => {
    const client = new Client(
      { name: `client-${revision}`, version: '1.0.0' },
      revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const transport = new StreamableHTTPClientTransport(new URL(handle.url!), {
      requestInit: { headers: { 'x-persona': persona } },
    });
    await client.connect(transport);
    return { client, transport };
  };

  it.each([
    ['2026-07-28', 'modern'],
    ['2025-11-25', 'legacy'],
  ] as const)('a %s client lists and calls the tools (era %s)', async (revision, era) => {
    const { client, transport } = await connect(revision, `persona-${revision}`);
    try {
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      // 2026-07-28 has no session; 2025-11-25 over Streamable HTTP has one.
      expect(transport.sessionId === undefined).toBe(revision === '2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('save_note');
      const listed = await client.callTool({ name: 'list_notes', arguments: { limit: 2 } });
      expect(listed.isError).toBeFalsy();
      expect(listed.content).toEqual([{ type: 'text', text: '["first","second"]' }]);
      // save_note takes the session id from trusted context: a 2025 session has one, the stateless revision none.
      const saved = await client.callTool({ name: 'save_note', arguments: { text: `from ${revision}` } });
      if (revision === '2025-11-25') {
        expect(saved.isError).toBeFalsy();
        expect(saved.structuredContent ?? JSON.parse((saved.content as { text: string }[])[0]!.text)).toMatchObject({
          saved: `from ${revision}`,
          persona: `persona-${revision}`,
          sessionId: transport.sessionId,
        });
      } else {
        expect(saved.isError).toBe(true);
        expect(saved.content).toEqual([
          {
            type: 'text',
            text: 'The tool "save_note" cannot run in this session (its execution context is incomplete). Do not retry it.',
          },
        ]);
      }
      // The context hook saw this client's own header on each call.
      expect(seen.filter((entry) => entry.persona === `persona-${revision}`).length).toBeGreaterThanOrEqual(2);
      if (revision === '2026-07-28')
        expect(seen.filter((entry) => entry.persona === `persona-${revision}` && entry.sessionId)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('an unknown tool is a protocol error on the 2026-07-28 revision too', async () => {
    const { client } = await connect('2026-07-28', 'x');
    try {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/no_such_tool/);
    } finally {
      await client.close();
    }
  });
});

/**
 * serveMcp on stdio, both protocol generations (the SDK's `serveStdio` picks one from the client's opening message):
 * an SDK v2 client pinned to 2026-07-28 and one on 2025-11-25 list and call the same tools, in process over streams.
 */
describe('serveMcp over stdio answers clients of both protocol generations', () => {
  it.each([
    ['2026-07-28', 'modern'],
    ['2025-11-25', 'legacy'],
  ] as const)('a %s client lists and calls the tools (era %s)', async (revision, era) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const logger = new RecordingLogger();
    const handle = await serveMcp(createTestRegistry(), {
      transport: 'stdio',
      stdin,
      stdout,
      logger,
      context: () => ({ persona: { name: `persona-${revision}` } }),
    });
    const client = new Client(
      { name: `stdio-client-${revision}`, version: '1.0.0' },
      revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    try {
      await client.connect(new StreamClientTransport(stdout, stdin));
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['save_note', 'list_notes']));
      const listed = await client.callTool({ name: 'list_notes', arguments: { limit: 2 } });
      expect(listed.isError).toBeFalsy();
      expect(listed.content).toEqual([{ type: 'text', text: '["first","second"]' }]);
      // stdio has one session (the connection) in both generations: its id is trusted context.
      const saved = await client.callTool({ name: 'save_note', arguments: { text: `from ${revision}` } });
      expect(saved.isError).toBeFalsy();
      expect(saved.structuredContent ?? JSON.parse((saved.content as { text: string }[])[0]!.text)).toMatchObject({
        saved: `from ${revision}`,
        persona: `persona-${revision}`,
        sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(handle.sessionCount()).toBe(1);
    } finally {
      await client.close();
      stdin.end();
      await handle.closed;
    }
    expect(handle.sessionCount()).toBe(0);
    expect(errors).toEqual([]);
    expect(logger.messages('warn')).toEqual([]);
  });
});
