import { DefinitionError } from '@toolwright/core';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';

/** What every verifier reads from a token besides its signature or activity: who, for which tenant, and the claims' names. */
interface VerifierClaimsOptions {
  /** The `iss` a token must carry: the authorization server's issuer identifier. */
  readonly issuer: string;
  /**
   * The `aud` a token must carry. Default: not checked here; the token's single audience is reported as its
   * resource, and `serveMcp`'s bearer gate accepts it only when that is the server's own resource URL.
   */
  readonly audience?: string;
  /** The claim naming the caller's tenant (organisation, workspace), when there is one. Default `tenant`. */
  readonly tenantClaim?: string;
}

/** What `jwtVerifier` takes. */
export interface JwtVerifierOptions extends VerifierClaimsOptions {
  /** The authorization server's JSON Web Key Set (`jwks_uri` of its metadata). */
  readonly jwksUrl: string | URL;
  /** Signature algorithms accepted. Default RS256, PS256, ES256 and EdDSA (never `none`, never a shared secret). */
  readonly algorithms?: readonly string[];
  /** Clock skew allowed on `exp` and `nbf`, in seconds. Default 5. */
  readonly clockToleranceSeconds?: number;
  /**
   * A token signed with a key not in the cached set (the authorization server rotated its keys) refetches the set,
   * at most once in this many ms. Default 30,000.
   */
  readonly jwksCooldownMs?: number;
  /** How long a JWKS fetch may take. Default 5,000 ms. */
  readonly jwksTimeoutMs?: number;
}

/** What `introspectionVerifier` takes. */
export interface IntrospectionVerifierOptions extends VerifierClaimsOptions {
  /** The authorization server's token introspection endpoint (RFC 7662). */
  readonly endpoint: string | URL;
  /** This resource server's credentials at that endpoint (HTTP Basic, `client_secret_basic`). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** How long an introspection may take. Default 5,000 ms. */
  readonly timeoutMs?: number;
}

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
/** An introspection answer larger than this is refused (a JSON object of a few claims is far smaller). */
const MAX_INTROSPECTION_BYTES = 64 * 1024;

type Jose = typeof import('jose');

/**
 * jose is published as an ES module only and is an optional peer: loaded on first use. The supported Node versions
 * (engines: ^20.19 || >=22.12) `require` an ES module natively; `import()` would do too, but not inside jest's VM.
 */
function loadJose(): Jose {
  try {
    return require('jose') as Jose;
  } catch (error) {
    throw new DefinitionError(
      'the package "jose" is not installed.',
      {
        target: 'jwtVerifier',
        fix: 'npm install jose (version 6).',
      },
      { cause: error },
    );
  }
}

/**
 * Verifies JWT access tokens (RFC 9068) locally against the authorization server's JWKS, fetched with jose: the
 * signature (an accepted algorithm, a key of the set), `iss`, `aud` when configured, `exp` (required) and `nbf`. The
 * token's `sub` is the caller, its `scope` (space-separated) or `scp` (array) its scopes, its tenant claim its tenant.
 * A key the set does not hold yet refetches the set (key rotation without a restart).
 */
export function jwtVerifier(options: JwtVerifierOptions): OAuthTokenVerifier {
  const jose = loadJose();
  const jwks = jose.createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
    timeoutDuration: options.jwksTimeoutMs ?? 5_000,
  });
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  if (algorithms.some((algorithm) => algorithm === 'none' || algorithm.startsWith('HS')))
    throw new DefinitionError(`algorithms include ${JSON.stringify(algorithms)}.`, {
      target: 'jwtVerifier',
      property: 'algorithms',
      fix: 'use asymmetric algorithms (RS256, PS256, ES256, EdDSA): a JWKS publishes public keys.',
    });
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let payload: import('jose').JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(token, jwks, {
          issuer: options.issuer,
          ...(options.audience !== undefined ? { audience: options.audience } : {}),
          algorithms,
          clockTolerance: options.clockToleranceSeconds ?? 5,
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (error) {
        throw joseFailure(error);
      }
      return authInfoOf(token, payload, options);
    },
  };
}

