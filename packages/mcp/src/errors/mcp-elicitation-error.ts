import { ToolwrightError } from '@toolwright/core';

/** The app's answer to a server's question (elicitation) was refused here, before anything was sent. */
export class McpElicitationError extends ToolwrightError {
  readonly code = 'MCP_ELICITATION_REFUSED';

  constructor(
    message: string,
    /** The server's name. */
    readonly server: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
