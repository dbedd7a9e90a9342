import { escapeLogText } from '@toolwright/core/internal';

/**
 * Every message @toolwright/mcp writes: to logs (for operators) and to tool results (for the model). Model-facing
 * text never carries a stack, a path or a server's stderr.
 */

/** Cuts `text` to `limit` characters, marking the cut. */
export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}... (${text.length - limit} more characters)`;
}

/**
 * Any thrown value as text, without trusting it: a `message` getter or a `toString` that throws, an object with no
 * prototype, a symbol. Never throws.
 */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === 'string' && message !== '' ? message : String(error.name);
    }
    if (typeof error === 'object' && error !== null) {
      const message: unknown = (error as { message?: unknown }).message;
      if (typeof message === 'string') return message;
      // An object's own toString (a thrown non-Error class) is the best text it has; '[object Object]' is the fallback.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a thrown object may define its own toString
      return Object.getPrototypeOf(error) === null ? '[object with no prototype]' : String(error);
    }
    return String(error);
  } catch {
    return '[a value that cannot be printed]';
  }
}

/** A name from the other side, for one log line: control characters escaped, clipped. */
export function printable(text: unknown, limit = 200): string {
  const value = typeof text === 'string' ? text : describeError(text);
  const clipped = value.length > limit ? value.slice(0, limit) : value;
  const escaped = JSON.stringify(clipped).slice(1, -1);
  return value.length > limit ? `${escaped}... (${value.length - limit} more characters)` : escaped;
}

export const clientMessages = {
  attempt: (server: string, attempt: number, attempts: number, delayMs: number) =>
    `MCP server '${server}': connection attempt ${attempt} of ${attempts} in ${delayMs} ms`,

  attemptFailed: (server: string, attempt: number, attempts: number, error: unknown) =>
    `MCP server '${server}': connection attempt ${attempt} of ${attempts} failed: ${truncate(describeError(error), 500)}`,

  connected: (server: string, tools: number) =>
    `MCP server '${server}' connected: ${tools} tool${tools === 1 ? '' : 's'} registered`,

  /** The final error after the last attempt (the issue's wording). */
  connectionFailed: (server: string, attempts: number, error: unknown, stderr: string) =>
    `MCP connection to '${server}' failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (last error: ${truncate(describeError(error), 500)}); ` +
    `server stderr: ${stderr.trim() === '' ? '(empty)' : stderr.trim()}`,

  degraded: (server: string, tools: number) =>
    `MCP server '${server}' is unavailable: degraded mode, the app continues without its tools (${tools} tool${tools === 1 ? '' : 's'} available)`,

  restartBudgetExhausted: (server: string, restarts: number, windowMs: number) =>
    `MCP server '${server}' lost its connection ${restarts} times within ${windowMs} ms; not reconnecting`,

  disconnected: (server: string, stderr: string) =>
    `MCP server '${server}' disconnected; reconnecting${stderr.trim() === '' ? '' : ` (server stderr: ${escapeLogText(stderr.trim())})`}`,

  badLine: (server: string, error: unknown) =>
    `MCP server '${server}' wrote something that is not a JSON-RPC message; it was skipped: ${truncate(describeError(error), 400)}`,

  protocolError: (server: string, error: unknown) => `MCP server '${server}': ${truncate(describeError(error), 500)}`,

  /** A server's stderr text on one log line (its line breaks and controls escaped, whatever logger receives it). */
  stderr: (server: string, text: string) => `MCP server '${server}' stderr: ${escapeLogText(truncate(text, 2_000))}`,

  toolSkipped: (server: string, tool: string, reason: string) =>
    `MCP server '${server}': tool "${truncate(tool, 140)}" was not registered: ${reason}`,

  toolNameInvalid: () => 'its name is empty, longer than 128 characters, or contains white space or control characters',
  toolNameOutsideSpec: (server: string, tool: string) =>
    `MCP server '${server}': tool "${tool}" has a name outside ^[A-Za-z0-9._-]{1,128}$ (SEP-986); it is registered, but some clients would refuse it.`,

  toolNameTaken: (name: string) =>
    `the name "${name}" belongs to a tool that is already registered (local tools are never replaced)`,

  contextNamesWithheld: (server: string, tool: string, names: readonly string[]) =>
    `MCP server '${server}': tool "${tool}" declares ${names.map((name) => `"${name}"`).join(', ')}, named like trusted context; ` +
    `withheld: the model does not see ${names.length === 1 ? 'it' : 'them'}, a value it sends is dropped (a security event), and nothing is filled from the context. ` +
    `Set contextParameters: 'forward' for this server if it needs a value the model chooses.`,

  contextNamesRequired: (server: string, tool: string, names: readonly string[]) =>
    `MCP server '${server}': tool "${tool}" requires ${names.map((name) => `"${name}"`).join(', ')}, named like trusted context, which is never filled from the context nor taken from the model by default; the tool is not registered.`,

  contextNamesForwarded: (server: string, tool: string, names: readonly string[]) =>
    `MCP server '${server}': tool "${tool}" declares ${names.map((name) => `"${name}"`).join(', ')}, named like trusted context; ` +
    `forwarded as the model's own value (contextParameters: 'forward'), never filled from the context; each call that sends one is logged as a security event.`,

  contextNameForwarded: (server: string, tool: string, names: readonly string[]) =>
    `security: the model's value of ${names.map((name) => `"${name}"`).join(', ')} (named like trusted context) was forwarded to MCP server '${server}' in a call of ${tool}; it is the model's, not the session's`,

  toolNameShadows: (name: string, claimant: string) =>
    `the name "${name}" is the name or an alias of the tool "${claimant}" (or differs from one only in case and separators), which was registered first; a remote tool never shadows another tool`,

  toolGaveWay: (server: string, name: string, claimant: string) =>
    `MCP server '${server}': its tool "${name}" was removed from the registry: "${claimant}" was registered with that name or alias, and remote tools never shadow other tools`,

  taskRequired: () => 'it requires task-based execution, which this client does not support',

  outputSchemaRefused: (server: string, problem: string) =>
    `MCP server '${server}': an output schema was not compiled: ${problem}`,

  outputSchemaNotImported: (server: string, tool: string, reason: string) =>
    `MCP server '${server}', tool "${tool}": its output schema is not part of the tool definition (${truncate(reason, 500)}); the SDK client still checks its results against it.`,

  remoteResultInvalid: (tool: string) =>
    `The tool "${tool}" failed: its MCP server sent a result that does not match the tool's own output schema. Do not retry this call.`,

  aliasTargetMissing: (server: string, tool: string, alias: string, property: string) =>
    `MCP server '${server}': parameterAliases maps "${alias}" to "${property}", which is not a top-level parameter of "${tool}"; the alias is ignored`,

  aliasConflict: (server: string, tool: string, alias: string) =>
    `MCP server '${server}': parameterAliases maps "${alias}" for "${tool}", but "${alias}" is already a parameter name there; the alias is ignored`,

  toolListTruncated: (server: string, limit: number) =>
    `MCP server '${server}' lists more than ${limit} tools; only the first ${limit} were read`,

  pinChanged: (server: string, tool: string, action: 'warn' | 'block' | 'approve') =>
    `security: MCP server '${server}': the definition of tool "${truncate(tool, 140)}" (its name, title, description, schemas or annotations) changed since it was pinned; ` +
    (action === 'block'
      ? 'it is blocked until the change is accepted'
      : action === 'approve'
        ? 'each call asks a person until the change is accepted'
        : 'it is registered as changed (pinning policy: warn)'),

  pinApprovalReason: (server: string, tool: string) =>
    `the definition of "${truncate(tool, 140)}" from MCP server '${server}' changed since it was pinned`,

  pinsAccepted: (server: string, tools: readonly string[]) =>
    `MCP server '${server}': the changed definitions of ${tools.map((tool) => `"${truncate(tool, 140)}"`).join(', ')} were accepted and pinned`,

  pinStoreFailed: (server: string, error: unknown) =>
    `MCP server '${server}': the pin store failed: ${truncate(describeError(error), 500)}`,

  toolsRefreshed: (server: string, added: number, changed: number, removed: number) =>
    `MCP server '${server}' changed its tools: ${added} added, ${changed} changed, ${removed} removed`,

  refreshFailed: (server: string, error: unknown) =>
    `MCP server '${server}': reading its tool list failed: ${truncate(describeError(error), 500)}`,

  responseTooLarge: (server: string, maxBytes: number) =>
    `MCP server '${server}' sent a response larger than ${maxBytes} bytes; it was not read (the client's maxResponseBytes)`,

  // Model-facing (tool results).
  resultTooLarge: (tool: string, maxBytes: number) =>
    `The tool "${tool}" returned more than ${maxBytes} bytes, more than this client reads; nothing of it was kept. Ask for less (a narrower query, a page, a summary).`,

  resultTruncated: (total: number, kept: number) =>
    `[toolwright: the result was truncated: ${total} characters long, the first ${kept} are shown. Ask for less (a narrower query, a page, a summary) to see the rest.]`,

  blocksDropped: (dropped: number, total: number, kept: number) =>
    `[toolwright: the result was truncated: ${total} characters of content, ${kept} kept; ${dropped} content block${dropped === 1 ? '' : 's'} left out. Ask for less to see the rest.]`,

  unavailable: (tool: string, server: string) =>
    `The tool "${tool}" is temporarily unavailable (its MCP server '${server}' is not connected). Try again later or use another tool.`,

  remoteTimeout: (tool: string, ms: number) =>
    `The tool "${tool}" did not finish within ${ms} ms. Try again later or with a smaller request.`,

  authorizationFailed: (server: string, step: string, detail: string) =>
    `MCP server '${server}': authorization failed at ${step}: ${truncate(detail, 500)}`,
  elicitationOutsideCall: (server: string) =>
    `MCP server '${server}' asked a question (elicitation) that belongs to no single tool call in flight; declined (no context to answer for).`,
  elicitationSchemaRefused: (server: string, problem: string) =>
    `MCP server '${server}' asked a question whose schema was refused: ${problem}`,
  elicitationAnswerRefused: (server: string, problems: string) =>
    `The answer to MCP server '${server}''s question was not sent: it does not match the requested schema (${truncate(problems, 1_000)}).`,
  elicitationAnswerMalformed: (server: string, detail: string) =>
    `The answer to MCP server '${server}''s question was not sent: ${detail}.`,
  authorizationRequired: (tool: string, server: string, detail: string) =>
    `The tool "${tool}" is not available: authorizing with the server '${server}' failed (${truncate(detail, 500)}).`,
  noTokenKey: (server: string) =>
    `MCP server '${server}': tokenKey(context) did not return a non-empty string, so no token can be chosen for this call.`,
  remoteToolError: (tool: string, text: string) => `The tool "${tool}" reported an error: ${truncate(text, 4_000)}`,

  remoteRejected: (tool: string, text: string) =>
    `The MCP server of "${tool}" rejected the call: ${truncate(text, 1_000)}`,

  remoteFailed: (tool: string) =>
    `The tool "${tool}" failed while running on its MCP server. Try again later or use another approach.`,
};

