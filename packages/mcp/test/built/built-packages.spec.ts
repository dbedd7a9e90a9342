import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FIXTURES, waitUntil } from '../support/processes';

/**
 * Tests over the built packages (`npm test` builds first; alone, run `npm run build`): the package entry point, the
 * example server as users start it (`node examples/mcp-server`), and the official SDK client against our server as
 * a real stdio process, with stdout checked to carry nothing but JSON-RPC.
 */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'mcp-server');
const BUILT = [join(ROOT, 'packages', 'mcp', 'dist', 'index.js'), join(EXAMPLE, 'dist', 'main.js')];

// Each test starts node processes: on a loaded CI machine one start alone can take seconds.
jest.setTimeout(30_000);

beforeAll(() => {
  const missing = BUILT.filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw new Error(`Not built: ${missing.join(', ')}. Run \`npm run build\` (npm test does) first.`);
});

/** Starts the official SDK client on a stdio server; every line of its stdout that is not JSON-RPC lands in `errors`. */
async function stdioClient(args: string[], env: Record<string, string> = {}) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'pipe',
    cwd: ROOT,
    env: { ...inherited, ...env },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'sdk-stdio-client', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, transport, errors, stderr: () => stderr };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null) resolveExit(child.exitCode);
    else child.once('exit', (code) => resolveExit(code));
  });
}

describe('the built @toolwright/mcp entry point', () => {
  it('exports the public API', () => {
    const entry = require(BUILT[0]!) as Record<string, unknown>;
    for (const name of [
      'connectMcpServers',
      'serveMcp',
      'McpContent',
      'McpConnectionError',
      'currentMcpRequest',
      'DEFAULT_MCP_RETRY_POLICY',
      'stderrLogger',
    ]) {
      expect(typeof entry[name]).not.toBe('undefined');
    }
    expect(entry['DEFAULT_MCP_RETRY_POLICY']).toMatchObject({ attempts: 3, initialDelayMs: 2_000, multiplier: 2 });
  });
});

describe('examples/mcp-server over stdio, with the official SDK client', () => {
  it('serves the example app commands; stdout carries only JSON-RPC, logs go to stderr (one line each)', async () => {
    const { client, transport, errors, stderr } = await stdioClient([EXAMPLE], { TOOLWRIGHT_LOG_LEVEL: 'debug' });
    const pid = transport.pid!;
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'decision/propose',
        'get_calendar_events',
        'publish_article',
        'resolve_relative_date',
      ]);
      expect(Object.keys(tools.find((tool) => tool.name === 'publish_article')!.inputSchema.properties ?? {})).toEqual([
        'title',
        'content',
        'channel',
        'publish_now',
      ]);

      const published = await client.callTool({
        name: 'publish_article',
        arguments: { title: 'Hello', content: 'one two three', channel: 'Blog', session_id: 'forged' },
      });
      expect(published.isError).toBeUndefined();
      expect(published.structuredContent).toMatchObject({ channel: 'blog', words: 3, status: 'draft' });
      const sessionId = (published.structuredContent as { sessionId: string }).sessionId;
      expect(sessionId).not.toBe('forged');
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

      const refused = await client.callTool({
        name: 'get_calendar_events',
        arguments: { resolved_datetimes: ['tomorrow'] },
      });
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toContain('resolve_relative_date');
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
    expect(stderr()).toContain('[toolwright] INFO MCP server on stdio: 4 tools');
    // Per-call events are debug: on here because the test asked for them (TOOLWRIGHT_LOG_LEVEL=debug).
    expect(stderr()).toMatch(/^\[toolwright\] DEBUG tool call publish_article ok \{"tool":"publish_article",.*\}$/m);
    for (const line of stderr().split('\n').filter(Boolean))
      expect(line).toMatch(/^\[toolwright\] (DEBUG|INFO|WARN|ERROR) /);
    await waitUntil(
      () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      5_000,
      'the server to exit when its stdin closes',
    );
  });

  it('keeps stdout clean when a command prints with console.log', async () => {
    const { client, errors, stderr } = await stdioClient([join(FIXTURES, 'noisy-stdio-server.js')]);
    try {
      const result = await client.callTool({ name: 'chatty', arguments: { word: 'hello' } });
      expect(result.structuredContent).toEqual({ said: 'hello' });
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
    expect(stderr()).toContain('chatty says hello');
    expect(stderr()).toContain('chatty info line');
  });

  it('refuses bad arguments with the usage', async () => {
    const child = spawn(process.execPath, [EXAMPLE, '--port', '3000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toContain('Usage: node examples/mcp-server [--http [--port N] [--host 127.0.0.1] [--stateless]]');
  });
});

describe('examples/mcp-server --http --port N', () => {
  it('serves on 127.0.0.1 and stops on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EXAMPLE, '--http', '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitUntil(() => stderr.includes('MCP server listening on'), 10_000, 'the server to listen');
      expect(stderr).toContain(`MCP server listening on http://127.0.0.1:${port}/mcp`);
      const client = new Client({ name: 'sdk-http-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      try {
        expect((await client.listTools()).tools).toHaveLength(4);
        const result = await client.callTool({
          name: 'decision/propose',
          arguments: {
            question: 'Ship it?',
            options: '[{"label":"Yes","description":"now"},{"label":"No","description":"later"}]',
          },
        });
        expect(result.structuredContent).toMatchObject({ question: 'Ship it?', options: ['Yes', 'No'] });
      } finally {
        await client.close();
      }
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
