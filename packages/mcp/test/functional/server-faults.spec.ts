import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { ToolRegistry } from '@toolwright/core';
import { serveMcp } from '@toolwright/mcp';
import { RecordingLogger } from '../../../core/test/support/recording-logger';
import { StreamClientTransport } from '../support/stream-client-transport';

const SECRET = 'sk-LIVE-SECRET-4242';
const PATH = '/srv/app/config/credentials.json';

/** Handlers that throw what no error path expects (issue 11's reproducers), each carrying a secret and a path. */
function hostileRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ logger: new RecordingLogger() });
  const tool = (name: string, thrown: () => unknown) =>
    registry.registerJsonSchemaTool({ name, description: `throws ${name}`, inputSchema: { type: 'object' } }, () => {
      throw thrown();
    });
  tool('throws_null_prototype', () =>
    Object.assign(Object.create(null) as object, { message: `${SECRET} in ${PATH}` }),
  );
  tool('throws_bad_to_string', () => ({
    toString() {
      throw new Error(`${SECRET} ${PATH}`);
    },
  }));
  tool('throws_bad_message_getter', () => {
    const error = new Error('placeholder');
    Object.defineProperty(error, 'message', {
      get() {
        throw new Error(`${SECRET} ${PATH}`);
      },
    });
    return error;
  });
  return registry;
}

describe('serveMcp maps every failure to a generic isError result (issue 11)', () => {
  it.each(['throws_null_prototype', 'throws_bad_to_string', 'throws_bad_message_getter'])(
    '%s: an isError result, no JSON-RPC error, nothing of the thrown text',
    async (name) => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const logger = new RecordingLogger();
      const handle = await serveMcp(hostileRegistry(), { transport: 'stdio', stdin, stdout, logger });
      const client = new Client({ name: 'fault-client', version: '1.0.0' });
      await client.connect(new StreamClientTransport(stdout, stdin));
      try {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.isError).toBe(true);
        const text = JSON.stringify(result);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(PATH);
        expect((result.content[0] as { text: string }).text).toMatch(new RegExp(`The tool "${name}"`));
        // The server keeps serving.
        expect((await client.listTools()).tools).toHaveLength(3);
      } finally {
        await client.close();
        await handle.close();
        await handle.closed;
      }
    },
  );

  it('a context hook that throws is a generic isError result too', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const registry = new ToolRegistry({ logger: new RecordingLogger() });
    registry.registerJsonSchemaTool({ name: 'echo', inputSchema: { type: 'object' } }, () => 'never');
    const logger = new RecordingLogger();
    const handle = await serveMcp(registry, {
      transport: 'stdio',
      stdin,
      stdout,
      logger,
      context: () => {
        throw new Error(`token store at ${PATH} refused ${SECRET}`);
      },
    });
    const client = new Client({ name: 'fault-client', version: '1.0.0' });
    await client.connect(new StreamClientTransport(stdout, stdin));
    try {
      const result = await client.callTool({ name: 'echo', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      // The operator sees what happened, on one escaped line.
      expect(logger.messages('error').join('\n')).toContain('tools/call "echo" failed outside the executor');
    } finally {
      await client.close();
      await handle.closed;
    }
  });
});
