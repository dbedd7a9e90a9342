import {
  PersonaToolExecutor,
  type ExecutionContext,
  type Logger,
  type PersonaContext,
  type PersonaToolExecutorOptions,
  type ToolDefinition,
  type ToolRegistry,
} from '@toolwright/core';
import { isToolAllowed, resolveToolName, type ToolLookup } from '@toolwright/core/internal';
import { Server, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type {
  AuthInfo,
  CallToolRequest,
  CallToolResult,
  LoggingLevel,
  Tool,
  ServerContext,
} from '@modelcontextprotocol/server';
import { MCP_TOOL_NAME } from '../tool-names';
import { serverMessages } from '../messages';
import { isLevelEnabled, runInMcpRequest, type McpRequestContext } from './request-context';
import { resolveThroughElicitation, withPendingApproval } from './approval-elicitation';
import { toCallToolResult } from './tool-result';
import { toMcpTools } from './tool-listing';
import { callerOf, personaOfCaller, type McpCaller } from './bearer-auth';

/** Who is calling, as `serveMcp`'s `context` hook sees it. */
export interface McpSessionInfo {
  /** The MCP session; absent in stateless HTTP mode. */
  readonly sessionId?: string;
  readonly transport: 'stdio' | 'http';
  /** HTTP: the request's headers (e.g. to derive the persona from a verified token). */
  readonly headers?: Headers;
  /** HTTP: what an authentication middleware put on the request (`req.auth`). */
  readonly authInfo?: AuthInfo;
  /** HTTP: the verified caller of this request (`auth` of `serveMcp`, or a middleware's `req.auth`). */
  readonly caller?: McpCaller;
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
   * Trusted execution context for the requests of a session (persona, job id, time zone, ...), e.g. derived from
   * verified credentials; called for each `tools/list` and `tools/call`. The session id is always the transport's
   * own: a session never sees another's. A verified caller's persona defaults to its subject holding its scopes as
   * permissions; a `persona` returned here replaces it. `tools/list`, `tools/call` and `search_tools` show and run
   * only the tools that persona may call.
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
 * The MCP side of one session: `tools/list` lists the registered tools the caller's persona may call, `tools/call`
 * runs one of those through the executor with the session and the verified caller as trusted context, `logging/setLevel` sets what `log()` sends, and a registry change
 * that changes the caller's own set (or the caller's set itself changes) is announced with
 * `notifications/tools/list_changed`. An unknown tool is a protocol error (-32602); every other
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
  /** The tools one persona may call, for the registry version they were computed at (one entry: a session has one caller). */
  let visible:
    | {
        readonly version: number;
        readonly persona: string;
        readonly lookup: ToolLookup;
        readonly key: string;
        tools?: Tool[];
      }
    | undefined;
  /** The persona and tool set this client was last shown (tools/list), to announce a change of its own set only. */
  let shown: { readonly persona: PersonaContext | undefined; key: string } | undefined;

  // Each definition's stamp: a tool registered again (a new description or schema under the same name) is a new
  // definition, so the set a client was shown changes with it and the client is told to list again.
  const stamps = new WeakMap<ToolDefinition, number>();
  let nextStamp = 0;
  const stampOf = (definition: ToolDefinition) => {
    let stamp = stamps.get(definition);
    if (stamp === undefined) stamps.set(definition, (stamp = nextStamp++));
    return stamp;
  };
  const visibleFor = (persona: PersonaContext | undefined) => {
    const key = JSON.stringify(persona ?? null);
    if (visible?.version === registry.version && visible.persona === key) return visible;
    const definitions = registry.list().filter((definition) => isToolAllowed(definition, persona));
    const byName = new Map<string, ToolDefinition>(definitions.map((definition) => [definition.name, definition]));
    const version = registry.version;
    visible = {
      version,
      persona: key,
      lookup: { version, get: (name) => byName.get(name), list: () => definitions },
      key: definitions.map((definition) => `${stampOf(definition)}:${definition.name}`).join('\n'),
    };
    return visible;
  };

  /** The request's caller, its trusted context (the hook's, given the caller) and the persona that filters the tools. */
  const resolveRequest = async (extra: ServerContext) => {
    const sessionId = wiring.sessionId ?? extra.sessionId;
    const authInfo = extra.http?.authInfo;
    const caller = authInfo !== undefined ? callerOf(authInfo) : undefined;
    const base = options.context
      ? await options.context({
          sessionId,
          transport: wiring.transport,
          headers: extra.http?.req?.headers,
          authInfo,
          ...(caller !== undefined ? { caller } : {}),
        })
      : {};
    const persona = base.persona ?? (caller !== undefined ? personaOfCaller(caller) : undefined);
    return { sessionId, caller, base, persona };
  };

  let announcing = false;
  /** One `notifications/tools/list_changed` for a burst of changes. */
  const announce = () => {
    if (announcing) return;
    announcing = true;
    setImmediate(() => {
      announcing = false;
      if (server.transport === undefined) return;
      server.sendToolListChanged().catch((error: unknown) => wiring.logger.debug(serverMessages.transportError(error)));
    });
  };

  server.setRequestHandler('logging/setLevel', async (request) => {
    logLevel = request.params.level;
    return {};
  });

  server.setRequestHandler('tools/list', async (_request, extra) => {
    let persona: PersonaContext | undefined;
    try {
      ({ persona } = await resolveRequest(extra));
    } catch (error) {
      // The context hook threw: its text may carry a secret, so it goes to the log and the client gets a generic error.
      wiring.logger.error(serverMessages.listFailed(error), { sessionId: wiring.sessionId ?? extra.sessionId });
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
    }
    const set = visibleFor(persona);
    if (set.tools === undefined) {
      set.tools = toMcpTools(set.lookup.list());
      for (const tool of set.tools) {
        if (!MCP_TOOL_NAME.test(tool.name))
          wiring.logger.warn(serverMessages.toolNameOutsideSpec(tool.name), { tool: tool.name });
      }
    }
    shown = { persona, key: set.key };
    return { tools: set.tools };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    try {
      return await callTool(request, ctx);
    } catch (error) {
      // The deliberate protocol error (an unknown tool) passes; anything else thrown on the way (the context hook,
      // an executor that rejects, a value that cannot be converted) is a generic isError result: the thrown text
      // may carry a secret or a path, so it goes to the log (made printable), never to the client.
      if (error instanceof ProtocolError && protocolCodeOf(error) === ProtocolErrorCode.InvalidParams) throw error;
      wiring.logger.error(serverMessages.callFailed(request.params.name, error), {
        sessionId: wiring.sessionId ?? ctx.sessionId,
        tool: serverMessages.printableName(request.params.name),
      });
      return {
        content: [{ type: 'text', text: serverMessages.callFailedForModel(request.params.name) }],
        isError: true,
      };
    }
  });

  const callTool = async (request: CallToolRequest, extra: ServerContext): Promise<CallToolResult> => {
    const { sessionId, caller, base, persona } = await resolveRequest(extra);
    const set = visibleFor(persona);
    // The caller's set changed since it listed (a token with other scopes in the same session): say so.
    if (wiring.notifyListChanged && shown !== undefined && shown.key !== set.key) {
      shown = { persona, key: set.key };
      announce();
    }
    // A tool the caller may not use is unknown to it: never run, never named (suggestions come from its own set).
    const resolution = resolveToolName(set.lookup, request.params.name);
    if (!resolution.found)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        serverMessages.unknownToolForCaller(request.params.name, resolution.suggestions),
      );
    const context: ExecutionContext = {
      ...base,
      ...(persona !== undefined ? { persona } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      signal: base.signal ? AbortSignal.any([base.signal, extra.mcpReq.signal]) : extra.mcpReq.signal,
    };
    const progressToken = request.params._meta?.progressToken;
    const mcpRequest: McpRequestContext = {
      sessionId,
      ...(caller !== undefined ? { caller } : {}),
      requestId: extra.mcpReq.id,
      signal: extra.mcpReq.signal,
      ...(progressToken !== undefined ? { progressToken } : {}),
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return false;
        await extra.mcpReq.notify({
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
        await extra.mcpReq.notify({
          method: 'notifications/message',
          params: { level, data, ...(logger !== undefined ? { logger } : {}) },
        });
        return true;
      },
      // Related to this request, so over HTTP they travel on its stream.
      createMessage: (params) =>
        server.createMessage(params, { relatedRequestId: extra.mcpReq.id, signal: extra.mcpReq.signal }),
      elicitInput: (params) =>
        server.elicitInput(params, { relatedRequestId: extra.mcpReq.id, signal: extra.mcpReq.signal }),
      closeSseStream: () => {
        if (extra.http?.closeSSE === undefined) return false;
        extra.http?.closeSSE();
        return true;
      },
    };
    const call = {
      id: String(extra.mcpReq.id),
      name: resolution.name,
      arguments: request.params.arguments ?? {},
      ...(resolution.name !== request.params.name
        ? {
            transformations: [
              {
                path: '',
                rule: `tool-name-${resolution.rule ?? 'exact'}`,
                from: request.params.name,
                to: resolution.name,
              },
            ],
          }
        : {}),
    };
    let result = await runInMcpRequest(mcpRequest, () => wiring.executor.execute(call, context));
    // Unknown tools are protocol errors in MCP (the message still lists the closest names).
    if (!result.ok && result.error.code === 'UNKNOWN_TOOL')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, result.error.message);
    // A call that waits for a person: asked through the client's elicitation when it can (./approval-elicitation.ts).
    const pending = result.ok ? undefined : result.pendingApproval;
    // A tool with an output schema gets its structured content whole even when the text was cut (docs/results.md).
    const resultOptions = { outputSchema: registry.get(result.tool)?.output !== undefined };
    if (pending === undefined) return toCallToolResult(result, resultOptions);
    // Who answered: the verified caller (its subject; a middleware's AuthInfo without one: its client id).
    const approver = caller?.subject ?? (sessionId !== undefined ? `mcp session ${sessionId}` : undefined);
    result = await runInMcpRequest(mcpRequest, () =>
      resolveThroughElicitation(server, wiring.executor, pending, result, approver, {
        relatedRequestId: extra.mcpReq.id,
        signal: extra.mcpReq.signal,
        logger: wiring.logger,
      }),
    );
    const answered = toCallToolResult(result, resultOptions);
    return !result.ok && result.pendingApproval !== undefined ? withPendingApproval(answered, pending) : answered;
  };

  server.onerror = (error) => wiring.logger.warn(serverMessages.transportError(error), { sessionId: wiring.sessionId });

  let checking = false;
  const stopListening = wiring.notifyListChanged
    ? registry.onChange(() => {
        // Once per burst of changes (a remote server's refresh registers several tools at once): announced when the
        // set this client was shown changed, or always when it has not listed yet.
        if (checking) return;
        checking = true;
        setImmediate(() => {
          checking = false;
          if (shown !== undefined) {
            const key = visibleFor(shown.persona).key;
            if (key === shown.key) return;
            shown.key = key;
          }
          announce();
        });
      })
    : () => undefined;

  return { server, dispose: stopListening };
}

/** The SDK types `ProtocolError.code` as a plain number; read as ProtocolErrorCode it compares with the enum's members. */
function protocolCodeOf(error: ProtocolError): ProtocolErrorCode {
  return error.code;
}
