import { ToolRegistry, type Logger } from '@toolwright/core';
import { connectMcpServers, type McpConnections } from '@toolwright/mcp';
import { parse } from 'shell-quote';
import { CliError } from '../errors/cli-error';

/** Splits `--mcp '<server command line>'` the way a POSIX shell would, without running a shell. */
export function splitCommandLine(commandLine: string): { command: string; args: string[] } {
  const words: string[] = [];
  for (const entry of parse(commandLine)) {
    if (typeof entry !== 'string') {
      const operator = 'op' in entry ? entry.op : 'pattern' in entry ? entry.pattern : JSON.stringify(entry);
      throw new CliError(
        `--mcp: the command line contains the shell operator ${JSON.stringify(operator)}; it is run directly, not through a shell. Fix: pass one command and its arguments (wrap pipelines in a script).`,
      );
    }
    words.push(entry);
  }
  const [command, ...args] = words;
  if (command === undefined)
    throw new CliError(
      "--mcp: the command line is empty. Fix: pass the server's command, e.g. --mcp 'node examples/mcp-server'.",
    );
  return { command, args };
}

/** A registry holding one stdio MCP server's tools (namespace-free, so the tools keep the server's names). */
export async function loadMcpRegistry(
  commandLine: string,
  logger: Logger,
): Promise<{ registry: ToolRegistry; connections: McpConnections }> {
  const { command, args } = splitCommandLine(commandLine);
  const registry = new ToolRegistry({ logger });
  const connections = connectMcpServers(
    registry,
    [{ name: 'server', command, args, cwd: process.cwd(), namespace: false }],
    { logger, retry: { attempts: 1 } },
  );
  const report = await connections.ready;
  if (report.degraded.length > 0) {
    const status = connections.get('server')?.status();
    await connections.close();
    throw new CliError(
      `--mcp ${commandLine}: the MCP server did not start: ${status?.error?.message ?? 'no reason given'}. Fix: check the command runs on its own and speaks MCP on stdio.`,
    );
  }
  return { registry, connections };
}
