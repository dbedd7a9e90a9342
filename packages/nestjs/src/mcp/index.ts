// Public API of @toolwright/nestjs/mcp: the MCP parts, for apps that install @toolwright/mcp and
// the MCP SDK v2 (optional peers of @toolwright/nestjs; the root entry never imports them).
export { ToolwrightMcpHttpModule, McpHttpEndpointHost, type ToolwrightMcpHttpOptions } from './mcp-http.module';
export {
  ToolwrightMcpClientModule,
  ToolwrightMcpClients,
  type ToolwrightMcpClientOptions,
  type ToolwrightMcpClientAsyncOptions,
} from './mcp-client.module';
export {
  bootstrapMcpStdio,
  guardStdout,
  type McpStdioBootstrapOptions,
  type McpStdioApplication,
  type StdoutGuard,
} from './stdio';
