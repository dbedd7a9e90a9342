import { ToolwrightError } from '@toolwright/core';

/**
 * The step of the OAuth flow that failed: finding the authorization server (RFC 9728 / RFC 8414 / OpenID discovery),
 * registering the client, the user's authorization (the app's redirect step), exchanging the code for tokens,
 * refreshing them, a client-credentials token request, or the server refusing the tokens it was given.
 */
export type McpAuthorizationStep =
  'discovery' | 'registration' | 'authorization' | 'token exchange' | 'refresh' | 'token request' | 'access';

/** Authorizing with an MCP server failed; `step` says where. */
export class McpAuthorizationError extends ToolwrightError {
  readonly code = 'MCP_AUTHORIZATION_FAILED';

  constructor(
    message: string,
    /** The server's name. */
    readonly server: string,
    readonly step: McpAuthorizationStep,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
