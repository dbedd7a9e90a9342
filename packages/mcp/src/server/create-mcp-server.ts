import {
  PersonaToolExecutor,
  type ExecutionContext,
  type Logger,
  type PersonaToolExecutorOptions,
  type ToolRegistry,
} from '@toolwright/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SetLevelRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type IsomorphicHeaders,
  type ServerNotification,
  type ServerRequest,
  type LoggingLevel,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_NAME } from '../tool-names';
import { serverMessages } from '../messages';
import { isLevelEnabled, runInMcpRequest, type McpRequestContext } from './request-context';
import { resolveThroughElicitation, withPendingApproval } from './approval-elicitation';
import { toCallToolResult } from './tool-result';
import { toMcpTools } from './tool-listing';

/** Who is calling, as `serveMcp`'s `context` hook sees it. */
export interface McpSessionInfo {
  /** The MCP session; absent in stateless HTTP mode. */
  readonly sessionId?: string;
  readonly transport: 'stdio' | 'http';
  /** HTTP: the request's headers (e.g. to derive the persona from a verified token). */
  readonly headers?: IsomorphicHeaders;
  /** HTTP: what an authentication middleware put on the request (`req.auth`). */
  readonly authInfo?: AuthInfo;
}

/** What every MCP server built over a registry takes (stdio and HTTP alike). */
export interface McpServerOptions {
  /** Runs the calls. Default: a `PersonaToolExecutor` over the registry with `executorOptions` and `logger`. */
  readonly executor?: PersonaToolExecutor;
  readonly executorOptions?: PersonaToolExecutorOptions;
  /** Default: stderr for stdio (stdout carries only JSON-RPC), the console for HTTP. */
  readonly logger?: Logger;
  /** How the server introduces itself. Default `{ name: 'toolwright', version: '0.1.0' }`. */
  readonly serverInfo?: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string;
  /**
   * Trusted execution context for the calls of a session (persona, job id, time zone, ...), e.g. derived from
   * verified credentials. The session id is always the transport's own: a session never sees another's.
   */
  readonly context?: (session: McpSessionInfo) => ExecutionContext | Promise<ExecutionContext>;
}

/** @internal how one server instance is wired. */
export interface McpServerWiring {
  readonly transport: 'stdio' | 'http';
  /** stdio: the session id of the one client. HTTP: absent (the transport's session id is used). */
  readonly sessionId?: string;
  /** Send `notifications/tools/list_changed` when the registry changes (not in stateless mode). */
  readonly notifyListChanged: boolean;
  readonly executor: PersonaToolExecutor;
  readonly logger: Logger;
}

/** An SDK `Server` over the registry, for one session; `dispose` detaches it from the registry. */
export interface RegistryMcpServer {
  readonly server: Server;
  dispose(this: void): void;
}

/** The executor `serveMcp` uses when none is given. */
export function defaultExecutor(
  registry: ToolRegistry,
  options: McpServerOptions,
  logger: Logger,
): PersonaToolExecutor {
  return options.executor ?? new PersonaToolExecutor(registry, { logger, ...options.executorOptions });
}

/**
 * The MCP side of one session: `tools/list` lists every registered tool, `tools/call` runs the call through the
 * executor with the session as trusted context, `logging/setLevel` sets what `log()` sends, and a registry change
 * is announced with `notifications/tools/list_changed`. An unknown tool is a protocol error (-32602); every other
 * failure is an `isError` result with the model-facing message.
 */
