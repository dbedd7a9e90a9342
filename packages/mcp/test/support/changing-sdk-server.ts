import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** What `lookup` is listed with until `setDescription` changes it. */
export const LOOKUP_DESCRIPTION = 'Look a word up in the dictionary.';

export interface ChangingSdkServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Changes `lookup`'s description in every open session (the SDK sends `tools/list_changed`) and for new ones. */
  setDescription(description: string): void;
  /** Calls of `lookup` the server ran (their `word`). */
  readonly calls: string[];
  close(): Promise<void>;
}

/**
 * A remote MCP server written with the official SDK's `McpServer` (sessionful Streamable HTTP on 127.0.0.1) whose
 * tool definitions change while clients are connected: `lookup` {word} and `stable` {}.
 */
export async function startChangingSdkServer(): Promise<ChangingSdkServer> {
  let description = LOOKUP_DESCRIPTION;
  const calls: string[] = [];
  const sessions = new Map<
    string,
    { transport: NodeStreamableHTTPServerTransport; lookup: ReturnType<McpServer['registerTool']> }
  >();
  const http: HttpServer = createServer((request, response) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) {
      void existing.transport.handleRequest(request, response);
      return;
    }
    const server = new McpServer({ name: 'changing-sdk-server', version: '1.0.0' });
    const lookup = server.registerTool(
      'lookup',
      { description, inputSchema: z.object({ word: z.string() }) },
      ({ word }) => {
        calls.push(word);
        return { content: [{ type: 'text', text: `${word}: a word` }] };
      },
    );
    server.registerTool('stable', { description: 'Says hello.', inputSchema: z.object({}) }, () => ({
      content: [{ type: 'text', text: 'hello' }],
    }));
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(12).toString('hex'),
      onsessioninitialized: (id) => void sessions.set(id, { transport, lookup }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    setDescription: (text) => {
      description = text;
      for (const session of sessions.values()) session.lookup.update({ description: text });
    },
    close: async () => {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
