import { ToolwrightError } from '@toolwright/core';

/** An MCP server over HTTP sent a response body (JSON) or an SSE event larger than the client reads; it was cut off. */
export class McpResponseTooLargeError extends ToolwrightError {
  readonly code = 'MCP_RESPONSE_TOO_LARGE';

  constructor(
    message: string,
    /** The limit that was passed, in bytes. */
    readonly limitBytes: number,
  ) {
    super(message);
  }
}
