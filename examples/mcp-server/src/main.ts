import 'reflect-metadata';
import { createPersonaRegistry } from '@toolwright/example-persona-app/commands';
import { serveMcp, stderrLogger, type McpServerHandle, type McpServerOptions } from '@toolwright/mcp';

/**
 * The example app's commands over MCP.
 *   node examples/mcp-server                          stdio (stdout carries only JSON-RPC; logs go to stderr)
 *   node examples/mcp-server --http --port 3000       Streamable HTTP on http://127.0.0.1:3000/mcp
 *   node examples/mcp-server --http --stateless       no sessions (any replica can answer any request)
 */
export interface ExampleServerArguments {
  readonly http: boolean;
  readonly port: number;
  readonly host: string;
  readonly stateless: boolean;
}

export const USAGE = 'Usage: node examples/mcp-server [--http [--port N] [--host 127.0.0.1] [--stateless]]';

export function parseArguments(argv: readonly string[]): ExampleServerArguments {
  let http = false;
  let port = 3000;
  let host = '127.0.0.1';
  let stateless = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${argument} needs a value. ${USAGE}`);
      return next;
    };
    if (argument === '--http') http = true;
    else if (argument === '--stateless') stateless = true;
    else if (argument === '--host') host = value();
    else if (argument === '--port') {
      const text = value();
      port = Number(text);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new Error(`--port ${text} is not a port number. ${USAGE}`);
    } else throw new Error(`Unknown argument ${String(argument)}. ${USAGE}`);
  }
  if (!http && (stateless || argv.includes('--port') || argv.includes('--host')))
    throw new Error(`--port, --host and --stateless need --http. ${USAGE}`);
  return { http, port, host, stateless };
}

export async function startExampleServer(args: ExampleServerArguments): Promise<McpServerHandle> {
  const registry = createPersonaRegistry({ logger: stderrLogger });
  const options: McpServerOptions = {
    serverInfo: { name: 'toolwright-example', version: '0.1.0', title: 'toolwright example app' },
    logger: stderrLogger,
    // Trusted context for every session: who the client acts as (its permissions), and the time zone for dates.
    context: () => ({
      persona: { name: 'mcp-client', permissions: ['publish'] },
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    }),
  };
  return args.http
    ? serveMcp(registry, { transport: 'http', host: args.host, port: args.port, stateless: args.stateless, ...options })
    : serveMcp(registry, { transport: 'stdio', ...options });
}

async function main(): Promise<void> {
  let args: ExampleServerArguments;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const handle = await startExampleServer(args);
  const stop = () => void handle.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await handle.closed;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