/** jose's refusal as the OAuth error the bearer gate answers: the token's fault 401, the key set's 500. */
function joseFailure(error: unknown): OAuthError {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new OAuthError(OAuthErrorCode.InvalidToken, 'Token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (error as { claim?: unknown }).claim;
      return new OAuthError(
        OAuthErrorCode.InvalidToken,
        `Token claim ${typeof claim === 'string' ? claim.slice(0, 20) : ''} is not accepted`,
      );
    }
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return new OAuthError(OAuthErrorCode.ServerError, 'The signing keys are unavailable');
    default:
      // A bad signature, an unknown key, a refused algorithm, a malformed token: the token's fault.
      if (typeof code === 'string' && code.startsWith('ERR_'))
        return new OAuthError(OAuthErrorCode.InvalidToken, 'Token signature or format is invalid');
      // The key set could not be fetched (a network error): not the token's fault.
      return new OAuthError(OAuthErrorCode.ServerError, 'The signing keys are unavailable');
  }
}

/**
 * Verifies opaque (or any) access tokens with the authorization server's introspection endpoint (RFC 7662): the
 * token must be `active`, carry `exp`, the configured `iss` and `aud` when given. Each request introspects once.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): OAuthTokenVerifier {
  const endpoint = new URL(options.endpoint);
  const credentials = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let claims: Record<string, unknown>;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Accept: 'application/json',
            Authorization: `Basic ${credentials}`,
          },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
          redirect: 'error',
        });
        const text = await response.text();
        if (!response.ok || text.length > MAX_INTROSPECTION_BYTES) throw new Error(`status ${response.status}`);
        const parsed = JSON.parse(text) as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        claims = parsed as Record<string, unknown>;
      } catch {
        throw new OAuthError(OAuthErrorCode.ServerError, 'Token introspection is unavailable');
      }
      if (claims.active !== true) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not active');
      if (claims.iss !== options.issuer)
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token claim iss is not accepted');
      if (options.audience !== undefined && !audiences(claims.aud).includes(options.audience))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token claim aud is not accepted');
      if (typeof claims.exp !== 'number')
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token has no expiration time');
      if (typeof claims.sub !== 'string' || claims.sub === '')
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token has no subject');
      return authInfoOf(token, claims, options);
    },
  };
}

function audiences(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((value): value is string => typeof value === 'string') : [];
}

/**
 * Verified claims as the SDK's `AuthInfo`: scopes, expiry, the resource (the configured audience, else the token's
 * only one) and in `extra` the subject, tenant and issuer, which `serveMcp` reads as the caller (`McpCaller`).
 */
function authInfoOf(token: string, claims: Record<string, unknown>, options: VerifierClaimsOptions): AuthInfo {
  const subject = claims.sub as string;
  const tenant = claims[options.tenantClaim ?? 'tenant'];
  const scopes =
    typeof claims.scope === 'string'
      ? claims.scope.split(' ').filter((scope) => scope !== '')
      : Array.isArray(claims.scp)
        ? claims.scp.filter((scope): scope is string => typeof scope === 'string')
        : [];
  const clientId =
    typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : subject;
  const tokenAudiences = audiences(claims.aud);
  const audience = options.audience ?? (tokenAudiences.length === 1 ? tokenAudiences[0] : undefined);
  return {
    token,
    clientId,
    scopes: [...new Set(scopes)],
    expiresAt: claims.exp as number,
    ...(audience !== undefined && URL.canParse(audience) ? { resource: new URL(audience) } : {}),
    extra: {
      subject,
      ...(typeof tenant === 'string' && tenant !== '' ? { tenant } : {}),
      issuer: options.issuer,
    },
  };
}
