import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * examples/nest-app as users start it (`node examples/nest-app`), over the built packages (`npm test` builds first;
 * alone, run `npm run build`): real HTTP on 127.0.0.1, and the official MCP SDK client over Streamable HTTP (mounted
 * on Nest's adapter) and over stdio.
 */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'examples', 'nest-app', 'dist', 'main.js');
const STARTUP_MS = 60_000;

jest.setTimeout(120_000);

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`Not built: ${MAIN}. Run \`npm run build\` (npm test does) first.`);
});

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

/** Starts the HTTP app and waits for its "listening" line (bounded). */
async function startHttpApp(): Promise<{
  child: ChildProcess;
  base: string;
  stderr: () => string;
  stdout: () => string;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'examples', 'nest-app'), '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnvironment({}),
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await new Promise<void>((resolveStarted, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`nest-app did not start within ${STARTUP_MS} ms; stderr: ${stderr}`)),
      STARTUP_MS,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('nest-app listening on')) {
        clearTimeout(timer);
        resolveStarted();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nest-app exited with ${code}; stderr: ${stderr}`));
    });
  });
  return { child, base: `http://127.0.0.1:${port}`, stderr: () => stderr, stdout: () => stdout };
}

/** The test's environment without what would hide a logging fault (NO_COLOR) or change the levels, plus `extra`. */
function childEnvironment(extra: Record<string, string>): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !['NO_COLOR', 'TOOLWRIGHT_LOG_LEVEL', 'TOOLWRIGHT_DEBUG'].includes(name))
      environment[name] = value;
  }
  return { ...environment, ...extra };
}

/** The lines of a captured stream that contain `text`. */
function linesWith(output: string, text: string): string[] {
  return output.split('\n').filter((line) => line.includes(text));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  await exited;
}

interface CallResponse {
  result: {
    ok: boolean;
    value?: any;
    error?: { code: string; message: string; suggestions?: string[] };
    transformations: Array<{ path: string; rule: string }>;
  };
  message: { role: string; tool_call_id: string; content: string };
}

