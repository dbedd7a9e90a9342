import type { ExecutionContext } from '@toolwright/core';
import { jwtVerifier, serveMcp, stderrLogger, type McpServerAuthOptions } from '@toolwright/mcp';
import { CliError } from '../errors/cli-error';
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
 * The `--context` fields `toolwright mcp` does not pass on, each with the reason said on stderr: the MCP server sets
 * them itself for every call.
 */
const SET_BY_THE_SERVER: Readonly<Record<string, string>> = {
  sessionId:
    "each MCP session's own id is the trusted sessionId (stdio: a new id per server start; HTTP: the session the client opened), so a call's tools and approvals see the session that made it",
};

/** `--context` for every session, without the fields the server sets itself; each one dropped is named on stderr. */
export function sessionContext(context: ExecutionContext, output: Output): ExecutionContext {
  const kept: Record<string, unknown> = { ...context };
  for (const [field, reason] of Object.entries(SET_BY_THE_SERVER)) {
    if (!Object.hasOwn(kept, field)) continue;
    delete kept[field];
    output.err(output.styleErr('yellow', `--context: "${field}" is ignored by toolwright mcp: ${reason}.`));
  }
  return kept;
}

/**
 * Says on stderr how the calls of tools with `approval` are decided: by the MCP client's user, asked within the call
 * (form elicitation). With a client that cannot ask, such a call answers APPROVAL_REQUIRED and its approval waits in
 * this process until it expires: no other channel reaches it (docs/cli.md).
 */
function sayHowApprovalsAreDecided(tools: LoadedTools, output: Output): void {
  const gated = tools.registry
    .list()
    .filter((definition) => definition.options.approval !== undefined && definition.options.approval !== false)
    .map((definition) => definition.name);
  if (gated.length === 0) return;
  output.err(
    output.styleErr(
      'dim',
      `Tools that wait for approval: ${gated.join(', ')}. The MCP client's user decides each call when the client supports form elicitation; with another client the call answers APPROVAL_REQUIRED and nothing runs.`,
    ),
  );
}

/** `--auth-*`: the HTTP server as an OAuth resource server, verifying JWT access tokens with the issuer's JWKS. */
export interface McpCommandAuth {
  readonly issuer: string;
  /** Default: the `jwks_uri` of the issuer's metadata (RFC 8414, else OpenID discovery). */
  readonly jwksUrl?: string;
  readonly resource?: string;
  readonly requiredScopes: readonly string[];
  readonly tenantClaim: string;
}

/** The issuer's `jwks_uri`, from its RFC 8414 metadata or, failing that, its OpenID configuration. */
async function discoverJwksUrl(issuer: string): Promise<string> {
  const base = new URL(issuer);
  const suffix = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${suffix}`, base),
    new URL(`${suffix}/.well-known/openid-configuration`, base),
  ];
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, { signal: AbortSignal.timeout(5_000), redirect: 'error' });
      if (!response.ok) continue;
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
    } catch {
      // The next candidate, then the error below.
    }
  }
  throw new CliError(
    `--auth-issuer ${issuer}: no metadata with this issuer and a jwks_uri at ${candidates.map(String).join(' or ')}. Fix: pass --auth-jwks <url>.`,
    EXIT_CODES.usage,
  );
}

async function authOptions(auth: McpCommandAuth, context: ExecutionContext): Promise<McpServerAuthOptions> {
  if (context.persona !== undefined)
    throw new CliError(
      '--context sets a persona, and --auth-issuer gives each caller its own (its subject, holding its scopes). Fix: drop "persona" from --context.',
      EXIT_CODES.usage,
    );
  const jwksUrl = auth.jwksUrl ?? (await discoverJwksUrl(auth.issuer));
  return {
    verifier: jwtVerifier({ jwksUrl, issuer: auth.issuer, tenantClaim: auth.tenantClaim }),
    authorizationServer: auth.issuer,
    ...(auth.resource !== undefined ? { resource: auth.resource } : {}),
    requiredScopes: auth.requiredScopes,
    ...(auth.requiredScopes.length > 0 ? { scopesSupported: auth.requiredScopes } : {}),
  };
}

/**
 * `toolwright mcp`: the registry over MCP. stdio by default (stdout carries only JSON-RPC; logs go to stderr),
 * `--http` for Streamable HTTP on 127.0.0.1. Every session gets `--context` as its trusted context.
 */
export async function mcpCommand(
  tools: LoadedTools,
  options: { http: boolean; port: number; host: string; context: ExecutionContext; auth?: McpCommandAuth },
  output: Output,
): Promise<number> {
  if (options.auth !== undefined && !options.http)
    throw new CliError('--auth-issuer verifies HTTP bearer tokens. Fix: add --http.', EXIT_CODES.usage);
  const fixed = sessionContext(options.context, output);
  const auth = options.auth !== undefined ? await authOptions(options.auth, fixed) : undefined;
  const context = () => fixed;
  sayHowApprovalsAreDecided(tools, output);
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
    ...(auth !== undefined ? { auth } : {}),
  });
  output.out(`MCP server (Streamable HTTP) for ${tools.label}: ${handle.url}`);
  output.err(output.styleErr('dim', 'Press Ctrl+C to stop.'));
  await untilSignal();
  await handle.close();
  return EXIT_CODES.ok;
}
