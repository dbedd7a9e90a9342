import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolInvocationContext } from '@toolwright/core';
import type { Client } from '@modelcontextprotocol/client';
import type { McpElicitationError } from '../errors/mcp-elicitation-error';

/**
 * The remote tool call a request from the server belongs to. A server's requests during a call (elicitation) sent
 * on the SSE stream of the call's own POST are read by the SDK in the async context the call was sent from, so the
 * store is the call's: its trusted context, never another call's. A server that sends them on its standalone
 * stream instead is matched by `inFlightCalls`: the one call running on that connection, and no guess when several are.
 */
export interface RemoteCallScope {
  readonly invocation: ToolInvocationContext;
  /** Aborts the call locally (an answer refused here ends it with `refused`). */
  readonly abort: AbortController;
  refused?: McpElicitationError;
}

export const remoteCallScope = new AsyncLocalStorage<RemoteCallScope>();

const running = new WeakMap<Client, Set<RemoteCallScope>>();

/** Runs `call` as one of `client`'s calls in flight. */
export async function inFlight<T>(client: Client, scope: RemoteCallScope, call: () => Promise<T>): Promise<T> {
  let calls = running.get(client);
  if (calls === undefined) {
    calls = new Set();
    running.set(client, calls);
  }
  calls.add(scope);
  try {
    return await call();
  } finally {
    calls.delete(scope);
  }
}

/** The call a server's request belongs to: the async context's, else the only call in flight on `client`. */
export function callOfRequest(client: Client): RemoteCallScope | undefined {
  const own = remoteCallScope.getStore();
  if (own !== undefined) return own;
  const calls = running.get(client);
  return calls?.size === 1 ? [...calls][0] : undefined;
}
