import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { serveMcp } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { StreamClientTransport } from '../support/stream-client-transport';
import { createTestRegistry } from '../support/test-commands';
import { waitUntil } from '../support/processes';

/** serveMcp on stdio, in process (streams instead of the process's stdin/stdout); the real process is tested over the build. */
describe('serveMcp over stdio', () => {
  async function start(options: { redirectConsole?: boolean } = {}) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const registry = createTestRegistry();
    const logger = new RecordingLogger();
    const handle = await serveMcp(registry, { transport: 'stdio', stdin, stdout, logger, ...options });
    const client = new Client({ name: 'stream-client', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(new StreamClientTransport(stdout, stdin));
    return { handle, client, registry, logger, errors };
  }

  it('one session with a random id; calls get it as trusted context', async () => {
    const { handle, client, errors } = await start();
    expect(handle.sessionCount()).toBe(1);
    const first = await client.callTool({ name: 'save_note', arguments: { text: 'a' } });
    const second = await client.callTool({
      name: 'save_note',
      arguments: { text: 'b', sessionId: 'forged' },
    });
    const sessionId = (first.structuredContent as { sessionId: string }).sessionId;
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((second.structuredContent as { sessionId: string }).sessionId).toBe(sessionId);
    await client.close();
    await handle.closed;
    expect(errors).toEqual([]);
  });

  it('warns when it lists a tool name outside SEP-986', async () => {
    const { handle, client, registry, logger } = await start();
    registry.registerJsonSchemaTool(
      { name: 'notes/export', description: 'A slash in the name.', inputSchema: { type: 'object' } },
      () => 'ok',
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('notes/export');
    expect(logger.messages('warn')).toEqual([
      'MCP: the tool name "notes/export" does not match ^[A-Za-z0-9._-]{1,128}$ (SEP-986); it is listed, but clients that enforce SEP-986 may refuse it (toolwright\'s client accepts it with a warning). Register it under an MCP-safe name to serve it to every client.',
    ]);
    await handle.close();
  });

  it('ends when the client closes stdin (the spec shutdown)', async () => {
    const { handle, client } = await start();
    let ended = false;
    void handle.closed.then(() => {
      ended = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    await client.close();
    await waitUntil(() => ended, 3_000, 'the server to end');
    expect(handle.sessionCount()).toBe(0);
  });

  it('announces registry changes', async () => {
    const { handle, client, registry } = await start();
    let notified = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      notified++;
    });
    registry.registerJsonSchemaTool(
      { name: 'late', description: 'Late tool.', inputSchema: { type: 'object' } },
      () => 'ok',
    );
    registry.registerJsonSchemaTool(
      { name: 'later', description: 'Later tool.', inputSchema: { type: 'object' } },
      () => 'ok',
    );
    await waitUntil(() => notified > 0, 3_000, 'the notification');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(notified).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['late', 'later']),
    );
    await handle.close();
  });

  it('sends what console.log prints to stderr while serving, and restores console afterwards', async () => {
    const original = console.log;
    const written: string[] = [];
    const stderrWrite = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const { handle } = await start({ redirectConsole: true });
      expect(console.log).not.toBe(original);
      console.log('printed by a command');
      await handle.close();
      expect(console.log).toBe(original);
    } finally {
      stderrWrite.mockRestore();
    }
    expect(written.join('')).toContain('printed by a command');
  });
});
