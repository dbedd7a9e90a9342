/**
 * The two-user scenario the verified-caller tests share (plain `serveMcp`, Nest, CLI): alice holds `mcp orders:read`,
 * bob `mcp orders:read orders:write`; tools need `orders:read` or `orders:write` (as `permissions`), or nothing.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { registerToolSearch, ToolRegistry } from '@toolwright/core';
import { currentMcpRequest } from '@toolwright/mcp';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JwtAuthorizationServer } from './jwt-authorization-server';

export const USERS = {
  alice: { secret: 'alice-secret', subject: 'alice', tenant: 'acme', scopes: ['mcp', 'orders:read', 'orders:write'] },
  bob: { secret: 'bob-secret', subject: 'bob', tenant: 'globex', scopes: ['mcp', 'orders:read', 'orders:write'] },
} as const;

/** The scopes each user's token carries in the scenario (what its client asks for). */
export const SCOPES = { alice: 'mcp orders:read', bob: 'mcp orders:read orders:write' } as const;

export const ALICE_TOOLS = ['list_notes', 'read_orders', 'search_tools', 'whoami'];
export const BOB_TOOLS = ['list_notes', 'read_orders', 'refund_order', 'search_tools', 'whoami'];

export function startAuthorizationServer(): Promise<JwtAuthorizationServer> {
  return JwtAuthorizationServer.start(USERS);
}

/** The scenario's tools, on a fresh registry. */
export function createScopedRegistry(): ToolRegistry {
  return addScopedTools(new ToolRegistry());
}

/** Registers the scenario's tools on `registry` (a Nest app's own, for one). */
export function addScopedTools(registry: ToolRegistry): ToolRegistry {
  const none = { type: 'object', properties: {} };
  registry.registerJsonSchemaTool({ name: 'list_notes', description: 'List the notes.', inputSchema: none }, () => [
    'first',
  ]);
  registry.registerJsonSchemaTool(
    { name: 'read_orders', description: 'Read the orders of a customer.', inputSchema: none },
    () => ['order-1'],
    { permissions: ['orders:read'] },
  );
  registry.registerJsonSchemaTool(
    {
      name: 'refund_order',
      description: 'Refund an order to the customer.',
      inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    },
    (params) => ({ refunded: (params as { order: string }).order }),
    { permissions: ['orders:write'] },
  );
  registry.registerJsonSchemaTool(
    { name: 'whoami', description: 'Who is calling.', inputSchema: none },
    (_params, invocation) => ({
      persona: invocation.context.persona ?? null,
      caller: currentMcpRequest()?.caller ?? null,
    }),
  );
  registerToolSearch(registry);
  return registry;
}

/** An SDK v2 client whose bearer token is read before every request (so a test can swap it). */
export async function connectAs(
  url: string,
  token: () => string,
  revision: '2025-11-25' | '2026-07-28' = '2025-11-25',
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client(
    { name: 'verified-caller-test', version: '1.0.0' },
    revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    authProvider: { token: async () => token() },
  });
  await client.connect(transport);
  return { client, transport };
}

export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** The names `search_tools` finds for a query, as the client's model would read them. */
export async function searchedNames(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search_tools', arguments: { query, limit: 20 } });
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  return (JSON.parse(text) as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort();
}

/** A raw `initialize` POST with the given Authorization header: the HTTP answer, for status and challenge checks. */
export async function rawInitialize(
  url: string,
  authorization: string | undefined,
  sessionId?: string,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...(authorization !== undefined ? { Authorization: authorization } : {}),
      ...(sessionId !== undefined ? { 'Mcp-Session-Id': sessionId } : {}),
    },
    body: JSON.stringify(
      sessionId === undefined
        ? {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
          }
        : { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    ),
  });
}

/** Waits until `condition` holds (re-running `poke` between checks), at most `rounds` x 50 ms. */
export async function eventually(condition: () => boolean, poke: () => void = () => undefined, rounds = 60) {
  for (let round = 0; !condition() && round < rounds; round++) {
    poke();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** A port free on 127.0.0.1 now (for a server whose public URL must be known before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
