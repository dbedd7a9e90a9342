// Public API of @toolwright/nestjs. Adding a symbol here makes it public.
export { ToolwrightModule } from './toolwright.module';
export type {
  ToolwrightModuleOptions,
  ToolwrightModuleAsyncOptions,
  CommandCall,
  CommandCallInterceptor,
  JsonSchemaToolRegistration,
  CompactToolRegistration,
} from './toolwright-options';
export { InjectToolContext, InjectToolInvocation } from './inject-tool-context.decorator';
export {
  TOOL_CONTEXT,
  TOOL_INVOCATION,
  TOOLWRIGHT_APPROVAL_STORE,
  TOOLWRIGHT_LOGGER,
  TOOLWRIGHT_MODULE_OPTIONS,
} from './constants';
export { ToolCallRequest } from './tool-call-request';
export { NestCommandResolver, type CommandProvision } from './nest-command-resolver';
export { ToolwrightExplorer } from './toolwright-explorer';
export { ProviderTools } from './provider-tools';
export { NestLoggerAdapter, type NestLoggerAdapterOptions } from './nest-logger-adapter';
export { StderrConsoleLogger } from './stderr-console-logger';
// The MCP parts (HTTP endpoint, stdio server, MCP clients) are in '@toolwright/nestjs/mcp': this entry never imports
// @toolwright/mcp or the MCP SDK (@modelcontextprotocol/*), so an app without MCP installs neither.

// Names that clash with @nestjs/common (its ExecutionContext is a guard's context, its Logger a class): aliases.
export type { ExecutionContext as ToolExecutionContext, Logger as ToolwrightLogger } from '@toolwright/core';
