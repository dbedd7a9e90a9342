import { ToolwrightError } from '@toolwright/core';

/** A connection to an MCP server could not be made (or kept) within the retry policy: the server's tools are not available. */
export class McpConnectionError extends ToolwrightError {
  readonly code = 'MCP_CONNECTION_FAILED';

  constructor(
    message: string,
    /** The server's name. */
    readonly server: string,
    /** Connection attempts made. */
    readonly attempts: number,
    /** The tail of the server's stderr (stdio servers), as captured. */
    readonly stderr: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
