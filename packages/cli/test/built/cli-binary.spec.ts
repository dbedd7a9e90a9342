import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { adaptAll } from '@toolwright/providers';
import { createPersonaRegistry } from '../../../../examples/persona-app/src/index';
import {
  ANSI_ESCAPE,
  BIN,
  FIXTURES,
  PERSONA_APP,
  ROOT,
  requireBuilt,
  runCli,
  startCli,
  stop,
} from '../support/run-cli';

/**
 * The real `toolwright` binary as child processes against examples/persona-app's registry (and two fixture apps):
 * each command's stdout, stderr and exit code. `npm test` builds first; alone, run `npm run build`.
 */
jest.setTimeout(180_000);

beforeAll(requireBuilt);

const MALFORMED =
  "```json\n{'resolved_datetimes': ['2026-11-23T09:00:00+01:00'], 'Max-Results': '5', 'include_declined': 'yes', 'job_id': 'job-from-model',}\n```";

describe('toolwright --help and usage errors', () => {
  it('prints the commands and the exit codes, exit 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['tools', 'lint', 'try', 'replay', 'mcp', 'inspect'])
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(run.stdout).toContain('Exit codes:');
    expect(run.stdout).toContain('2  the command could not run');
    expect(run.stderr).toBe('');
  });

  it.each(['tools', 'lint', 'try', 'replay', 'mcp', 'inspect'])(
    '%s --help documents its options, exit 0',
    async (command) => {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: toolwright ${command}`);
      expect(run.stdout).toContain('--app <path>');
      expect(run.stdout).toContain('--mcp <command line | url>');
    },
  );

  it('an unknown command: the error on stderr, exit 2', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("unknown command 'frobnicate'");
  });

  it('no tools to load, a missing app, an app without a registry, a bad --context and a bad --provider: exit 2 with the fix', async () => {
    const none = await runCli(['tools']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No tools to load. Fix: pass --app <path>');
    const missing = await runCli(['tools', '--app', 'examples/no-such-app']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--app examples/no-such-app: no such file or folder');
    const noRegistry = await runCli(['tools', '--app', join(FIXTURES, 'no-registry-app.js')]);
    expect(noRegistry.code).toBe(2);
    expect(noRegistry.stderr).toContain('exports no ToolRegistry (its exports: commands, version)');
    const context = await runCli(['try', 'get_calendar_events', '{}', '--app', PERSONA_APP, '--context', '{not json']);
    expect(context.code).toBe(2);
    expect(context.stderr).toContain('--context: not valid JSON');
    const provider = await runCli(['lint', '--app', PERSONA_APP, '--provider', 'openai,claude']);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toContain('unknown provider "claude"');
    for (const run of [none, missing, noRegistry, context, provider]) expect(run.stdout).toBe('');
  });
});

describe('toolwright tools', () => {
  it('--json: the definitions exactly as the provider adapters build them, with the name mapping', async () => {
    const run = await runCli(['tools', '--app', PERSONA_APP, '--provider', 'openai,anthropic', '--json']);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as {
      source: string;
      providers: Array<{ provider: string; label: string; names: Record<string, string>; tools: unknown[] }>;
    };
    expect(printed.source).toBe(PERSONA_APP);
    expect(printed.providers.map((view) => view.provider)).toEqual(['openai', 'anthropic']);
    const registry = createPersonaRegistry();
    expect(printed.providers[0]!.tools).toEqual(JSON.parse(JSON.stringify(adaptAll(registry, 'openai'))));
    expect(printed.providers[1]!.tools).toEqual(JSON.parse(JSON.stringify(adaptAll(registry, 'anthropic'))));
    expect(printed.providers[0]!.names).toEqual({
      'decision/propose': 'decision_propose',
      get_calendar_events: 'get_calendar_events',
      publish_article: 'publish_article',
      resolve_relative_date: 'resolve_relative_date',
    });
  });

  it('an ES module whose default export is a function returning the registry', async () => {
    const run = await runCli(['tools', '--app', join(FIXTURES, 'factory-app.mjs'), '--provider', 'gemini', '--json']);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { providers: Array<{ tools: Array<{ name: string }> }> };
    expect(printed.providers[0]!.tools.map((tool) => tool.name)).toEqual(['echo_dates']);
  });

  it('for people: one block per provider (all by default), no colors when stdout is not a terminal', async () => {
    const run = await runCli(['tools', '--app', PERSONA_APP]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('openai (OpenAI Chat Completions): 4 tools');
    expect(run.stdout).toContain('gemini (Google Gemini): 4 tools');
    expect(run.stdout).toContain('hermes (Qwen/Hermes text format): 4 tools');
    expect(run.stdout).toContain('  decision/propose -> decision_propose');
    expect(run.stdout).not.toMatch(ANSI_ESCAPE);
  });
});

describe('colors', () => {
  // `script` (util-linux, in every Debian system) gives the child a pseudo-terminal, as a user's shell does.
  const inTerminal = (environment: string) =>
    new Promise<string>((resolveOutput, reject) => {
      // Without CI in the environment: under CI=true Node reports a 2-color terminal (hasColors() is false), as for a log.
      const command = `env -u CI ${environment} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} lint --app ${JSON.stringify(join(FIXTURES, 'lint-error-app.js'))} --provider openai`;
      /* eslint-disable @typescript-eslint/prefer-promise-reject-errors -- execFile's error is an Error or null, and null is excluded */
      execFile('script', ['-qec', command, '/dev/null'], { cwd: ROOT, timeout: 60_000 }, (error, stdout) =>
        error && error.code !== 1 ? reject(error) : resolveOutput(stdout),
      );
      /* eslint-enable @typescript-eslint/prefer-promise-reject-errors */
    });

  it('on a terminal: colored; with NO_COLOR: plain', async () => {
    const colored = await inTerminal('TERM=xterm-256color');
    expect(colored).toMatch(ANSI_ESCAPE);
    expect(colored).toContain('\u001b[31merror');
    const plain = await inTerminal('TERM=xterm-256color NO_COLOR=1');
    expect(plain).toContain('description-length');
    expect(plain).not.toMatch(ANSI_ESCAPE);
  });
});

describe('toolwright lint', () => {
  it('the example app: info only (the name codec handles its names), exit 0', async () => {
    const run = await runCli(['lint', '--app', PERSONA_APP]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^0 errors, 0 warnings, 26 info for 4 tools and 10 providers/m);
    expect(run.stdout).not.toContain('name-pattern: "decision/propose"');
    const withInfo = await runCli(['lint', '--app', PERSONA_APP, '--info']);
    expect(withInfo.code).toBe(0);
    expect(withInfo.stdout).toContain('name-pattern: "decision/propose" does not match OpenAI Chat Completions');
  });

  it('a tool set with a provider error: the finding and its fix, exit 1 (usable in CI)', async () => {
    const app = join(FIXTURES, 'lint-error-app.js');
    const run = await runCli(['lint', '--app', app]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('summarize_report');
    expect(run.stdout).toMatch(
      /error\s+openai\s+description-length: the description has 1320 characters; OpenAI Chat Completions takes at most 1024/,
    );
    expect(run.stdout).toContain('fix: shorten the description');
    const json = await runCli(['lint', '--app', app, '--provider', 'openai', '--json']);
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.stdout) as {
      errors: number;
      findings: Array<{ tool: string; provider: string; rule: string; severity: string }>;
    };
    expect(summary.errors).toBe(1);
    expect(summary.findings).toContainEqual(
      expect.objectContaining({
        tool: 'summarize_report',
        provider: 'openai',
        rule: 'description-length',
        severity: 'error',
      }),
    );
    // A provider without a description limit has nothing to report.
    const gemini = await runCli(['lint', '--app', app, '--provider', 'gemini']);
    expect(gemini.code).toBe(0);
  });
});

describe('toolwright try', () => {
  it('prepares a malformed call: each transformation, then the validated parameters, exit 0 (the handler is not called)', async () => {
    const run = await runCli([
      'try',
      'get_calendar_events',
      MALFORMED,
      '--app',
      PERSONA_APP,
      '--context',
      '{"jobId": "job-7"}',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('prepared: the handler was not called (--run calls it)');
    for (const rule of [
      'fenced-block',
      'single-quotes',
      'trailing-commas',
      'key-case',
      'string-to-integer',
      'string-to-boolean',
      'dropped-context-field',
    ])
      expect(run.stdout).toContain(rule);
    expect(run.stdout).toContain('"Max-Results" -> "max_results"');
    expect(run.stdout).toContain('validated parameters:');
    const json = await runCli([
      'try',
      'get_calendar_events',
      MALFORMED,
      '--app',
      PERSONA_APP,
      '--context',
      '{"jobId": "job-7"}',
      '--json',
    ]);
    const report = JSON.parse(json.stdout) as {
      mode: string;
      ok: boolean;
      params: unknown;
      transformations: Array<{ rule: string; path: string; target: { kind: string; start?: number; end?: number } }>;
    };
    expect(report.mode).toBe('prepare');
    expect(report.ok).toBe(true);
    // The model's job_id is dropped; the trusted context's is injected.
    expect(report.params).toEqual({
      resolved_datetimes: ['2026-11-23T09:00:00+01:00'],
      max_results: 5,
      include_declined: true,
      jobId: 'job-7',
    });
    expect(report.transformations.map((transformation) => transformation.rule)).toEqual([
      'fenced-block',
      'single-quotes',
      'trailing-commas',
      'key-case',
      'string-to-integer',
      'string-to-boolean',
      'dropped-context-field',
    ]);
    // Each change is placed in the text the model sent.
    const spans = Object.fromEntries(
      report.transformations.map((transformation) => [
        transformation.rule,
        transformation.target.kind === 'span'
          ? MALFORMED.slice(transformation.target.start, transformation.target.end)
          : transformation.target.kind,
      ]),
    );
    expect(spans).toEqual({
      'fenced-block': '```json\n',
      'single-quotes': "'",
      'trailing-commas': ',',
      'key-case': "'Max-Results'",
      'string-to-integer': "'5'",
      'string-to-boolean': "'yes'",
      'dropped-context-field': "'job_id'",
    });
  });

  it('--run calls the handler and prints its result', async () => {
    const run = await runCli([
      'try',
      'functions.get_calendar_events',
      '{"resolved_datetimes": "2026-11-23T09:00:00+01:00"}',
      '--app',
      PERSONA_APP,
      '--run',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { mode: string; tool: string; calledName: string; value: unknown };
    expect(report).toMatchObject({
      mode: 'run',
      tool: 'get_calendar_events',
      calledName: 'functions.get_calendar_events',
    });
    expect(report.value).toEqual([{ title: 'Event 1', start: '2026-11-23T09:00:00+01:00' }]);
  });

  it('a refused call: the exact model-facing error, exit 1', async () => {
    const run = await runCli([
      'try',
      'get_calendar_events',
      '{"resolved_datetimes": "tomorrow"}',
      '--app',
      PERSONA_APP,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('refused: INVALID_ARGUMENTS (the model may retry)');
    expect(run.stdout).toContain('the model gets:');
    expect(run.stdout).toContain('call resolve_relative_date with the phrase first');
  });

  it('--run on a tool that takes approval: says the handler did not run and the call waits for a person, exit 1', async () => {
    const run = await runCli([
      'try',
      'refund_order',
      '{"orderId": "A-1", "cents": "2500"}',
      '--run',
      '--app',
      join(FIXTURES, 'approval-app.mjs'),
    ]);
    expect(run.code).toBe(1);
    const [header] = run.stdout.split('\n');
    expect(header).toBe('refund_order  the handler did not run: the call waits for a person (the tool takes approval)');
    expect(run.stdout).not.toContain('ran the handler');
    expect(run.stdout).not.toContain('refused:');
    expect(run.stdout).toContain('waiting for approval: APPROVAL_REQUIRED');
    const refused = await runCli([
      'try',
      'refund_order',
      '{"orderId": "A-1", "cents": "lots"}',
      '--run',
      '--app',
      join(FIXTURES, 'approval-app.mjs'),
    ]);
    expect(refused.stdout.split('\n')[0]).toBe('refund_order  the handler did not run: the call was refused before it');
    expect(refused.stdout).toContain('refused: INVALID_ARGUMENTS');
  });

  it('--policy strict refuses what safe repairs; arguments from stdin with -', async () => {
    const strict = await runCli([
      'try',
      'get_calendar_events',
      "{'resolved_datetimes': ['2026-11-23T09:00:00+01:00']}",
      '--app',
      PERSONA_APP,
      '--policy',
      'strict',
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('refused: MALFORMED_ARGUMENTS');
    const safe = await runCli(['try', 'get_calendar_events', '-', '--app', PERSONA_APP], {
      input: "{'resolved_datetimes': ['2026-11-23T09:00:00+01:00']}",
    });
    expect(safe.code).toBe(0);
    expect(safe.stdout).toContain('single-quotes');
    const badPolicy = await runCli(['try', 'get_calendar_events', '{}', '--app', PERSONA_APP, '--policy', 'loose']);
    expect(badPolicy.code).toBe(2);
    expect(badPolicy.stderr).toContain("option '--policy <policy>' argument 'loose' is invalid");
  });
});

describe('toolwright inspect --code', () => {
  it("prints the tool's plan (its canonical check's records, its DTO instantiation) and exits; an unknown tool exits 1", async () => {
    const run = await runCli(['inspect', '--code', 'get_calendar_events', '--app', PERSONA_APP]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('// toolwright: plan of get_calendar_events\ncanonical check: object;');
    expect(run.stdout).toContain('instantiate: new GetCalendarEventsParams(), each key assigned in its order');
    const unknown = await runCli(['inspect', '--code', 'no_such_tool', '--app', PERSONA_APP]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no tool named "no_such_tool"');
  });
});

describe('toolwright replay', () => {
  const file = join(FIXTURES, 'recorded-calls.jsonl');

  it('a summary: ok / refused per tool, refusals per code, transformations per rule, skipped lines', async () => {
    const run = await runCli(['replay', file, '--app', PERSONA_APP]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('7 calls prepared: 4 ok, 3 refused, 2 lines skipped');
    expect(run.stdout).toMatch(/get_calendar_events\s+2 ok\s+2 refused/);
    expect(run.stdout).toMatch(/line\s+8\s+skipped\s+not JSON/);
    expect(run.stdout).toContain('security events (the model tried to set trusted context): 1');
    const json = await runCli(['replay', file, '--app', PERSONA_APP, '--json']);
    const summary = JSON.parse(json.stdout) as {
      calls: number;
      ok: number;
      refused: number;
      tools: unknown[];
      refusals: Record<string, number>;
      transformations: Array<{ tool: string; rule: string; count: number }>;
      skipped: Array<{ line: number }>;
      securityEvents: number;
    };
    expect(summary).toMatchObject({ calls: 7, ok: 4, refused: 3, securityEvents: 1 });
    expect(summary.tools).toEqual([
      { tool: 'get_calendar_events', ok: 2, refused: 2 },
      { tool: 'decision/propose', ok: 1, refused: 0 },
      { tool: 'publish_article', ok: 1, refused: 0 },
      { tool: 'get_calender_event', ok: 0, refused: 1 },
    ]);
    expect(summary.refusals).toEqual({ INVALID_ARGUMENTS: 1, MALFORMED_ARGUMENTS: 1, UNKNOWN_TOOL: 1 });
    expect(summary.transformations).toContainEqual({ tool: 'get_calendar_events', rule: 'single-to-array', count: 2 });
    expect(summary.transformations).toContainEqual({
      tool: 'publish_article',
      rule: 'dropped-context-field',
      count: 1,
    });
    expect(summary.skipped.map((entry) => entry.line)).toEqual([8, 9]);
  });

  it('--run runs the handlers; a missing file is exit 2', async () => {
    const run = await runCli(['replay', file, '--app', PERSONA_APP, '--run', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ calls: 7, ok: 4, refused: 3 });
    const missing = await runCli(['replay', 'no-such-file.jsonl', '--app', PERSONA_APP]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('replay no-such-file.jsonl: cannot read the file (ENOENT)');
  });
});

describe('toolwright mcp', () => {
  it('stdio: the official MCP client lists and calls the tools; stdout carries only JSON-RPC', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      // publish_article needs the `publish` permission: listed for a persona that holds it.
      args: [
        BIN,
        'mcp',
        '--app',
        PERSONA_APP,
        '--context',
        '{"timeZone": "Europe/Berlin", "persona": {"name": "editor", "permissions": ["publish"]}}',
      ],
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'decision/propose',
        'get_calendar_events',
        'publish_article',
        'resolve_relative_date',
      ]);
      const result = await client.callTool({
        name: 'get_calendar_events',
        arguments: { resolved_datetimes: '2026-11-23 14:30' },
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain('2026-11-23T14:30:00+01:00');
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
  });

  /** `toolwright mcp` on the approval fixture over stdio, with what it writes to stderr collected. */
  async function approvalServer(
    answer: ((message: string) => ElicitResult) | undefined,
    context = '{"sessionId": "from-the-cli", "timeZone": "Europe/Berlin"}',
  ) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--app', join(FIXTURES, 'approval-app.mjs'), '--context', context],
      cwd: ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client(
      { name: 'cli-approval-test', version: '1.0.0' },
      answer ? { capabilities: { elicitation: { form: {} } } } : {},
    );
    const questions: string[] = [];
    if (answer)
      client.setRequestHandler('elicitation/create', (request) => {
        questions.push(request.params.message);
        return answer(request.params.message);
      });
    await client.connect(transport);
    const call = async () =>
      await client.callTool({
        name: 'refund_order',
        arguments: { orderId: 'A-1', cents: '2500' },
      });
    return { call, questions, stderr: () => stderr, close: () => client.close() };
  }

  it('--context: a sessionId is named on stderr as ignored, with why; the call sees the MCP session, not it', async () => {
    const server = await approvalServer(() => ({ action: 'accept', content: { approve: true } }));
    try {
      const result = await server.call();
      expect(result.isError).toBeFalsy();
      const value = JSON.parse((result.content[0] as { text: string }).text) as { session: string };
      expect(value.session).toMatch(/^[0-9a-f-]{36}$/);
      expect(server.stderr()).toContain(
        '--context: "sessionId" is ignored by toolwright mcp: each MCP session\'s own id is the trusted sessionId',
      );
    } finally {
      await server.close();
    }
  });

  it("approvals are decided by the MCP client's user (form elicitation): approved runs the handler once, declined runs nothing", async () => {
    const approving = await approvalServer(() => ({ action: 'accept', content: { approve: true } }), '{}');
    try {
      const result = await approving.call();
      expect(result.isError).toBeFalsy();
      expect((result.content[0] as { text: string }).text).toContain('"refunded":2500');
      expect(approving.questions).toEqual([expect.stringContaining('"refund_order"') as unknown]);
      expect(approving.stderr()).toContain('Tools that wait for approval: refund_order.');
      expect(approving.stderr()).not.toContain('--context');
    } finally {
      await approving.close();
    }
    const declining = await approvalServer(() => ({ action: 'decline' }), '{}');
    try {
      const result = await declining.call();
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toContain('declined the call to "refund_order"');
    } finally {
      await declining.close();
    }
  });

  it('a client that cannot ask its user gets APPROVAL_REQUIRED with the pending approval in _meta; nothing runs', async () => {
    const server = await approvalServer(undefined, '{}');
    try {
      const result = await server.call();
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toContain("waits for a person's approval");
      expect(result._meta?.['toolwright/pendingApproval']).toMatchObject({ tool: 'refund_order' });
    } finally {
      await server.close();
    }
  });

  it('--http --port 0: Streamable HTTP on 127.0.0.1, stopped by SIGTERM with exit 0', async () => {
    const { child, url } = await startCli(['mcp', '--app', PERSONA_APP, '--http', '--port', '0']);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'cli-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      // No persona: publish_article, which needs the `publish` permission, is not listed.
      expect(tools.map((tool) => tool.name)).toEqual([
        'decision/propose',
        'get_calendar_events',
        'resolve_relative_date',
      ]);
      await client.close();
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });
});

describe('--mcp: the tools of an MCP server', () => {
  it('tools and try work on the tools of `node examples/mcp-server`', async () => {
    const server = 'node examples/mcp-server';
    const tools = await runCli(['tools', '--mcp', server, '--provider', 'openai', '--json']);
    expect(tools.code).toBe(0);
    const printed = JSON.parse(tools.stdout) as { providers: Array<{ names: Record<string, string> }> };
    expect(Object.keys(printed.providers[0]!.names)).toEqual([
      'decision/propose',
      'get_calendar_events',
      'publish_article',
      'resolve_relative_date',
    ]);
    const run = await runCli([
      'try',
      'get_calendar_events',
      '{"resolved_datetimes": ["2026-11-23T09:00:00+01:00"], "max_results": "1"}',
      '--mcp',
      server,
      '--run',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; value: unknown; transformations: Array<{ rule: string }> };
    expect(report.ok).toBe(true);
    expect(report.transformations.map((transformation) => transformation.rule)).toEqual(['string-to-integer']);
    expect(JSON.stringify(report.value)).toContain('Event 1');
  });

  it('a shell operator in the command line is refused, exit 2', async () => {
    const run = await runCli(['tools', '--mcp', 'node examples/mcp-server | cat']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the command line contains the shell operator "|"');
  });
});
