/**
 * Call forwarding: the handler the registry runs for a remote tool sends `tools/call` on the connection's current
 * client, and turns every failure into the executor's typed errors (unavailable, timeout, rejected, too large).
 */
import {
  HandlerError,
  ServiceUnavailableError,
  TimeoutError,
  ToolCallError,
  ToolwrightError,
  type ExecutionContext,
  type ToolHandler,
  type ToolInvocationContext,
} from '@toolwright/core';
import { isNetworkError, ResultInvalidError } from '@toolwright/core/internal';
import {
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpAuthorizationError } from '../errors/mcp-authorization-error';
import { McpResponseTooLargeError } from '../errors/mcp-response-too-large-error';
import { clientMessages, truncate } from '../messages';
import { RESPONSE_TOO_LARGE_CODE } from './bounded-fetch';
import { inFlight, remoteCallScope, type RemoteCallScope } from './call-scope';
import type { McpServerConfig } from './config';
import type { ConnectionEnvironment } from './connection-environment';
import type { KeyAuthorization } from './oauth/key-authorization';
import { errorTextOfResult, valueOfResult } from './remote-tools';

/** The connection one call travels on: behind OAuth, the one of its own token key. */
export interface CallSession {
  readonly client: Client;
  readonly transport?: StreamableHTTPClientTransport;
  readonly authorization?: KeyAuthorization;
  /** Ends the call's hold on a per-key connection (so an evicted one closes only after its last call). */
  readonly release?: () => void;
}

/** What forwarding needs of the connection it belongs to. */
export interface CallForwardingHost {
  /** The server's name. */
  readonly name: string;
  readonly config: McpServerConfig;
  readonly environment: ConnectionEnvironment;
  /**
   * The connection for a call with this trusted context, `undefined` while (re)connecting or degraded. Behind OAuth
   * it may open (and authorize) the connection of the context's token key.
   */
  session(context: ExecutionContext): Promise<CallSession | undefined>;
  /** The server does not know a tool (any more): its list changed without a notification. */
  unknownTool(): void;
  /** A transport failure the client did not turn into a close. */
  connectionLost(client: Client): void;
}

/** Added to a tool's timeout for the SDK's own request timeout, so the executor's TIMEOUT (and cancellation) comes first. */
const REQUEST_TIMEOUT_MARGIN_MS = 1_000;

/** The function the registry runs for one remote tool: a `tools/call` on the current connection. */
export function remoteToolHandler(
  host: CallForwardingHost,
  name: string,
  remoteName: string,
  contextNamed: readonly string[] = [],
): ToolHandler {
  return (params: Record<string, unknown>, invocation: ToolInvocationContext) => {
    const scope: RemoteCallScope = { invocation, abort: new AbortController() };
    return remoteCallScope.run(scope, () => forwardCall(host, { name, remoteName, contextNamed }, params, scope));
  };
}

/** A remote tool as the registry names it, its name on the server, and its parameters named like context fields. */
interface RemoteTool {
  readonly name: string;
  readonly remoteName: string;
  readonly contextNamed: readonly string[];
}

async function forwardCall(
  host: CallForwardingHost,
  tool: RemoteTool,
  params: Record<string, unknown>,
  scope: RemoteCallScope,
): Promise<unknown> {
  const { invocation } = scope;
  const { name } = tool;
  const requestTimeoutMs = (host.config.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MSEC) + REQUEST_TIMEOUT_MARGIN_MS;
  let session: CallSession | undefined;
  try {
    session = await host.session(invocation.context);
  } catch (error) {
    throw callError(host, error, name, undefined, scope, requestTimeoutMs);
  }
  if (session === undefined) throw new ServiceUnavailableError(clientMessages.unavailable(name, host.name));
  try {
    return await callOn(host, tool, session, params, scope, requestTimeoutMs);
  } finally {
    session.release?.();
  }
}

