import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/server';
import type { McpCaller } from './bearer-auth';

/**
 * The MCP request a tool call is serving, for handlers that want to talk back to the client while they run.
 * `currentMcpRequest()` returns it inside a handler run by `serveMcp` (and `undefined` anywhere else).
 */
export interface McpRequestContext {
  /** The MCP session (stdio: one per server; HTTP: the `Mcp-Session-Id`; stateless HTTP: none). */
  readonly sessionId?: string;
  /** HTTP with `auth`: the verified caller of this request (never its token). */
  readonly caller?: McpCaller;
  readonly requestId: string | number;
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  /** The client's progress token, when it asked for progress. */
  readonly progressToken?: string | number;
  /** Sends `notifications/progress` for this request; false (nothing sent) when the client asked for no progress. */
  progress(progress: number, total?: number, message?: string): Promise<boolean>;
  /** Sends a `notifications/message` log entry to this session; false when below the level the client set. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<boolean>;
  /** Asks the client's model for a completion (`sampling/createMessage`); the client must declare sampling. */
  createMessage(params: CreateMessageRequest['params']): Promise<CreateMessageResult>;
  /** Asks the user for input (`elicitation/create`); the client must declare elicitation. Accepted content is validated. */
  elicitInput(params: ElicitRequest['params']): Promise<ElicitResult>;
  /**
   * Streamable HTTP with an event store: closes this request's SSE stream, so the client reconnects and receives the
   * result later (polling, SEP-1699). False when the transport cannot (stdio, no event store).
   */
  closeSseStream(): boolean;
}

const storage = new AsyncLocalStorage<McpRequestContext>();

/** The MCP request the current tool call serves, if `serveMcp` is running it. */
export function currentMcpRequest(): McpRequestContext | undefined {
  return storage.getStore();
}

/** @internal runs `work` with `context` as the current MCP request. */
export function runInMcpRequest<T>(context: McpRequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** Syslog severities, lowest first (RFC 5424 as MCP orders them). */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export function isLevelEnabled(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}
