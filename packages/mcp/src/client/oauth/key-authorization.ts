import type { ExecutionContext } from '@toolwright/core';
import { UnauthorizedError, ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import type { StreamableHTTPClientTransport, FetchLike } from '@modelcontextprotocol/client';
import { McpAuthorizationError, type McpAuthorizationStep } from '../../errors/mcp-authorization-error';
import { clientMessages, describeError } from '../../messages';
import type { ResolvedOAuthOptions } from './oauth-options';
import { StoredOAuthProvider, type OAuthServerState } from './stored-oauth-provider';

/** The step an outgoing request belongs to, or undefined for a request to the MCP endpoint itself. */
function stepOfRequest(
  url: string | URL,
  init: RequestInit | undefined,
  endpoint: string,
): McpAuthorizationStep | null {
  const target = new URL(String(url));
  if (`${target.origin}${target.pathname}` === endpoint) return null;
  const method = (init?.method ?? 'GET').toUpperCase();
  if (method === 'GET') return 'discovery';
  const body = init?.body;
  const text = body instanceof URLSearchParams ? body.toString() : typeof body === 'string' ? body : undefined;
  const grant =
    text !== undefined && !text.trimStart().startsWith('{') ? new URLSearchParams(text).get('grant_type') : null;
  if (grant === 'authorization_code') return 'token exchange';
  if (grant === 'refresh_token') return 'refresh';
  if (grant !== null) return 'token request';
  return 'registration';
}

function isInsufficientScope(response: Response): boolean {
  return /error\s*=\s*"?insufficient_scope/i.test(response.headers.get('www-authenticate') ?? '');
}

/**
 * OAuth for one server and one token key: the SDK's provider over the app's token store, a `fetch` that records
 * which step each of the SDK's requests belongs to (so an error names it), and the app's redirect step, run after
 * a request failed with the SDK's `UnauthorizedError`, followed by the SDK's code exchange (`finishAuth`).
 */
export class KeyAuthorization {
  readonly provider: StoredOAuthProvider;
  private readonly endpoint: string;

  constructor(
    private readonly server: string,
    readonly key: string,
    private readonly options: ResolvedOAuthOptions,
    shared: OAuthServerState,
    serverUrl: URL,
    context: () => ExecutionContext,
  ) {
    this.provider = new StoredOAuthProvider(server, key, options, shared, context);
    this.endpoint = `${serverUrl.origin}${serverUrl.pathname}`;
  }

  /** `inner` for the transport (and so for the SDK's `auth()`), recording the step of every authorization request. */
  fetch(inner: FetchLike): FetchLike {
    return async (url, init) => {
      const step = stepOfRequest(url, init, this.endpoint);
      this.provider.step = step ?? undefined;
      const response = await inner(url, init);
      if (step === null && response.status === 403 && isInsufficientScope(response)) this.provider.stepUpRequested();
      return response;
    };
  }

  /**
   * After `error` ended a request: when the SDK asked for the user's authorization, runs the app's redirect step
   * and exchanges the code (the SDK's `finishAuth`), and says the request may be sent again; otherwise false.
   */
  async complete(transport: StreamableHTTPClientTransport, error: unknown, signal: AbortSignal): Promise<boolean> {
    if (!(error instanceof UnauthorizedError)) return false;
    const authorizationUrl = this.provider.takePendingAuthorization();
    if (authorizationUrl === undefined) return false;
    const expectedState = this.provider.takeExpectedState();
    const redirect = await this.askUser(authorizationUrl, signal);
    const fail = (detail: string) => this.error('authorization', detail);
    const returnedError = redirect.searchParams.get('error');
    if (returnedError !== null) {
      const description = redirect.searchParams.get('error_description');
      throw fail(`the authorization server answered ${returnedError}${description ? ` (${description})` : ''}`);
    }
    if (expectedState !== undefined && redirect.searchParams.get('state') !== expectedState)
      throw fail('the redirect does not carry the state that was sent (a forged or stale redirect)');
    const code = redirect.searchParams.get('code');
    if (code === null || code === '') throw fail('the redirect carries no authorization code');
    this.provider.step = 'token exchange';
    try {
      // The whole callback: the SDK reads the code and checks the `iss` it carries (RFC 9207 mix-up defense).
      await transport.finishAuth(redirect.searchParams);
    } catch (finishError) {
      throw this.explain(finishError);
    }
    return true;
  }

  /**
   * Runs `operation` on a connection of this key; when it fails for want of the user's authorization (a token that
   * could not be refreshed, a step-up to more scope), runs the redirect step and tries it once more.
   */
  async retrying<T>(
    transport: StreamableHTTPClientTransport,
    signal: AbortSignal,
    operation: () => Promise<T>,
  ): Promise<T> {
    for (let round = 0; ; round++) {
      try {
        return await operation();
      } catch (error) {
        if (round === 0 && !signal.aborted && (await this.complete(transport, error, signal))) continue;
        throw this.explain(error);
      }
    }
  }

  /** `error` as an `McpAuthorizationError` naming its step when it came from authorizing; other errors unchanged. */
  explain(error: unknown): unknown {
    if (error instanceof McpAuthorizationError) return error;
    if (error instanceof UnauthorizedError)
      return this.error('authorization', 'the server requires authorization and none was completed', error);
    if (error instanceof SdkHttpError && (error.status === 401 || error.status === 403))
      return this.error('access', `the server refused the token (${describeError(error)})`, error);
    const step = this.provider.step;
    if (step === undefined || error instanceof ProtocolError) return error;
    return this.error(step, describeError(error), error);
  }

  private async askUser(authorizationUrl: URL, callSignal: AbortSignal): Promise<URL> {
    const signal = AbortSignal.any([callSignal, AbortSignal.timeout(this.options.authorizeTimeoutMs)]);
    let returned: string | URL;
    try {
      const answer = this.options.authorize!({
        server: this.server,
        authorizationUrl,
        key: this.key,
        context: this.provider.context(),
        signal,
      });
      returned = await new Promise<string | URL>((resolve, reject) => {
        const stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        if (signal.aborted) stop();
        signal.addEventListener('abort', stop, { once: true });
        answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
      });
    } catch (error) {
      throw this.error('authorization', `the app's authorize callback failed: ${describeError(error)}`, error);
    }
    try {
      return new URL(String(returned));
    } catch (error) {
      throw this.error(
        'authorization',
        'the authorize callback did not return the URL the user was redirected to',
        error,
      );
    }
  }

  private error(step: McpAuthorizationStep, detail: string, cause?: unknown): McpAuthorizationError {
    return new McpAuthorizationError(clientMessages.authorizationFailed(this.server, step, detail), this.server, step, {
      cause,
    });
  }
}
