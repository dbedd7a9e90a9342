import type { IncomingMessage, ServerResponse } from 'node:http';
import { DefinitionError, type Logger, type PersonaContext } from '@toolwright/core';
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { serverMessages } from '../messages';

/** `serveMcp` as an OAuth 2.1 resource server: every HTTP request carries a bearer token, verified before anything else. */
export interface McpServerAuthOptions {
  /**
   * Verifies a token and says what it grants: `jwtVerifier` (JWT with the authorization server's JWKS),
   * `introspectionVerifier` (RFC 7662), or your own (the SDK's `OAuthTokenVerifier`; put the subject and tenant in
   * `extra.subject` and `extra.tenant`).
   */
  readonly verifier: OAuthTokenVerifier;
  /**
   * This endpoint's public URL, its resource identifier (RFC 8707): a token is accepted only when issued for it (its
   * audience), and the protected resource metadata names it. Default for `serveMcp`: the URL it listens on (set it
   * behind a proxy); required for an endpoint mounted on another server.
   */
  readonly resource?: string | URL;
  /** The authorization server that issues the tokens (its issuer, or its RFC 8414 metadata), advertised to clients. */
  readonly authorizationServer: string | (Pick<OAuthMetadata, 'issuer'> & Partial<OAuthMetadata>);
  /** Scopes every request needs; a valid token without them gets 403 `insufficient_scope`. Default none. */
  readonly requiredScopes?: readonly string[];
  /** The scopes advertised in the protected resource metadata (`scopes_supported`). */
  readonly scopesSupported?: readonly string[];
  /** A human-readable name advertised as `resource_name`. */
  readonly resourceName?: string;
  /** Allow an authorization server without HTTPS other than on localhost. Testing only. */
  readonly dangerouslyAllowInsecureIssuerUrl?: boolean;
}

/**
 * The verified caller of a request, in trusted context: the model never sets it and never sees the token.
 * `currentMcpRequest().caller` inside a handler; `caller` in the `context` hook.
 */
export interface McpCaller {
  /** Who: the token's subject (`sub`), or its client id when the verifier reports no subject. */
  readonly subject: string;
  /** The tenant claim, when the token carries one. */
  readonly tenant?: string;
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** What the token grants; the default persona holds them as permissions (`@Command({ permissions })`). */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
}

/** The caller an authentication (this gate, or a middleware that set `req.auth`) verified. */
export function callerOf(authInfo: AuthInfo): McpCaller {
  const extra = authInfo.extra ?? {};
  const subject = typeof extra.subject === 'string' && extra.subject !== '' ? extra.subject : authInfo.clientId;
  return Object.freeze({
    subject,
    ...(typeof extra.tenant === 'string' && extra.tenant !== '' ? { tenant: extra.tenant } : {}),
    clientId: authInfo.clientId,
    scopes: Object.freeze([...authInfo.scopes]),
    ...(authInfo.expiresAt !== undefined ? { expiresAt: authInfo.expiresAt } : {}),
  });
}

/**
 * Where the protected resource metadata of `resource` is served (RFC 9728, path-aware):
 * `https://api.example.com/mcp` -> `/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataPath(resource: string | URL): string {
  return new URL(getOAuthProtectedResourceMetadataUrl(new URL(resource))).pathname;
}

/** The persona a verified caller gets unless the `context` hook sets one: its subject, holding its scopes. */
export function personaOfCaller(caller: McpCaller): PersonaContext {
  return { name: caller.subject, permissions: caller.scopes };
}

/** One identity per session: a session opened by one caller refuses every other's token. */
export function callerKeyOf(request: IncomingMessage): string | undefined {
  const authInfo = (request as { auth?: AuthInfo }).auth;
  if (authInfo === undefined) return undefined;
  const caller = callerOf(authInfo);
  return JSON.stringify([caller.subject, caller.tenant ?? null]);
}

/**
 * The bearer gate of the HTTP endpoint, on the SDK's helpers: `verifyBearerToken` (header, verifier, audience as the
 * resource, required scopes, expiry), `bearerAuthChallengeResponse` (401/403 with `WWW-Authenticate` naming the
 * metadata) and `buildOAuthProtectedResourceMetadata` (the RFC 9728 document).
 */
