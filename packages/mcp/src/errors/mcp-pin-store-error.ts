import { ToolwrightError } from '@toolwright/core';

/** A pin store's file cannot be read, written or trusted (its mode lets others change it). */
export class McpPinStoreError extends ToolwrightError {
  readonly code = 'MCP_PIN_STORE';

  constructor(
    message: string,
    /** The file. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
