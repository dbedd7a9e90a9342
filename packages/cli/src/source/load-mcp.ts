import { homedir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry, type Logger } from '@toolwright/core';
import { connectMcpServers, FileTokenStore, type McpConnections, type McpServerConfig } from '@toolwright/mcp';
import { parse } from 'shell-quote';
import { CliError } from '../errors/cli-error';
import {
  DEFAULT_REDIRECT_PORT,
  startOAuthRedirectListener,
  type OAuthRedirectListener,
} from './oauth-redirect-listener';

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

/** How `--mcp <url>` authorizes: the token file and the redirect listener's port. */
export interface McpAuthorizationSettings {
  readonly tokenFile: string;
  readonly redirectPort: number;
  /** Where the URL to open is printed (stderr). */
  readonly writeErr: (text: string) => void;
}

/** `$XDG_CONFIG_HOME/toolwright/mcp-tokens.json`, else `~/.config/toolwright/mcp-tokens.json`. */
export function defaultTokenFile(): string {
  const config = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'toolwright', 'mcp-tokens.json');
}

function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text.trim());
}

/**
 * A registry holding one MCP server's tools (namespace-free, so the tools keep the server's names): a stdio server's
 * command line, or an http(s) URL reached over Streamable HTTP with OAuth when the server asks for it (tokens in a
 * 0600 file, the redirect on a 127.0.0.1 listener, the URL to open printed to stderr).
 */
export async function loadMcpRegistry(
  commandLine: string,
  logger: Logger,
  authorization?: McpAuthorizationSettings,
): Promise<{ registry: ToolRegistry; connections: McpConnections }> {
  const registry = new ToolRegistry({ logger });
  let listener: OAuthRedirectListener | undefined;
  let server: McpServerConfig;
  if (isUrl(commandLine)) {
    const settings = authorization ?? {
      tokenFile: defaultTokenFile(),
      redirectPort: DEFAULT_REDIRECT_PORT,
      writeErr: (text: string) => void process.stderr.write(text),
    };
    listener = await startOAuthRedirectListener(settings.redirectPort, settings.writeErr);
    server = {
      name: 'server',
      url: commandLine.trim(),
      namespace: false,
      auth: {
        clientMetadata: { client_name: 'toolwright CLI', redirect_uris: [listener.redirectUrl] },
        tokenStore: new FileTokenStore(settings.tokenFile),
        authorize: (request) => listener!.authorize(request),
      },
    };
  } else {
    const { command, args } = splitCommandLine(commandLine);
    server = { name: 'server', command, args, cwd: process.cwd(), namespace: false };
  }
  const connections = connectMcpServers(registry, [server], { logger, retry: { attempts: 1 } });
  const report = await connections.ready;
  await listener?.close();
  if (report.degraded.length > 0) {
    const status = connections.get('server')?.status();
    await connections.close();
    const fix = isUrl(commandLine)
      ? 'check the URL serves MCP over Streamable HTTP, and complete the authorization in the browser if asked.'
      : 'check the command runs on its own and speaks MCP on stdio.';
    throw new CliError(
      `--mcp ${commandLine}: the MCP server did not start: ${status?.error?.message ?? 'no reason given'}. Fix: ${fix}`,
    );
  }
  return { registry, connections };
}