export const serverMessages = {
  listening: (url: string) => `MCP server listening on ${url}`,
  printableName: (name: unknown) => printable(name, 200),
  callFailed: (tool: unknown, error: unknown) =>
    `MCP tools/call "${printable(tool, 200)}" failed outside the executor's typed results; the client got a generic error: ${printable(describeError(error), 500)}`,
  listFailed: (error: unknown) =>
    `MCP tools/list failed in the context hook; the client got a generic error: ${printable(describeError(error), 500)}`,
  callFailedForModel: (tool: unknown) =>
    `The tool "${printable(tool, 200)}" failed unexpectedly on the server. Try again later or use another approach.`,
  stdioReady: (tools: number) => `MCP server on stdio: ${tools} tool${tools === 1 ? '' : 's'}`,
  sessionOpened: (sessionId: string) => `MCP session ${sessionId} opened`,
  sessionClosed: (sessionId: string, reason: string) => `MCP session ${sessionId} closed (${reason})`,
  transportError: (error: unknown) => `MCP transport: ${truncate(describeError(error), 500)}`,
  bodyTooLarge: (maxBytes: number) => `Payload Too Large: Request body must not exceed ${maxBytes} bytes`,
  hostNotAllowed: (host: string) => `Invalid Host header: ${printable(host, 200)}`,
  originNotAllowed: (origin: string) => `Invalid Origin header: ${printable(origin, 200)}`,
  tooManySessions: (limit: number) => `Too many MCP sessions (limit ${limit}); close one and retry.`,
  tooManySessionsForClient: (limit: number) =>
    `Too many MCP sessions from this client (limit ${limit}); close one and retry.`,
  clientKeyFailed: (error: unknown) =>
    `MCP serveMcp: the clientKey hook threw (${printable(describeError(error), 300)}); the remote address is used instead`,
  sessionNotFound: () => 'Session not found',
  sessionRequired: () => 'Bad Request: Mcp-Session-Id header is required',
  methodNotAllowed: (method: string) => `Method ${method} is not allowed here`,
  notFound: (path: string) => `Not found: the MCP endpoint is ${path}`,
  toolNameOutsideSpec: (name: string) =>
    `MCP: the tool name "${name}" does not match ^[A-Za-z0-9._-]{1,128}$ (SEP-986); it is listed, but clients that enforce SEP-986 may refuse it (toolwright's client accepts it with a warning). Register it under an MCP-safe name to serve it to every client.`,
  tokenRefused: (reason: string) => `MCP: a bearer token was refused (${printable(reason, 200)})`,
  tokenVerificationUnavailable: (error: unknown) =>
    `MCP: a bearer token could not be verified, the request got 500: ${printable(describeError(error), 300)}`,
  tokenVerifierFailed: (error: unknown) =>
    `MCP: the token verifier threw something other than an OAuthError, the request got 500: ${printable(describeError(error), 300)}`,
  sessionOfAnotherCaller: (sessionId: string) =>
    `MCP: a request for session ${printable(sessionId, 80)} carried another caller's token; answered as an unknown session`,
  unknownToolForCaller: (name: string, suggestions: readonly string[]) =>
    suggestions.length > 0
      ? `There is no tool named "${printable(name, 60)}". Did you mean ${suggestions.map((suggestion) => `"${suggestion}"`).join(', ')}? Call one of the listed tools by its exact name.`
      : `There is no tool named "${printable(name, 60)}". Call one of the listed tools by its exact name.`,
  nonLoopbackWithoutAllowedHosts: (host: string) =>
    `binding to ${host} needs allowedHosts (the Host names clients use), so DNS-rebinding protection can check them.`,
};