export function createRegistryMcpServer(
  registry: ToolRegistry,
  options: McpServerOptions,
  wiring: McpServerWiring,
): RegistryMcpServer {
  const server = new Server(
    {
      name: options.serverInfo?.name ?? 'toolwright',
      version: options.serverInfo?.version ?? '0.1.0',
      ...(options.serverInfo?.title ? { title: options.serverInfo.title } : {}),
    },
    {
      capabilities: { tools: { listChanged: wiring.notifyListChanged }, logging: {} },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  let logLevel: LoggingLevel | undefined;
  let listing: { readonly version: number; readonly tools: Tool[] } | undefined;

  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    logLevel = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (listing?.version !== registry.version) {
      listing = { version: registry.version, tools: toMcpTools(registry.list()) };
      for (const tool of listing.tools) {
        if (!MCP_TOOL_NAME.test(tool.name))
          wiring.logger.warn(serverMessages.toolNameOutsideSpec(tool.name), { tool: tool.name });
      }
    }
    return { tools: listing.tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return await callTool(request, extra);
    } catch (error) {
      // The deliberate protocol error (an unknown tool) passes; anything else thrown on the way (the context hook,
      // an executor that rejects, a value that cannot be converted) is a generic isError result: the thrown text
      // may carry a secret or a path, so it goes to the log (made printable), never to the client.
      if (error instanceof McpError && errorCodeOf(error) === ErrorCode.InvalidParams) throw error;
      wiring.logger.error(serverMessages.callFailed(request.params.name, error), {
        sessionId: wiring.sessionId ?? extra.sessionId,
        tool: serverMessages.printableName(request.params.name),
      });
      return {
        content: [{ type: 'text', text: serverMessages.callFailedForModel(request.params.name) }],
        isError: true,
      };
    }
  });

  const callTool = async (
    request: CallToolRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> => {
    const sessionId = wiring.sessionId ?? extra.sessionId;
    const base = options.context
      ? await options.context({
          sessionId,
          transport: wiring.transport,
          headers: extra.requestInfo?.headers,
          authInfo: extra.authInfo,
        })
      : {};
    const context: ExecutionContext = {
      ...base,
      ...(sessionId !== undefined ? { sessionId } : {}),
      signal: base.signal ? AbortSignal.any([base.signal, extra.signal]) : extra.signal,
    };
    const progressToken = request.params._meta?.progressToken;
    const mcpRequest: McpRequestContext = {
      sessionId,
      requestId: extra.requestId,
      signal: extra.signal,
      ...(progressToken !== undefined ? { progressToken } : {}),
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return false;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress,
            ...(total !== undefined ? { total } : {}),
            ...(message !== undefined ? { message } : {}),
          },
        });
        return true;
      },
      log: async (level, data, logger) => {
        if (!isLevelEnabled(level, logLevel)) return false;
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level, data, ...(logger !== undefined ? { logger } : {}) },
        });
        return true;
      },
      // Related to this request, so over HTTP they travel on its stream.
      createMessage: (params) =>
        server.createMessage(params, { relatedRequestId: extra.requestId, signal: extra.signal }),
      elicitInput: (params) => server.elicitInput(params, { relatedRequestId: extra.requestId, signal: extra.signal }),
      closeSseStream: () => {
        if (extra.closeSSEStream === undefined) return false;
        extra.closeSSEStream();
        return true;
      },
    };
    const call = { id: String(extra.requestId), name: request.params.name, arguments: request.params.arguments ?? {} };
    let result = await runInMcpRequest(mcpRequest, () => wiring.executor.execute(call, context));
    // Unknown tools are protocol errors in MCP (the message still lists the closest names).
    if (!result.ok && result.error.code === 'UNKNOWN_TOOL')
      throw new McpError(ErrorCode.InvalidParams, result.error.message);
    // A call that waits for a person: asked through the client's elicitation when it can (./approval-elicitation.ts).
    const pending = result.ok ? undefined : result.pendingApproval;
    // A tool with an output schema gets its structured content whole even when the text was cut (docs/results.md).
    const resultOptions = { outputSchema: registry.get(result.tool)?.output !== undefined };
    if (pending === undefined) return toCallToolResult(result, resultOptions);
    const approver = extra.authInfo?.clientId ?? (sessionId !== undefined ? `mcp session ${sessionId}` : undefined);
    result = await runInMcpRequest(mcpRequest, () =>
      resolveThroughElicitation(server, wiring.executor, pending, result, approver, {
        relatedRequestId: extra.requestId,
        signal: extra.signal,
        logger: wiring.logger,
      }),
    );
    const answered = toCallToolResult(result, resultOptions);
    return !result.ok && result.pendingApproval !== undefined ? withPendingApproval(answered, pending) : answered;
  };

  server.onerror = (error) => wiring.logger.warn(serverMessages.transportError(error), { sessionId: wiring.sessionId });

  let pending = false;
  const stopListening = wiring.notifyListChanged
    ? registry.onChange(() => {
        // One notification for a burst of changes (a remote server's refresh registers several tools at once).
        if (pending) return;
        pending = true;
        setImmediate(() => {
          pending = false;
          if (server.transport === undefined) return;
          server
            .sendToolListChanged()
            .catch((error: unknown) => wiring.logger.debug(serverMessages.transportError(error)));
        });
      })
    : () => undefined;

  return { server, dispose: stopListening };
}

/** The SDK types `McpError.code` as a plain number; read as the SDK's ErrorCode, it compares with the enum's members. */
function errorCodeOf(error: McpError): ErrorCode {
  return error.code;
}
