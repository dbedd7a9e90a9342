import { ToolwrightError } from '@toolwright/core';

/** A token store's file cannot be read, written or trusted (its mode lets others read it). */
export class McpTokenStoreError extends ToolwrightError {
  readonly code = 'MCP_TOKEN_STORE';

  constructor(
    message: string,
    /** The file. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
