import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';

export interface SdkHttpServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An MCP server written with the official SDK (low-level `Server`, stateless Streamable HTTP on 127.0.0.1): `configure`
 * sets its request handlers, once per request (stateless mode makes a server and a transport per request).
 */
export async function startSdkHttpServer(configure: (server: Server) => void): Promise<SdkHttpServer> {
  const http: HttpServer = createServer((request, response) => {
    const server = new Server({ name: 'sdk-http-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
    configure(server);
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
