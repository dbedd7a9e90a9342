import { DefinitionError, type ExecutionContext } from '@toolwright/core';
import type {
  AddClientAuthentication,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
} from '@modelcontextprotocol/client';
import { MemoryTokenStore, type TokenStore } from './token-store';

/** What the app's redirect step is given: send the user to `authorizationUrl`, then resolve with the URL they came back to. */
export interface McpAuthorizationRequest {
  /** The MCP server's name. */
  readonly server: string;
  /** The authorization server's page the user must open (it carries PKCE's code challenge and the state). */
  readonly authorizationUrl: URL;
  /** The token key being authorized (what `tokenKey` returned). */
  readonly key: string;
  /** The trusted context of the call that needs it (the connection's `connectionContext` for its own requests). */
  readonly context: ExecutionContext;
  /** Aborted when the call is cancelled or the connection closes: stop waiting for the user. */
  readonly signal: AbortSignal;
}

/**
 * OAuth 2.1 for MCP servers over HTTP, run by the MCP SDK's own client (`auth()` and the Streamable HTTP
 * transport's `authProvider`): protected-resource and authorization-server discovery (RFC 9728, RFC 8414, OpenID),
 * dynamic client registration or a client ID metadata document, PKCE, the code exchange, refresh, scope selection
 * and step-up, and the token endpoint auth method the server supports.
 */
export interface McpOAuthOptions {
  /** This client's registration metadata (RFC 7591): `client_name`, `redirect_uris`, and optionally `scope`, `grant_types`, ... */
  readonly clientMetadata: OAuthClientMetadata;
  /** Where the authorization server sends the user back. Default: `clientMetadata.redirect_uris[0]`. */
  readonly redirectUrl?: string | URL;
  /** An https URL of this client's ID metadata document, used where the authorization server supports those. */
  readonly clientMetadataUrl?: string;
  /** Pre-registered credentials (`client_id`, `client_secret`): no registration is made with them. */
  readonly clientInformation?: OAuthClientInformationMixed;
  /**
   * `'authorization_code'` (default): a user authorizes, through `authorize`. `'client_credentials'`: the app
   * authorizes as itself with `clientInformation`, no user and no redirect.
   */
  readonly grantType?: 'authorization_code' | 'client_credentials';
  /** Custom client authentication at the token endpoint, e.g. the SDK's `createPrivateKeyJwtAuth(...)`. */
  readonly addClientAuthentication?: AddClientAuthentication;
  /**
   * The redirect step (required with `'authorization_code'`): show the user `authorizationUrl` (open a browser,
   * send it to your front end, ...) and resolve with the full URL the authorization server redirected them to
   * (`redirectUrl?code=...&state=...`). Its state is checked and its code exchanged here.
   */
  readonly authorize?: (request: McpAuthorizationRequest) => Promise<string | URL>;
  /** Where tokens and the client registration are kept. Default: a `MemoryTokenStore` (per `connectMcpServers` call). */
  readonly tokenStore?: TokenStore;
  /**
   * Whose token a call uses, from the call's trusted context: e.g. `(context) => String(context.handlerConfig?.userId)`.
   * Calls with different keys never share a token, nor a connection. Default: one key for every call (`'default'`).
   */
  readonly tokenKey?: (context: ExecutionContext) => string;
  /** The context the connection's own requests (initialize, tools/list) authorize as. Default: `{}`. */
  readonly connectionContext?: ExecutionContext;
  /**
   * Most connections per server for other keys kept open; the least recently used is closed past it, once its calls in
   * flight have ended. Default 100.
   */
  readonly maxSessions?: number;
  /** Longest wait for `authorize` to resolve. Default 300,000 ms (five minutes). */
  readonly authorizeTimeoutMs?: number;
}

/** `McpOAuthOptions` with its defaults filled in. */
export interface ResolvedOAuthOptions extends McpOAuthOptions {
  readonly redirectUrl?: string;
  readonly grantType: 'authorization_code' | 'client_credentials';
  readonly tokenStore: TokenStore;
  readonly tokenKey: (context: ExecutionContext) => string;
  readonly connectionContext: ExecutionContext;
  readonly maxSessions: number;
  readonly authorizeTimeoutMs: number;
}

const DEFAULT_KEY = 'default';

/** Checks `auth` for a server and fills in its defaults; developer errors are thrown before anything connects. */
export function resolveOAuthOptions(auth: McpOAuthOptions, target: string): ResolvedOAuthOptions {
  const fail = (what: string, fix: string) => new DefinitionError(what, { target, property: 'auth', fix });
  if (typeof auth !== 'object' || auth === null)
    throw fail('is not an object.', 'pass McpOAuthOptions or leave it out.');
  if (typeof auth.clientMetadata !== 'object' || auth.clientMetadata === null)
    throw fail(
      'has no clientMetadata.',
      "give at least { client_name, redirect_uris: ['http://127.0.0.1:.../callback'] }.",
    );
  const grantType = auth.grantType ?? 'authorization_code';
  if (grantType !== 'authorization_code' && grantType !== 'client_credentials')
    throw fail(`has grantType ${JSON.stringify(grantType)}.`, "use 'authorization_code' or 'client_credentials'.");
  let redirectUrl: string | undefined;
  if (grantType === 'authorization_code') {
    const candidate = auth.redirectUrl ?? auth.clientMetadata.redirect_uris?.[0];
    if (candidate === undefined) throw fail('has no redirect URL.', 'set redirectUrl or clientMetadata.redirect_uris.');
    try {
      redirectUrl = new URL(String(candidate)).href;
    } catch {
      throw fail(`has an invalid redirect URL ${JSON.stringify(String(candidate))}.`, 'use an absolute URL.');
    }
    if (typeof auth.authorize !== 'function')
      throw fail('has no authorize callback.', "pass authorize(request), the app's redirect step.");
  } else if (auth.clientInformation === undefined) {
    throw fail(
      'uses client_credentials without clientInformation.',
      'give the pre-registered client_id and client_secret.',
    );
  }
  for (const [name, value] of [
    ['maxSessions', auth.maxSessions],
    ['authorizeTimeoutMs', auth.authorizeTimeoutMs],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw fail(`has ${name} ${String(value)}.`, 'use a positive whole number.');
  }
  return {
    ...auth,
    redirectUrl,
    grantType,
    tokenStore: auth.tokenStore ?? new MemoryTokenStore(),
    tokenKey: auth.tokenKey ?? (() => DEFAULT_KEY),
    connectionContext: auth.connectionContext ?? {},
    maxSessions: auth.maxSessions ?? 100,
    authorizeTimeoutMs: auth.authorizeTimeoutMs ?? 300_000,
  };
}
