// Public API of @toolwright/cli. Adding a symbol here makes it public. The binary is `toolwright` (src/bin.ts).

// The inspector, mountable in an application (Node http, Express, Nest) or started on its own server.
export { createInspector, type Inspector, type InspectorOptions } from './inspector/inspector';
export { startInspector, type StartInspectorOptions, type RunningInspector } from './inspector/start-inspector';
export { InspectorEventLog, type SecurityEventRecord, type InspectorCallRecord } from './inspector/event-log';
export { describeRegistry, type PageRegistry, type PageTool } from './inspector/describe-registry';
export type { PlaygroundExample } from './inspector/playground-examples';

// What the commands are made of, for scripts and tests.
export { runCli } from './program';
export { EXIT_CODES } from './exit-codes';
export { CliError } from './errors/cli-error';
export { loadAppRegistry, resolveAppModule, isToolRegistry } from './source/load-app';
export { splitCommandLine } from './source/load-mcp';
export { readCall, type CallShape, type ReadCall } from './calls/read-call';
export { reportCall, type CallReport, type LocatedTransformation } from './calls/call-report';
export { locateTransformation, type TransformationTarget } from './calls/locate';
export {
  providerDefinitions,
  lintSummary,
  type ProviderDefinitions,
  type LintSummary,
} from './commands/describe-providers';
