import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ToolwrightError } from '@toolwright/core';
import { lintCommand } from './commands/lint-command';
import { replayCommand } from './commands/replay-command';
import { toolsCommand } from './commands/tools-command';
import { parsePolicy, POLICIES, tryCommand } from './commands/try-command';
import { CliError } from './errors/cli-error';
import { EXIT_CODES } from './exit-codes';
import { createOutput, stderrWarnings, type Output } from './output';
import { loadTools, parseContext, parseProviders, type LoadedTools, type SourceOptions } from './source/tools';

const EXIT_CODE_HELP = `
Exit codes:
  0  done: definitions printed, lint without errors, the call prepared or ran ok, the server stopped cleanly
  1  a problem was found: lint errors, or the call was refused (the model-facing error is printed)
  2  the command could not run: a bad option, an app or MCP server that does not load, an unreadable file

Tools come from --app <path> (a module, or a package folder, whose \`registry\` or default export is a ToolRegistry)
or --mcp '<server command line>' (a stdio MCP server). Results go to stdout (--json for machine output), diagnostics
to stderr; colors only on a terminal (NO_COLOR turns them off).`;

/**
 * @toolwright/mcp (and the MCP SDK under it) is loaded only by the commands that use it (`mcp`, `inspect`, `--mcp`):
 * every other command starts faster without it.
 */
function lazyMcp(): typeof import('@toolwright/mcp') {
  return require('@toolwright/mcp') as typeof import('@toolwright/mcp');
}