/** The `tools/call` of one call on the session it travels on. */
async function callOn(
  host: CallForwardingHost,
  { name, remoteName, contextNamed }: RemoteTool,
  session: CallSession,
  params: Record<string, unknown>,
  scope: RemoteCallScope,
  requestTimeoutMs: number,
): Promise<unknown> {
  const { invocation } = scope;
  const { client, transport, authorization } = session;
  const sent = contextNamed.filter((parameter) => Object.hasOwn(params, parameter));
  if (sent.length > 0) {
    host.environment.logger.warn(clientMessages.contextNameForwarded(host.name, name, sent), {
      server: host.name,
      tool: name,
      callId: invocation.callId,
      parameters: sent,
      sessionId: invocation.context.sessionId,
    });
  }
  // The executor's signal fires on its timeout or the caller's cancellation; the SDK then sends notifications/cancelled.
  const signal = AbortSignal.any([invocation.signal, scope.abort.signal]);
  const call = async () =>
    await client.callTool(
      { name: remoteName, arguments: params },
      {
        signal,
        timeout: requestTimeoutMs,
      },
    );
  try {
    const result = await inFlight(client, scope, () =>
      authorization === undefined || transport === undefined ? call() : authorization.retrying(transport, signal, call),
    );
    if (result.isError === true)
      throw new HandlerError(clientMessages.remoteToolError(name, errorTextOfResult(result)));
    return valueOfResult(result, host.environment.maxResultChars);
  } catch (error) {
    throw callError(host, error, name, client, scope, requestTimeoutMs);
  }
}

function callError(
  host: CallForwardingHost,
  error: unknown,
  name: string,
  client: Client | undefined,
  scope: RemoteCallScope,
  requestTimeoutMs: number,
): Error {
  if (ToolwrightError.isInstance(error) && error instanceof ToolCallError) return error;
  const signal = scope.invocation.signal;
  if (signal.aborted && signal.reason instanceof Error) return signal.reason;
  // The app's answer to the server's question was refused here: the call ends with that reason.
  if (scope.refused) return new HandlerError(scope.refused.message, { cause: scope.refused });
  if (error instanceof McpAuthorizationError)
    return new HandlerError(clientMessages.authorizationRequired(name, host.name, error.message), { cause: error });
  if (
    error instanceof McpResponseTooLargeError ||
    (error instanceof ProtocolError && error.code === RESPONSE_TOO_LARGE_CODE)
  ) {
    return new HandlerError(clientMessages.resultTooLarge(name, host.environment.maxResponseBytes), { cause: error });
  }
  if (error instanceof ProtocolError && isOutputSchemaMismatch(error)) {
    // The SDK client checked `structuredContent` against the tool's `outputSchema` (bounded): never passed on as typed.
    return new ResultInvalidError(clientMessages.remoteResultInvalid(name), {
      cause: error,
      issues: [
        {
          path: '',
          rule: 'result',
          expected: "a result matching the tool's output schema",
          received: truncate(error.message, 1_000),
          message: truncate(error.message, 1_000),
        },
      ],
    });
  }
  // Local failures (the SDK's own, not the server's answer): the connection closed, the request timed out.
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)
    return new ServiceUnavailableError(clientMessages.unavailable(name, host.name), { cause: error });
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    return new TimeoutError(clientMessages.remoteTimeout(name, requestTimeoutMs), { cause: error });
  if (error instanceof ProtocolError) {
    // The server does not know the tool (any more): its list changed without a notification.
    // The SDK types `code` as a plain number; read as ProtocolErrorCode it compares with the enum's members.
    const code: ProtocolErrorCode = error.code;
    if (code === ProtocolErrorCode.InvalidParams || code === ProtocolErrorCode.MethodNotFound) host.unknownTool();
    return new HandlerError(clientMessages.remoteRejected(name, error.message), { cause: error });
  }
  if (isNetworkError(error) || isTransportFailure(error)) {
    if (client !== undefined) host.connectionLost(client);
    return new ServiceUnavailableError(clientMessages.unavailable(name, host.name), { cause: error });
  }
  return new HandlerError(clientMessages.remoteFailed(name), { cause: error });
}

/**
 * Whether the SDK client refused a result against the tool's output schema: structured content that does not match
 * it, none at all, or a schema it could not check with (the SDK's own messages; a test pins them).
 */
function isOutputSchemaMismatch(error: ProtocolError): boolean {
  return /output schema but did not return structured content|Structured content does not match the tool's output schema|Failed to validate structured content/.test(
    error.message,
  );
}

function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // SdkHttpError carries the HTTP status as `status`: 404 is a session the server no longer has.
  if (error instanceof SdkHttpError) return error.status === undefined || error.status === 404 || error.status >= 500;
  return error.message === 'Not connected';
}
