import type { JsonSchemaLimits, Logger, ToolRegistry } from '@toolwright/core';
import type { McpElicitationHandler } from './elicitation';
import type { ProcessGroupReaper } from './process-group';
import type { McpPinPolicy } from './pinning/tool-pinning';
import type { ToolPinStore } from './pinning/tool-pin-store';
import type { McpClock, McpRetryPolicy } from './retry-policy';

/** What every connection shares (resolved once by `connectMcpServers`). */
export interface ConnectionEnvironment {
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  readonly policy: McpRetryPolicy;
  readonly clock: McpClock;
  readonly connectTimeoutMs: number;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly schemaLimits?: Partial<JsonSchemaLimits>;
  readonly resolvedSchemaLimits: JsonSchemaLimits;
  readonly maxTools: number;
  readonly maxLineBytes?: number;
  readonly maxResultChars: number;
  readonly maxResponseBytes: number;
  readonly stderrTailChars: number;
  readonly stdinGraceMs?: number;
  readonly terminateGraceMs?: number;
  readonly descendantScanMs?: number;
  readonly reaper: ProcessGroupReaper | null;
  readonly onElicitation?: McpElicitationHandler;
  /** Where pins are kept and the default policy, when `pinning` was given or a server sets a policy. */
  readonly pinning?: { readonly store: ToolPinStore; readonly policy: McpPinPolicy };
}