function version(): string {
  try {
    return (JSON.parse(readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** A repeatable option's values, in order. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0: a free port).');
  return parsed;
}

function withSource(command: Command): Command {
  return command
    .option('--app <path>', 'a module or package folder whose `registry` (or default) export is a ToolRegistry')
    .option(
      '--mcp <command line | url>',
      'an MCP server to take the tools from: a stdio command line, e.g. "node examples/mcp-server", or an http(s) URL (OAuth when the server asks: the URL to open is printed to stderr)',
    )
    .option('--token-file <path>', 'with --mcp <url>: where OAuth tokens are kept (a 0600 file)')
    .option('--oauth-port <port>', 'with --mcp <url>: the port of the 127.0.0.1 OAuth redirect listener', port);
}

const providerOption = () => new Option('--provider <ids>', 'provider ids, comma-separated, or all').default('all');

/**
 * Runs the CLI on `argv` (as `process.argv`: node, script, arguments) and resolves with the exit code. Never calls
 * `process.exit`; long-running commands (`mcp`, `inspect`) resolve when stopped (SIGINT/SIGTERM, or stdin closed).
 */
export async function runCli(argv: readonly string[], output: Output = createOutput()): Promise<number> {
  let exitCode: number = EXIT_CODES.ok;
  let loaded: LoadedTools | undefined;
  const withTools = async (options: SourceOptions, action: (tools: LoadedTools) => Promise<number> | number) => {
    // Loading logs warnings and errors only (an MCP server's connection steps are not news on a terminal).
    loaded = await loadTools(options, stderrWarnings, (text) => output.stderr.write(text));
    exitCode = await action(loaded);
  };

  const program = new Command('toolwright')
    .description(
      'See, lint and try a toolwright tool set without writing code: definitions per provider, provider lint, raw calls through the executor, replays, MCP, and the inspector page.',
    )
    .version(version(), '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODE_HELP)
    .configureOutput({
      writeOut: (text) => output.stdout.write(text),
      writeErr: (text) => output.stderr.write(text),
      outputError: (text, write) => write(output.styleErr('red', text)),
    })
    .exitOverride();

  withSource(program.command('tools'))
    .description('print the tool definitions exactly as each provider gets them, with the name codec mapping')
    .addOption(providerOption())
    .option('--strict', 'the strict variant, for providers that have one', false)
    .option('--json', 'machine-readable output', false)
    .addHelpText('after', '\nExample:\n  toolwright tools --app examples/persona-app --provider openai,anthropic')
    .action((options: SourceOptions & { provider: string; strict: boolean; json: boolean }) =>
      withTools(options, (tools) =>
        toolsCommand(
          tools,
          { providers: parseProviders(options.provider), json: options.json, strict: options.strict },
          output,
        ),
      ),
    );

  withSource(program.command('lint'))
    .description('check every tool against every provider’s limits; exit code 1 on errors (for CI)')
    .addOption(providerOption())
    .option('--strict', 'lint the strict variants too', false)
    .option('--info', 'list the info findings too (keywords moved into descriptions, ...)', false)
    .option('--json', 'machine-readable output', false)
    .addHelpText('after', '\nExample:\n  toolwright lint --app examples/persona-app --provider openai,gemini')
    .action((options: SourceOptions & { provider: string; strict: boolean; info: boolean; json: boolean }) =>
      withTools(options, (tools) =>
        lintCommand(
          tools,
          {
            providers: parseProviders(options.provider),
            json: options.json,
            strict: options.strict,
            info: options.info,
          },
          output,
        ),
      ),
    );

  withSource(program.command('try'))
    .description(
      'run one call through the executor and print each transformation, the validated parameters or the model-facing error',
    )
    .argument('<tool>', 'the tool name as the model would call it')
    .argument('[arguments]', 'the raw arguments text the model sent (default {}); - reads it from stdin')
    .option(
      '--context <json>',
      'the trusted execution context, e.g. \'{"sessionId": "s-1", "timeZone": "Europe/Berlin"}\'',
    )
    .addOption(new Option('--policy <policy>', 'coercion policy').choices(POLICIES as string[]))
    .option('--run', 'also call the handler (default: prepare only, nothing runs)', false)
    .option('--json', 'machine-readable output', false)
    .addHelpText(
      'after',
      `\nExample:\n  toolwright try get_calendar_events "{'resolved_datetimes': '2026-11-23T09:00:00+01:00', 'max_results': '5'}" --app examples/persona-app`,
    )
    .action(
      (
        tool: string,
        argumentsText: string | undefined,
        options: SourceOptions & { context?: string; policy?: string; run: boolean; json: boolean },
      ) =>
        withTools(options, async (tools) =>
          tryCommand(
            tools,
            tool,
            argumentsText === '-' ? readFileSync(0, 'utf8') : (argumentsText ?? '{}'),
            {
              context: parseContext(options.context),
              policy: parsePolicy(options.policy),
              run: options.run,
              json: options.json,
            },
            output,
          ),
        ),
    );

  withSource(program.command('replay'))
    .description(
      'run recorded calls (JSON lines) through the executor and summarize: ok / refused per tool, transformations per rule',
    )
    .argument(
      '<file>',
      'a JSON Lines file: {"name", "arguments", "context"?} per line, {"call": {...}}, MCP tools/call requests or provider responses',
    )
    .option('--context <json>', 'context for lines that carry none')
    .addOption(new Option('--policy <policy>', 'coercion policy').choices(POLICIES as string[]))
    .option('--run', 'call the handlers too (default: prepare only)', false)
    .option('--json', 'machine-readable output', false)
    .action(
      (file: string, options: SourceOptions & { context?: string; policy?: string; run: boolean; json: boolean }) =>
        withTools(options, (tools) =>
          replayCommand(
            tools,
            file,
            {
              context: parseContext(options.context),
              policy: parsePolicy(options.policy),
              run: options.run,
              json: options.json,
            },
            output,
          ),
        ),
    );

  withSource(program.command('mcp'))
    .description('serve the tools over MCP: stdio by default, or Streamable HTTP on 127.0.0.1 with --http')
    .option('--http', 'Streamable HTTP instead of stdio', false)
    .option('--port <port>', 'HTTP port (0: a free one)', port, 3000)
    .option('--host <host>', 'HTTP interface', '127.0.0.1')
    .option('--context <json>', 'trusted context for every session')
    .option('--auth-issuer <url>', 'HTTP: verify bearer tokens from this OAuth authorization server (its issuer)')
    .option('--auth-jwks <url>', "HTTP: the authorization server's JWKS URL (default: its metadata's jwks_uri)")
    .option('--auth-resource <url>', "HTTP: this endpoint's public URL, the tokens' audience (default: the URL served)")
    .option('--auth-scope <scope>', 'HTTP: a scope every token needs (repeatable)', collect, [])
    .option('--auth-tenant-claim <claim>', 'HTTP: the token claim naming the tenant', 'tenant')
    .action(
      async (
        options: SourceOptions & {
          http: boolean;
          port: number;
          host: string;
          context?: string;
          authIssuer?: string;
          authJwks?: string;
          authResource?: string;
          authScope: string[];
          authTenantClaim: string;
        },
      ) => {
        const context = parseContext(options.context);
        const { redirectConsoleToStderr } = lazyMcp();
        const { mcpCommand } = require('./commands/serve-command') as typeof import('./commands/serve-command');
        // stdio: stdout carries only JSON-RPC, so nothing the app prints while it loads may reach it.
        const restore = options.http ? () => undefined : redirectConsoleToStderr();
        try {
          await withTools(options, (tools) =>
            mcpCommand(
              tools,
              {
                http: options.http,
                port: options.port,
                host: options.host,
                context,
                ...(options.authIssuer !== undefined
                  ? {
                      auth: {
                        issuer: options.authIssuer,
                        ...(options.authJwks !== undefined ? { jwksUrl: options.authJwks } : {}),
                        ...(options.authResource !== undefined ? { resource: options.authResource } : {}),
                        requiredScopes: options.authScope,
                        tenantClaim: options.authTenantClaim,
                      },
                    }
                  : {}),
              },
              output,
            ),
          );
        } finally {
          restore();
        }
      },
    );

  withSource(program.command('inspect'))
    .description('start the inspector page on 127.0.0.1 and print its URL (with a per-start token)')
    .option('--port <port>', 'port (0: a free one)', port, 0)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--allow-run', 'let the page run handlers (each run is confirmed in the page)', false)
    .option('--context <json>', 'the context prefilled in the page')
    .addOption(new Option('--policy <policy>', 'coercion policy').choices(POLICIES))
    .option('--code <tool>', "print the tool's compiled plan and exit (no page is started)")
    .action(
      (
        options: SourceOptions & {
          port: number;
          host: string;
          allowRun: boolean;
          context?: string;
          policy?: string;
          code?: string;
        },
      ) =>
        withTools(options, (tools) =>
          (require('./commands/inspect-command') as typeof import('./commands/inspect-command')).inspectCommand(
            tools,
            {
              port: options.port,
              host: options.host,
              allowRun: options.allowRun,
              context: parseContext(options.context),
              policy: parsePolicy(options.policy),
              code: options.code,
            },
            output,
          ),
        ),
    );

  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are printed by commander and exit 0; every other parse error was printed too.
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    if (error instanceof CliError) {
      output.err(output.styleErr('red', `error: ${error.message}`));
      return error.exitCode;
    }
    if (ToolwrightError.isInstance(error)) {
      output.err(output.styleErr('red', `error: ${error.message}`));
      return EXIT_CODES.usage;
    }
    output.err(
      output.styleErr('red', `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    );
    return EXIT_CODES.usage;
  } finally {
    await loaded?.close();
  }
}
