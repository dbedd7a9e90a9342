import { randomBytes } from 'node:crypto';
import type { ExecutionContext } from '@toolwright/core';
import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpAuthorizationStep } from '../../errors/mcp-authorization-error';
import type { ResolvedOAuthOptions } from './oauth-options';

/** What every token key of one server shares: discovery results and pre-registered credentials as the SDK stamped them. */
export interface OAuthServerState {
  discovery?: OAuthDiscoveryState;
  preRegistered?: OAuthClientInformationMixed;
}

/**
 * The SDK's `OAuthClientProvider` for one server and one token key: tokens and the registration go to the app's
 * `TokenStore`; PKCE's verifier, the state and a pending authorization stay in memory. It never runs a flow itself:
 * the SDK's `auth()` calls it. `redirectToAuthorization` only records the URL: the app's redirect step runs after
 * the request that needed it has failed (`KeyAuthorization.complete`), so no request timeout waits for a user.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** The step of the flow in progress or last run (set as its requests go out; see `KeyAuthorization.fetch`). */
  step: McpAuthorizationStep | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;
  private verifier?: string;
  private expectedState?: string;
  private pendingAuthorization?: URL;
  private steppingUp = false;

  constructor(
    private readonly server: string,
    readonly key: string,
    private readonly options: ResolvedOAuthOptions,
    private readonly shared: OAuthServerState,
    /** The trusted context to authorize for: the current call's, else the one this key was first used with. */
    readonly context: () => ExecutionContext,
  ) {
    if (options.addClientAuthentication) this.addClientAuthentication = options.addClientAuthentication;
    if (options.clientInformation) this.shared.preRegistered ??= options.clientInformation;
  }

  get redirectUrl(): string | undefined {
    return this.options.grantType === 'client_credentials' ? undefined : this.options.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.options.clientMetadata;
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.shared.preRegistered ?? (await this.options.tokenStore.getClient(this.server));
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    if (this.shared.preRegistered !== undefined) this.shared.preRegistered = information;
    else await this.options.tokenStore.setClient(this.server, information);
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = await this.options.tokenStore.getTokens(this.server, this.key);
    if (tokens === undefined || !this.steppingUp) return tokens;
    // A refresh cannot widen the grant (RFC 6749, section 6), so a step-up to more scope goes to the user.
    const { refresh_token: _refreshToken, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.steppingUp = false;
    await this.options.tokenStore.setTokens(this.server, this.key, tokens);
  }

  /** The server answered 403 insufficient_scope: the SDK's next `auth()` must ask the user for the wider scope. */
  stepUpRequested(): void {
    this.steppingUp = true;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.step = 'authorization';
    this.pendingAuthorization = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier was saved for this authorization');
    return this.verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.options.grantType !== 'client_credentials') return undefined;
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    this.step = 'discovery';
    return this.shared.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.shared.discovery = state;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.options.tokenStore.deleteTokens(this.server, this.key);
    if ((scope === 'all' || scope === 'client') && this.shared.preRegistered === undefined)
      await this.options.tokenStore.deleteClient(this.server);
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.shared.discovery = undefined;
  }

  /** The authorization URL the SDK asked the user to open, once (undefined when none is pending). */
  takePendingAuthorization(): URL | undefined {
    const url = this.pendingAuthorization;
    this.pendingAuthorization = undefined;
    return url;
  }

  /** The state the authorization URL carried; the redirect must bring it back. */
  takeExpectedState(): string | undefined {
    const state = this.expectedState;
    this.expectedState = undefined;
    return state;
  }
}