export class McpBearerGate {
  readonly resource: URL;
  /** Where the protected resource metadata is served (path-aware, RFC 9728). */
  readonly metadataUrl: string;
  readonly metadataPath: string;
  private readonly metadata: OAuthProtectedResourceMetadata;
  private readonly requiredScopes: string[];

  constructor(
    private readonly options: McpServerAuthOptions,
    resource: string | URL | undefined,
    private readonly logger: Logger,
  ) {
    if (typeof options?.verifier?.verifyAccessToken !== 'function')
      throw new DefinitionError('auth.verifier has no verifyAccessToken(token) method.', {
        target: 'serveMcp',
        property: 'auth.verifier',
        fix: 'use jwtVerifier(...), introspectionVerifier(...) or an OAuthTokenVerifier of your own.',
      });
    const chosen = options.resource ?? resource;
    if (chosen === undefined || !URL.canParse(String(chosen)))
      throw new DefinitionError(`auth.resource is ${JSON.stringify(chosen === undefined ? null : String(chosen))}.`, {
        target: 'serveMcp',
        property: 'auth.resource',
        fix: 'give the public URL of the MCP endpoint, e.g. https://api.example.com/mcp.',
      });
    this.resource = new URL(String(chosen));
    this.requiredScopes = [...(options.requiredScopes ?? [])];
    const authorizationServer =
      typeof options.authorizationServer === 'string'
        ? { issuer: options.authorizationServer }
        : options.authorizationServer;
    try {
      // Only the issuer is read: the document names the authorization server, whose own metadata clients fetch there.
      this.metadata = buildOAuthProtectedResourceMetadata({
        oauthMetadata: authorizationServer as OAuthMetadata,
        resourceServerUrl: this.resource,
        ...(options.scopesSupported ? { scopesSupported: [...options.scopesSupported] } : {}),
        ...(options.resourceName ? { resourceName: options.resourceName } : {}),
        ...(options.dangerouslyAllowInsecureIssuerUrl ? { dangerouslyAllowInsecureIssuerUrl: true } : {}),
      });
    } catch (error) {
      throw new DefinitionError(
        `auth.authorizationServer is ${JSON.stringify(authorizationServer.issuer)}.`,
        {
          target: 'serveMcp',
          property: 'auth.authorizationServer',
          fix: 'give the HTTPS issuer URL of the authorization server (no query, no fragment).',
        },
        { cause: error },
      );
    }
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(this.resource);
    this.metadataPath = protectedResourceMetadataPath(this.resource);
  }

  /** Serves the protected resource metadata (GET, HEAD, CORS preflight). */
  serveMetadata(request: IncomingMessage, response: ServerResponse): void {
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' });
      response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...cors, Allow: 'GET, HEAD, OPTIONS', 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: 'method_not_allowed' }));
      return;
    }
    response.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
    response.end(request.method === 'HEAD' ? undefined : JSON.stringify(this.metadata));
  }

  /**
   * Verifies the request's bearer token; on success the caller's `AuthInfo` is set as `request.auth` (where the
   * SDK's transports read it) and returned. Otherwise the challenge is sent and undefined returned.
   */
  async authenticate(request: IncomingMessage, response: ServerResponse): Promise<AuthInfo | undefined> {
    // One Authorization header: Node joins repeated ones with ', ', which the format check then refuses.
    const header = request.headers.authorization;
    try {
      const authInfo = await verifyBearerToken(header, {
        verifier: this.options.verifier,
        requiredScopes: this.requiredScopes,
        resourceMetadataUrl: this.metadataUrl,
        expectedResource: this.resource,
      });
      (request as { auth?: AuthInfo }).auth = authInfo;
      return authInfo;
    } catch (error) {
      if (error instanceof OAuthError && error.code === String(OAuthErrorCode.ServerError))
        this.logger.error(serverMessages.tokenVerificationUnavailable(error));
      else if (!(error instanceof OAuthError)) this.logger.error(serverMessages.tokenVerifierFailed(error));
      else this.logger.debug(serverMessages.tokenRefused(error.message));
      await sendWebResponse(
        response,
        bearerAuthChallengeResponse(error, {
          requiredScopes: this.requiredScopes,
          resourceMetadataUrl: this.metadataUrl,
        }),
      );
      return undefined;
    }
  }
}

async function sendWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = await answer.text();
  response.writeHead(answer.status, headers);
  response.end(body);
}