describe('examples/nest-app over real HTTP', () => {
  let app: Awaited<ReturnType<typeof startHttpApp>>;

  beforeAll(async () => {
    app = await startHttpApp();
  });

  afterAll(async () => {
    if (app) await stop(app.child);
  });

  async function toolCall(sessionId: string, name: string, args: string) {
    const response = await fetch(`${app.base}/tool-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': sessionId },
      body: JSON.stringify({
        tool_call: { id: `call_${name}`, type: 'function', function: { name, arguments: args } },
      }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as CallResponse;
  }

  it('serves the tool definitions per provider: GET /tools?provider=openai (and anthropic; an unknown provider is a 400)', async () => {
    const openai = (await (await fetch(`${app.base}/tools?provider=openai`)).json()) as {
      tools: Array<{ type: string; function: { name: string; parameters: { properties: object } } }>;
    };
    expect(openai.tools.map((tool) => tool.function.name)).toEqual([
      'add_note',
      'get_calendar_events',
      'session_notes',
    ]);
    expect(openai.tools[0]!.type).toBe('function');
    // The trusted context field is never offered to the model.
    expect(Object.keys(openai.tools[0]!.function.parameters.properties)).toEqual(['text']);
    const anthropic = (await (await fetch(`${app.base}/tools?provider=anthropic`)).json()) as {
      tools: Array<{ name: string; input_schema: object }>;
    };
    expect(anthropic.tools.map((tool) => tool.name)).toEqual(['add_note', 'get_calendar_events', 'session_notes']);
    const unknown = await fetch(`${app.base}/tools?provider=nope`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toMatch(
      /Unknown provider "nope"; use one of: openai, openai-responses, anthropic/,
    );
  });

  it("runs a valid OpenAI-shaped call through Nest's singleton: the app reads the note the command wrote", async () => {
    const added = await toolCall('alice', 'add_note', '{"text": "buy milk"}');
    expect(added.result).toMatchObject({ ok: true, value: { saved: 'buy milk' } });
    expect(added.message).toMatchObject({ role: 'tool', tool_call_id: 'call_add_note' });
    expect(JSON.parse(added.message.content)).toMatchObject({ saved: 'buy milk' });
    const notes = (await (await fetch(`${app.base}/notes`)).json()) as Array<{ text: string; sessionId: string }>;
    expect(notes).toContainEqual({ text: 'buy milk', sessionId: 'alice' });
  });

  it('runs the command whose service has its own dependencies', async () => {
    const events = await toolCall('alice', 'get_calendar_events', '{"from": "2026-11-24", "to": "2026-11-25"}');
    expect(events.result).toMatchObject({
      ok: true,
      value: { events: [{ title: 'Stand-up' }, { title: 'Design review' }] },
    });
  });

  it("keeps the session the caller's: a session_id the model sends is dropped, and the request-scoped command sees only its call's session", async () => {
    const spoofed = await toolCall('carol', 'add_note', '{"text": "carol\'s secret", "session_id": "mallory"}');
    expect(spoofed.result.ok).toBe(true);
    expect(spoofed.result.transformations).toContainEqual(
      expect.objectContaining({ path: 'sessionId', rule: 'dropped-context-field' }),
    );
    const notes = (await (await fetch(`${app.base}/notes`)).json()) as Array<{ text: string; sessionId: string }>;
    expect(notes).toContainEqual({ text: "carol's secret", sessionId: 'carol' });
    expect(notes.some((note) => note.sessionId === 'mallory')).toBe(false);

    const [carol, mallory] = await Promise.all([
      toolCall('carol', 'session_notes', '{}'),
      toolCall('mallory', 'session_notes', '{"session_id": "carol"}'),
    ]);
    expect(carol.result.value).toEqual({ sessionId: 'carol', notes: ["carol's secret"] });
    expect(mallory.result.value).toEqual({ sessionId: 'mallory', notes: [] });
    // One line per security event (its details on the same line), never a second `Object(n)` entry.
    expect(
      linesWith(app.stderr(), 'security: the model tried to set trusted context field "session_id" of add_note'),
    ).toEqual([
      expect.stringMatching(/ WARN \[Toolwright\] security: .*\{"tool":"add_note",.*"key":"session_id".*\}$/),
    ]);
    expect(linesWith(app.stderr(), 'of session_notes')).toHaveLength(1);
  });

  it('logs through Nest on stderr only: no debug entries by default, no Object(n) entries, no colors in a pipe', async () => {
    await toolCall('dave', 'add_note', '{"text": "logged once"}');
    expect(app.stdout()).toBe('');
    const stderr = app.stderr();
    expect(stderr).toContain('[Toolwright]');
    expect(stderr).not.toMatch(/Object\(\d+\)/);
    expect(stderr).not.toMatch(/\x1b\[/);
    expect(linesWith(stderr, ' DEBUG ')).toEqual([]);
    expect(linesWith(stderr, 'tool call add_note ok')).toEqual([]);
  });

  it('closes a socket that sends nothing after the 10 s headers timeout (408), as serveMcp does', async () => {
    const socket = connect(Number(new URL(app.base).port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const started = Date.now();
    try {
      await new Promise<void>((resolveClosed, reject) => {
        const timer = setTimeout(() => reject(new Error('the idle socket is still open after 20 s')), 20_000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolveClosed();
        });
      });
    } finally {
      socket.destroy();
    }
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
  });

  it('answers malformed input with a typed error: truncated arguments, a body that is no tool call, invalid JSON, no session', async () => {
    const truncated = await toolCall('alice', 'add_note', '{"text": "unterminated');
    expect(truncated.result).toMatchObject({ ok: false, error: { code: 'MALFORMED_ARGUMENTS' } });
    const invalid = await toolCall('alice', 'get_calendar_events', '{"from": "tomorrow", "to": "2026-11-25"}');
    expect(invalid.result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    const post = async (body: string) => {
      const response = await fetch(`${app.base}/tool-calls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-id': 'alice' },
        body,
      });
      return { status: response.status, message: ((await response.json()) as { message: string }).message };
    };
    const shape =
      'The body must be { "tool_call": { "id", "type": "function", "function": { "name", "arguments" } } }.';
    expect(await post('{"nope": 1}')).toEqual({ status: 400, message: shape });
    expect(await post('{}')).toEqual({ status: 400, message: shape });
    expect(await post('{"tool_call": [1, 2]}')).toEqual({ status: 400, message: shape });
    expect(await post('{"tool_call": {"id": "x", "type": "function"}}')).toEqual({
      status: 400,
      message: 'tool_call is not a function call (it needs "function": { "name", "arguments" }).',
    });
    expect((await post('{bad json')).status).toBe(400);
    const noSession = await fetch(`${app.base}/tool-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tool_call: { id: 'x', type: 'function', function: { name: 'session_notes', arguments: '{}' } },
      }),
    });
    expect(noSession.status).toBe(400);
  });

  it('answers an unknown tool with UNKNOWN_TOOL and the closest name', async () => {
    const unknown = await toolCall('alice', 'add_nte', '{}');
    expect(unknown.result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL', suggestions: ['add_note'] } });
  });

  it("serves the same commands over MCP Streamable HTTP on Nest's own adapter (official SDK client)", async () => {
    const client = new Client({ name: 'sdk-http-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${app.base}/mcp`));
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['add_note', 'get_calendar_events', 'session_notes']);
      const added = await client.callTool({
        name: 'add_note',
        arguments: { text: 'from mcp', session_id: 'forged' },
      });
      expect(added.isError).toBeUndefined();
      const mine = await client.callTool({ name: 'session_notes', arguments: {} });
      expect(mine.structuredContent).toEqual({ sessionId: transport.sessionId, notes: ['from mcp'] });
      const unknown = await client.callTool({ name: 'nope', arguments: {} }).catch((error: Error) => error);
      expect(unknown instanceof Error ? unknown.message : JSON.stringify(unknown)).toMatch(/no tool named "nope"/);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
    expect(app.stdout()).toBe('');
  });

  it('keeps DNS-rebinding protection on the mounted MCP endpoint: a forged Host header is refused', async () => {
    const status = await new Promise<number>((resolveStatus, reject) => {
      const outgoing = request(
        `${app.base}/mcp`,
        {
          method: 'POST',
          headers: {
            host: 'evil.example:80',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolveStatus(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      );
    });
    expect(status).toBe(403);
  });
});

describe('examples/nest-app over MCP stdio (official SDK client)', () => {
  it("serves the commands; stdout carries only JSON-RPC and Nest's logs go to stderr", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'examples', 'nest-app'), '--stdio'],
      stderr: 'pipe',
      cwd: ROOT,
      env: childEnvironment({ TOOLWRIGHT_LOG_LEVEL: 'debug' }),
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'sdk-stdio-client', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['add_note', 'get_calendar_events', 'session_notes']);
      const added = await client.callTool({ name: 'add_note', arguments: { text: 'over stdio' } });
      expect(added.structuredContent).toEqual({ saved: 'over stdio', total: 1 });
      const mine = await client.callTool({
        name: 'session_notes',
        arguments: { session_id: 'forged' },
      });
      expect((mine.structuredContent as { notes: string[] }).notes).toEqual(['over stdio']);
      expect((mine.structuredContent as { sessionId: string }).sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const events = await client.callTool({
        name: 'get_calendar_events',
        arguments: { from: '2026-11-27', to: '2026-11-28' },
      });
      expect(events.structuredContent).toEqual({ events: [{ title: 'Retro', start: '2026-11-27T16:00:00Z' }] });
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
    expect(stderr).not.toMatch(/\x1b\[/); // stderr is a pipe: no colors
    expect(stderr).not.toMatch(/Object\(\d+\)/);
    expect(stderr).toContain('[InstanceLoader] ToolwrightModule dependencies initialized');
    expect(stderr).toContain('[Toolwright] MCP server on stdio: 3 tools');
    // Debug enabled (TOOLWRIGHT_LOG_LEVEL=debug): one line per successful call, its details on that line.
    expect(linesWith(stderr, 'tool call add_note ok')).toEqual([
      expect.stringMatching(/ DEBUG \[Toolwright\] tool call add_note ok \{"tool":"add_note",.*\}$/),
    ]);
    expect(linesWith(stderr, 'tool call get_calendar_events ok')).toHaveLength(1);
  });
});
