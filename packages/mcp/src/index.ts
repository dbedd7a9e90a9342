// Public API of @toolwright/mcp. Adding a symbol here makes it public.

// Client: remote MCP servers' tools in the registry.
export {
  connectMcpServers,
  McpConnections,
  DEFAULT_MAX_RESPONSE_BYTES,
  type McpConnectionsReport,
} from './client/connect-mcp-servers';
export { McpServerConnection, type McpServerState, type McpServerStatus } from './client/mcp-server-connection';
export type {
  ConnectMcpServersOptions,
  McpServerConfig,
  McpServerCommonConfig,
  McpStdioServerConfig,
  McpHttpServerConfig,
  McpClientProtocol,
} from './client/config';
export {
  DEFAULT_MCP_RETRY_POLICY,
  retryDelays,
  resolveRetryPolicy,
  systemClock,
  type McpRetryPolicy,
  type McpClock,
} from './client/retry-policy';
export {
  ProcessGroupStdioTransport,
  UnparsableLineError,
  type ProcessGroupStdioTransportOptions,
} from './client/process-group-stdio-transport';
export { ProcessGroupReaper, isProcessAlive, isProcessGroupAlive, type ReaperHost } from './client/process-group';
export {
  BoundedJsonSchemaValidator,
  untrustedSchemaProblem,
  MAX_UNTRUSTED_SCHEMA_BYTES,
} from './client/bounded-schema-validator';
export { importRemoteTool, DEFAULT_MAX_RESULT_CHARS, type RemoteToolImportOptions } from './client/remote-tools';
export { MCP_TOOL_NAME } from './tool-names';
export { McpConnectionError } from './errors/mcp-connection-error';
export { McpResponseTooLargeError } from './errors/mcp-response-too-large-error';
export { McpAuthorizationError, type McpAuthorizationStep } from './errors/mcp-authorization-error';
export { McpElicitationError } from './errors/mcp-elicitation-error';
export { McpTokenStoreError } from './errors/mcp-token-store-error';
export type { McpOAuthOptions, McpAuthorizationRequest } from './client/oauth/oauth-options';
export { MemoryTokenStore, type TokenStore } from './client/oauth/token-store';
export { FileTokenStore, type FileTokenStoreOptions } from './client/oauth/file-token-store';
export { MemoryToolPinStore, type ToolPinStore } from './client/pinning/tool-pin-store';
export { FileToolPinStore, type FileToolPinStoreOptions } from './client/pinning/file-tool-pin-store';
export {
  toolDefinitionHash,
  type McpPinPolicy,
  type McpPinningOptions,
  type McpPinChange,
} from './client/pinning/tool-pinning';
export { McpPinStoreError } from './errors/mcp-pin-store-error';
export type { McpElicitationHandler, McpElicitationAnswer, McpElicitationDetails } from './client/elicitation';
export { boundedFetch } from './client/bounded-fetch';

// Server: a registry served over MCP.
export {
  serveMcp,
  MCP_HTTP_DEFAULTS,
  type McpHttpLimits,
  type ServeMcpOptions,
  type ServeMcpStdioOptions,
  type ServeMcpHttpOptions,
  type McpServerHandle,
  createMcpHttpEndpoint,
  type McpHttpEndpoint,
  type McpHttpEndpointOptions,
} from './server/serve-mcp';
export {
  createRegistryMcpServer,
  type McpServerOptions,
  type McpSessionInfo,
  type RegistryMcpServer,
  type McpServerWiring,
} from './server/create-mcp-server';
export { currentMcpRequest, type McpRequestContext } from './server/request-context';
export { protectedResourceMetadataPath, type McpServerAuthOptions, type McpCaller } from './server/bearer-auth';
export {
  jwtVerifier,
  introspectionVerifier,
  type JwtVerifierOptions,
  type IntrospectionVerifierOptions,
} from './server/token-verifiers';
export { toMcpTool } from './server/tool-listing';
export { toCallToolResult } from './server/tool-result';
export { stderrLogger, redirectConsoleToStderr } from './server/stderr-logger';

// Both directions.
export { McpContent } from './content';
