import type { ExecutionContext } from '@toolwright/core';
import { serveMcp, stderrLogger } from '@toolwright/mcp';
import { EXIT_CODES } from '../exit-codes';
import type { Output } from '../output';
import type { LoadedTools } from '../source/tools';

/** Resolves on the first SIGINT or SIGTERM (the listeners are removed then). */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/**
 * `toolwright mcp`: the registry over MCP. stdio by default (stdout carries only JSON-RPC; logs go to stderr),
 * `--http` for Streamable HTTP on 127.0.0.1. Every session gets `--context` as its trusted context.
 */
export async function mcpCommand(
  tools: LoadedTools,
  options: { http: boolean; port: number; host: string; context: ExecutionContext },
  output: Output,
): Promise<number> {
  const context = () => options.context;
  if (!options.http) {
    const handle = await serveMcp(tools.registry, { transport: 'stdio', logger: stderrLogger, context });
    await Promise.race([handle.closed, untilSignal()]);
    await handle.close();
    return EXIT_CODES.ok;
  }
  const handle = await serveMcp(tools.registry, {
    transport: 'http',
    host: options.host,
    port: options.port,
    logger: stderrLogger,
    context,
  });
  output.out(`MCP server (Streamable HTTP) for ${tools.label}: ${handle.url}`);
  output.err(output.styleErr('dim', 'Press Ctrl+C to stop.'));
  await untilSignal();
  await handle.close();
  return EXIT_CODES.ok;
}
